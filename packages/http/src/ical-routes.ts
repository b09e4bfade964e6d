// The iCalendar feeds over HTTP (docs/icalendar.md): `GET /events.ics`, `/events/{id}.ics`
// and `/events/by-slug/{slug}.ics`, and `Accept: text/calendar` on `GET /events`,
// `/events/{id}` and `/events/by-slug/{slug}`, which answer the same bytes. The feed routes
// are data like the JSON routes (the namespace index and /doc list them); the fetch handler
// asks here first, so `/events/by-slug/x.ics` is a feed and not the event with slug "x.ics".
import Negotiator from 'negotiator';
import { type Calendar, type CallContext, type Message } from '@evcal/core';
import { listValidator, type WireArgs } from '@evcal/core/binding';
import { entityTag, noneMatch, type EntityTags } from './conditional';
import { createRouter, operationRoute, type FeedKind, type Method, type Route, type RouteAction, type RouteMatch } from './route-table';
import type { WireResponse } from './wire-response';

/** The feed routes, in the order the namespace index and /doc list them (after the JSON routes). */
export const feedRoutes: readonly Route[] = [
  operationRoute('events.feed', {
    path: '/events.ics', methods: ['GET'], action: { kind: 'feed', feed: 'list' }, status: 200,
    summary: 'The iCalendar feed of the events GET /events lists with the same parameters, every page of them up to the feed cap',
  }),
  operationRoute('events.feedOne', { path: '/events/{id}.ics', methods: ['GET'], action: { kind: 'feed', feed: 'id' }, status: 200, summary: 'An event as iCalendar' }),
  operationRoute('events.feedBySlug', { path: '/events/by-slug/{slug}.ics', methods: ['GET'], action: { kind: 'feed', feed: 'slug' }, status: 200, summary: 'An event as iCalendar, by slug' }),
];

const router = createRouter(feedRoutes);

/** The feed route of a `.ics` address, if it is one (`allowed` is empty otherwise). */
export function matchFeedRoute(path: string, method: string): { match?: RouteMatch; allowed: readonly Method[] } {
  return router.match(path, method);
}

/**
 * The feed a request gets: that of a feed route, or of a JSON route with a feed (the event
 * routes) whose `Accept` prefers `text/calendar` to JSON and names it (a wildcard alone keeps
 * JSON, as clients sending `*\/*` or `text/*` have always had it).
 */
export function feedOperation(action: RouteAction, accept: string | null): FeedKind | undefined {
  if (action.kind === 'feed') return action.feed;
  const feed = isNegotiated(action) ? action.feed : undefined;
  if (!feed || !accept || !/text\/calendar/i.test(accept)) return undefined;
  return new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/calendar']) === 'text/calendar' ? feed : undefined;
}

/** Whether a route's answer depends on `Accept` (JSON or iCalendar): `Vary: Accept`. */
export function isNegotiated(action: RouteAction): action is Extract<RouteAction, { feed?: FeedKind }> & { readonly feed: FeedKind } {
  return (action.kind === 'list' || action.kind === 'read') && action.feed !== undefined;
}

export interface FeedRequest {
  readonly params: WireArgs;
  readonly ctx: CallContext;
  /** Turns texts (the calendar's name) into the handler's language. */
  readonly translate: (message: Message) => string;
  /** Headers every response of the handler carries (CORS, Content-Language). */
  readonly headers: Readonly<Record<string, string>>;
  /** HEAD: the headers only; no event is rendered. */
  readonly head: boolean;
  /** Told about an error that stops a feed after its first bytes were sent (the client sees a cut response). */
  readonly onError: (error: unknown) => void;
  /** The request's If-None-Match: a feed whose tag it names is answered 304 without being read. */
  readonly ifNoneMatch: EntityTags | undefined;
  /** What shapes the feed's bytes besides its arguments and the stored records (the language). */
  readonly variant: string;
}

/**
 * Runs a feed operation. Refusals (bad parameters, a protected or missing event) are thrown
 * before anything is sent, so they reach the client as the JSON errors of every route.
 */
export async function serveFeed(calendar: Calendar, feedKind: FeedKind, request: FeedRequest): Promise<WireResponse> {
  const options = { translate: request.translate };
  // The change counter first: a feed read later is never older than its tag (as lists do).
  const lastChange = await calendar.config.storage.lastChange();
  const feed = feedKind === 'list'
    ? await calendar.events.feed(request.params, request.ctx, options)
    : await calendar.events.feedOne(request.params, request.ctx, { ...options, by: feedKind });
  // Subscribers poll: a feed that has not changed is answered 304 from its tag alone.
  const etag = entityTag(listValidator(lastChange, feed.key), request.variant, true);
  if (!noneMatch(request.ifNoneMatch, etag)) return { status: 304, headers: { ...request.headers, etag }, body: null };
  const opened = await feed.open();
  return {
    status: 200,
    headers: {
      ...FEED_HEADERS,
      ...request.headers,
      // Readable by browser pages too: the CORS list (when the origin is allowed) and the feed's own.
      'access-control-expose-headers': [request.headers['access-control-expose-headers'], FEED_EXPOSED].filter(Boolean).join(', '),
      'content-disposition': `inline; filename="${feedKind === 'list' ? 'events' : 'event'}.ics"`,
      'x-evcal-feed-total': String(opened.total),
      'x-evcal-feed-truncated': opened.truncated ? 'true' : 'false',
      etag,
    },
    body: request.head ? null : reported(opened.body, request.onError),
  };
}

// ---- helpers ----

const FEED_HEADERS = {
  'content-type': 'text/calendar; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex',
};
const FEED_EXPOSED = 'X-Evcal-Feed-Total, X-Evcal-Feed-Truncated';

/** The chunks, with an error past the first one reported before it cuts the response. */
async function* reported(chunks: AsyncIterable<string>, onError: (error: unknown) => void): AsyncGenerator<string> {
  try {
    yield* chunks;
  } catch (error) {
    onError(error);
    throw error;
  }
}
