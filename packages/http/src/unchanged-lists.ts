// Lists answered lately, remembered by what selects their answer in a request, so that a list
// asked again with its ETag is answered 304 from its validator alone: one read of the storage's
// change counter (core's `listUnchanged`) instead of parsing the address, authenticating,
// planning the list and merging headers again. Most requests a calendar serves are such
// repeats: pages and apps polling the same lists.
//
// Only where the answer depends on nothing else the request carries: GET and HEAD without an
// `Authorization` header, to a handler whose `authenticate` takes those as anonymous
// (`anonymousWithoutAuthorization`) and that limits no rate (every request must reach the
// limiter). What else selects the answer is in the key: the site, the address with its query,
// `Origin` (CORS headers) and `Accept` (a list or its iCalendar feed). Anything in doubt goes the
// whole way, which remembers the answer again.
import type { Calendar, ListStability } from '@evcal/core';
import { isAnonymousWithoutAuthorization, type Authenticate } from './auth';
import { noneMatch, parseEntityTags } from './conditional';
import type { HandlerRequest } from './handler-request';
import type { WireResponse } from './wire-response';

/** A list's 304, as the whole way gave it (frozen: every request it answers shares it), and what its validator was made at. */
interface Remembered {
  readonly etag: string;
  readonly stable: ListStability;
  readonly response: WireResponse;
}

export interface UnchangedLists {
  /**
   * The 304 for a request that asks again, with its ETag, for a list remembered here and not
   * changed since, when the storage tells at once (Calendar.listUnchangedNow); undefined when
   * it cannot, or the request must go the whole way.
   */
  answerNow(request: HandlerRequest, site: string | undefined): WireResponse | undefined;
  /** `answerNow`, waiting for the storage where it must; undefined when the request must go the whole way. */
  answer(request: HandlerRequest, site: string | undefined): Promise<WireResponse | undefined> | undefined;
  /** Remembers the 304 the whole way gave (or would give) a request for a list planned at `stable`. */
  remember(request: HandlerRequest, site: string | undefined, notModified: WireResponse, stable: ListStability): void;
}

export function unchangedLists(
  calendar: Pick<Calendar, 'listUnchanged' | 'listUnchangedNow'>, options: { readonly authenticate?: Authenticate; readonly rateLimit?: unknown }, limit = 1024,
): UnchangedLists | undefined {
  if (options.rateLimit !== undefined || !isAnonymousWithoutAuthorization(options.authenticate)) return undefined;
  const kept = new Map<string, Remembered>();

  /** The remembered list the request asks for again with its ETag, and its key. */
  const find = (request: HandlerRequest, site: string | undefined): [string, Remembered] | undefined => {
    if (kept.size === 0) return undefined;
    const key = keyOf(request, site);
    const found = key === undefined ? undefined : kept.get(key);
    if (found === undefined) return undefined;
    const tags = parseEntityTags(request.headers.get('if-none-match'));
    return tags === undefined || noneMatch(tags, found.etag) ? undefined : [key!, found];
  };
  /** The remembered 304 if still unchanged; a changed list is forgotten (the whole way remembers it again). */
  const settle = ([key, found]: [string, Remembered], unchanged: boolean): WireResponse | undefined => {
    if (unchanged) return found.response;
    if (kept.get(key) === found) kept.delete(key);
    return undefined;
  };

  return {
    answerNow(request, site) {
      const hit = find(request, site);
      if (hit === undefined) return undefined;
      const unchanged = calendar.listUnchangedNow(hit[1].stable);
      return unchanged === undefined ? undefined : settle(hit, unchanged);
    },

    answer(request, site) {
      const hit = find(request, site);
      return hit === undefined ? undefined : calendar.listUnchanged(hit[1].stable).then((unchanged) => settle(hit, unchanged));
    },

    remember(request, site, notModified, stable) {
      const key = keyOf(request, site);
      const etag = notModified.headers.etag;
      if (key === undefined || etag === undefined) return;
      // Most lists asked again are remembered already, as they are: nothing to copy again.
      const known = kept.get(key);
      if (known !== undefined && known.etag === etag && sameStability(known.stable, stable)) return;
      if (kept.size >= limit && known === undefined) kept.delete(kept.keys().next().value!);
      const response = Object.freeze({ status: 304, headers: Object.freeze(Object.assign({}, notModified.headers)), body: null });
      kept.set(key, { etag, stable, response });
    },
  };
}

function sameStability(a: ListStability, b: ListStability): boolean {
  return a.change === b.change && a.from === b.from && a.until === b.until;
}

/** What selects a list's answer in a request that may be answered from here; undefined for any other. */
function keyOf(request: HandlerRequest, site: string | undefined): string | undefined {
  const method = request.method;
  if ((method !== 'GET' && method !== 'HEAD') || request.headers.has('authorization')) return undefined;
  return `${site ?? ''} ${request.url} ${request.headers.get('origin') ?? ''} ${request.headers.get('accept') ?? ''}`;
}
