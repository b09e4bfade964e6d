// Every operation of a calendar, declared once: the arguments it takes (their valibot schemas,
// which validate a call and type what the operation receives, InferOutput) and the
// representation it answers with. The operations parse their input with these declarations, and
// @evcal/http reads the same objects for its route table, the namespace index and /doc, so the
// documentation and the server cannot disagree on an argument. How an operation is exposed
// over HTTP (path, methods, status, headers) is the binding's, in its route table.
import type { ArgSpecs } from '../kernel/args';
import type { REPRESENTATIONS } from '../represent/schemas';
import type { SYNC_REPRESENTATIONS } from '../represent/change-schemas';
import { CHANGES_ARGS } from '../changes/change-args';
import { WEBHOOK_ARGS } from '../changes/webhook-args';
import { EVENT_ARGS } from '../events/event-args';
import { LINKED_POST_ARGS } from '../linked-posts/linked-post-args';
import { TERM_ARGS } from '../terms/term-args';

/** The name of a representation schema (`Event`, `EventList`, …): what /doc's components are named. */
export type RepresentationName = keyof typeof REPRESENTATIONS | keyof typeof SYNC_REPRESENTATIONS;

/** One operation: its arguments and what it answers (a representation, or an iCalendar feed). */
export interface OperationDeclaration<A extends ArgSpecs = ArgSpecs> {
  readonly args: A;
  readonly result: RepresentationName | 'iCalendar';
}

const declare = <A extends ArgSpecs>(args: A, result: OperationDeclaration['result']): OperationDeclaration<A> => ({ args, result });

function linkedPostDeclarations<A extends (typeof LINKED_POST_ARGS)[keyof typeof LINKED_POST_ARGS]>(args: A, item: 'Venue' | 'Organizer') {
  return {
    list: declare(args.list, `${item}List`),
    create: declare(args.create, item),
    get: declare(args.get, item),
    getBySlug: declare(args.getBySlug, item),
    update: declare(args.update, item),
    updateBySlug: declare(args.updateBySlug, item),
    patch: declare(args.update, item),
    patchBySlug: declare(args.updateBySlug, item),
    delete: declare(args.delete, item),
    deleteBySlug: declare(args.deleteBySlug, item),
  };
}

function termDeclarations<A extends (typeof TERM_ARGS)[keyof typeof TERM_ARGS]>(args: A, list: 'CategoryList' | 'TagList') {
  return {
    list: declare(args.list, list),
    create: declare(args.create, 'Term'),
    get: declare(args.get, 'Term'),
    update: declare(args.update, 'Term'),
    delete: declare(args.delete, 'Term'),
  };
}

const venues = linkedPostDeclarations(LINKED_POST_ARGS.venue, 'Venue');
const organizers = linkedPostDeclarations(LINKED_POST_ARGS.organizer, 'Organizer');
const categories = termDeclarations(TERM_ARGS.category, 'CategoryList');
const tags = termDeclarations(TERM_ARGS.tag, 'TagList');

/** Every operation, by the name the binding routes to. */
export const OPERATIONS = {
  'events.list': declare(EVENT_ARGS.list, 'EventList'),
  'events.create': declare(EVENT_ARGS.create, 'Event'),
  'events.get': declare(EVENT_ARGS.get, 'Event'),
  'events.getBySlug': declare(EVENT_ARGS.getBySlug, 'Event'),
  'events.update': declare(EVENT_ARGS.update, 'Event'),
  'events.updateBySlug': declare(EVENT_ARGS.updateBySlug, 'Event'),
  'events.patch': declare(EVENT_ARGS.patch, 'Event'),
  'events.patchBySlug': declare(EVENT_ARGS.patchBySlug, 'Event'),
  'events.delete': declare(EVENT_ARGS.delete, 'Event'),
  'events.deleteBySlug': declare(EVENT_ARGS.deleteBySlug, 'Event'),
  'events.feed': declare(EVENT_ARGS.feed, 'iCalendar'),
  'events.feedOne': declare(EVENT_ARGS.get, 'iCalendar'),
  'events.feedBySlug': declare(EVENT_ARGS.getBySlug, 'iCalendar'),
  'venues.list': venues.list,
  'venues.create': venues.create,
  'venues.get': venues.get,
  'venues.getBySlug': venues.getBySlug,
  'venues.update': venues.update,
  'venues.updateBySlug': venues.updateBySlug,
  'venues.patch': venues.patch,
  'venues.patchBySlug': venues.patchBySlug,
  'venues.delete': venues.delete,
  'venues.deleteBySlug': venues.deleteBySlug,
  'organizers.list': organizers.list,
  'organizers.create': organizers.create,
  'organizers.get': organizers.get,
  'organizers.getBySlug': organizers.getBySlug,
  'organizers.update': organizers.update,
  'organizers.updateBySlug': organizers.updateBySlug,
  'organizers.patch': organizers.patch,
  'organizers.patchBySlug': organizers.patchBySlug,
  'organizers.delete': organizers.delete,
  'organizers.deleteBySlug': organizers.deleteBySlug,
  'categories.list': categories.list,
  'categories.create': categories.create,
  'categories.get': categories.get,
  'categories.update': categories.update,
  'categories.delete': categories.delete,
  'tags.list': tags.list,
  'tags.create': tags.create,
  'tags.get': tags.get,
  'tags.update': tags.update,
  'tags.delete': tags.delete,
  'changes.list': declare(CHANGES_ARGS, 'Changes'),
  'webhooks.list': declare(WEBHOOK_ARGS.list, 'WebhookEndpointList'),
  'webhooks.create': declare(WEBHOOK_ARGS.create, 'WebhookEndpoint'),
  'webhooks.get': declare(WEBHOOK_ARGS.get, 'WebhookEndpoint'),
  'webhooks.update': declare(WEBHOOK_ARGS.update, 'WebhookEndpoint'),
  'webhooks.delete': declare(WEBHOOK_ARGS.delete, 'WebhookEndpoint'),
} as const satisfies Record<string, OperationDeclaration>;

export type OperationName = keyof typeof OPERATIONS;
