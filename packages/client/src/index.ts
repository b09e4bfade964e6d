// @evcal/client: a small typed client for the evcal API, for browsers and Node.
export { createEvcalClient } from './client';
export type { EvcalClient, EvcalClientOptions } from './client';
export type { ListBody, ListItem, ListPage, ListPath, ListQuery } from './paging';
export { EvcalApiError, isApiError, outcome } from './errors';
export type { ApiError, Outcome } from './errors';
export { ifMatch, ifNoneMatch } from './conditional';
export type { components, paths } from './generated/api';

import type { components } from './generated/api';
type Schemas = components['schemas'];
/** The representations, as /doc declares them. */
export type Event = Schemas['Event'];
export type Venue = Schemas['Venue'];
export type Organizer = Schemas['Organizer'];
export type Term = Schemas['Term'];
export type EmbeddedTerm = Schemas['EmbeddedTerm'];
export type Image = Schemas['Image'];
export type EventList = Schemas['EventList'];
export type VenueList = Schemas['VenueList'];
export type OrganizerList = Schemas['OrganizerList'];
export type CategoryList = Schemas['CategoryList'];
export type TagList = Schemas['TagList'];
