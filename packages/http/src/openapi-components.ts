// The response shapes of /doc's `components.schemas`, generated from core's declarations of
// the representations (core: represent/schemas.ts), which also type every operation's result:
// /doc cannot describe anything else than what is rendered.
import { REPRESENTATIONS, SYNC_REPRESENTATIONS } from '@evcal/core';
import { toJsonSchemaDefs } from '@valibot/to-json-schema';

const ALL = { ...REPRESENTATIONS, ...SYNC_REPRESENTATIONS };
const defs = toJsonSchemaDefs(ALL, { target: 'openapi-3.0', errorMode: 'throw' });

/** The component schemas, their references to one another pointing into `components`. */
export const COMPONENTS: Record<string, unknown> = JSON.parse(JSON.stringify(defs).replaceAll('"#/$defs/', '"#/components/schemas/'));

/** The component holding the success body of each collection's routes: the item, and the list. */
export const RESPONSE_COMPONENTS: Readonly<Record<string, { item: keyof typeof ALL; list: keyof typeof ALL }>> = {
  events: { item: 'Event', list: 'EventList' },
  venues: { item: 'Venue', list: 'VenueList' },
  organizers: { item: 'Organizer', list: 'OrganizerList' },
  categories: { item: 'Term', list: 'CategoryList' },
  tags: { item: 'Term', list: 'TagList' },
  changes: { item: 'Changes', list: 'Changes' },
  webhooks: { item: 'WebhookEndpoint', list: 'WebhookEndpointList' },
};
