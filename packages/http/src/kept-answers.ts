// The first stage of a request (fetch-handler.ts): answers remembered from the whole way. A list
// or single read answered lately, remembered by what selects its answer in a request, is
// answered again from that memory, a 304 to a client that sends its ETag back and the very
// bytes of its 200 to any other, after one read of the storage's change counter (core's
// `listUnchanged`) instead of parsing the address, authenticating, planning the list and
// merging headers again. Most requests a calendar serves are such repeats: pages and apps
// polling the same lists and events.
//
// It fails closed: an answer is given only while it is the one the whole way would give (no
// change committed since, the clock within the interval its dates read the same, nothing due to
// run first: `ListStability`), and only where the answer depends on nothing else the request
// carries: GET and HEAD without an `Authorization` header, to a handler whose `authenticate`
// takes those as anonymous (`anonymousWithoutAuthorization`) and that limits no rate (every
// request must reach the limiter). What else selects the answer is in the key: the site, the
// address with its query (`_fields`, the language's base path), `Origin` (CORS headers) and
// `Accept` (a list or its iCalendar feed). Anything in doubt goes the whole way, which
// remembers the answer again.
import type { Calendar, ListStability } from '@evcal/core';
import { isAnonymousWithoutAuthorization, type Authenticate } from './auth';
import { noneMatch, parseEntityTags } from './conditional';
import type { HandlerRequest } from './handler-request';
import { isPieces, type WireResponse } from './wire-response';

/** What the whole way answered a request, frozen (every request it answers shares it), and what its validator was made at. */
interface Remembered {
  readonly etag: string;
  readonly stable: ListStability;
  readonly notModified: WireResponse;
  /** Its 200 (GET), and the same without a body (HEAD), when remembered. */
  readonly ok: WireResponse | undefined;
  readonly okHead: WireResponse | undefined;
  /** The bytes of `ok`'s body, counted against the budget. */
  readonly bytes: number;
}

export interface KeptAnswers {
  /**
   * The remembered answer to a request, if it is still the one the whole way would give: at
   * once where the storage reads its change counter at once (Calendar.listUnchangedNow), else
   * a promise of it; undefined (or a promise of undefined) when the request must go the whole way.
   */
  answer(request: HandlerRequest, site: string | undefined): WireResponse | Promise<WireResponse | undefined> | undefined;
  /**
   * Remembers what the whole way answered (or would answer) a request for a list or read whose
   * validator was made at `stable`: its 304, and its 200 when given (a GET's, with its body).
   */
  remember(request: HandlerRequest, site: string | undefined, stable: ListStability, notModified: WireResponse, ok?: WireResponse): void;
}

export interface KeptAnswersLimits {
  /** How many requests' answers are remembered. @default 1024 */
  readonly answers?: number;
  /** The bytes of remembered 200 bodies; beyond, only 304s are remembered. @default 8 MiB */
  readonly bytes?: number;
}

export function keptAnswers(
  calendar: Pick<Calendar, 'listUnchanged' | 'listUnchangedNow'>, options: { readonly authenticate?: Authenticate; readonly rateLimit?: unknown },
  limits: KeptAnswersLimits = {},
): KeptAnswers | undefined {
  if (options.rateLimit !== undefined || !isAnonymousWithoutAuthorization(options.authenticate)) return undefined;
  const most = limits.answers ?? 1024;
  const budget = limits.bytes ?? 8 * 1024 * 1024;
  const kept = new Map<string, Remembered>();
  let bytes = 0;

  const forget = (key: string, found: Remembered) => {
    if (kept.get(key) !== found) return;
    kept.delete(key);
    bytes -= found.bytes;
  };
  /** The remembered answer the request asks for, its entry and its key. */
  const find = (request: HandlerRequest, site: string | undefined): [string, Remembered, WireResponse] | undefined => {
    if (kept.size === 0) return undefined;
    const key = keyOf(request, site);
    const found = key === undefined ? undefined : kept.get(key);
    if (found === undefined) return undefined;
    const header = request.headers.get('if-none-match');
    // Most clients send back the tag they were given, as it was: no parsing for them.
    const matches = header !== null && (header === found.etag || !noneMatch(parseEntityTags(header), found.etag));
    const answer = matches ? found.notModified : request.method === 'HEAD' ? found.okHead : found.ok;
    return answer === undefined ? undefined : [key!, found, answer];
  };
  /** The remembered answer if still current; a changed one is forgotten (the whole way remembers it again). */
  const settle = ([key, found, answer]: [string, Remembered, WireResponse], unchanged: boolean): WireResponse | undefined => {
    if (unchanged) return answer;
    forget(key, found);
    return undefined;
  };

  return {
    answer(request, site) {
      const hit = find(request, site);
      if (hit === undefined) return undefined;
      const unchanged = calendar.listUnchangedNow(hit[1].stable);
      if (unchanged !== undefined) return settle(hit, unchanged);
      return calendar.listUnchanged(hit[1].stable).then((now) => settle(hit, now));
    },

    remember(request, site, stable, notModified, ok) {
      const key = keyOf(request, site);
      const etag = notModified.headers.etag;
      if (key === undefined || etag === undefined) return;
      const known = kept.get(key);
      const same = known !== undefined && known.etag === etag && sameStability(known.stable, stable);
      const size = ok === undefined ? 0 : bodyBytes(ok);
      const fits = ok !== undefined && ok.status === 200 && bytes - (known?.bytes ?? 0) + size <= budget;
      // Most answers given the whole way are remembered already, as they are: nothing to copy again.
      if (same && (known.ok !== undefined || !fits)) return;
      if (known !== undefined) forget(key, known);
      else if (kept.size >= most) {
        const oldest = kept.keys().next().value!;
        forget(oldest, kept.get(oldest)!);
      }
      const okFrozen = fits ? frozen(ok!) : undefined;
      kept.set(key, {
        etag, stable,
        notModified: same ? known.notModified : frozen({ status: 304, headers: notModified.headers, body: null }),
        ok: okFrozen,
        okHead: okFrozen && Object.freeze({ status: okFrozen.status, headers: okFrozen.headers, body: null }),
        bytes: fits ? size : 0,
      });
      if (fits) bytes += size;
    },
  };
}

/** An answer every request it answers may share: its headers copied and frozen. */
function frozen(w: WireResponse): WireResponse {
  return Object.freeze({ status: w.status, headers: Object.freeze(Object.assign({}, w.headers)), body: w.body });
}

/** The bytes of an answer's body; an answer whose body is not encoded pieces is not remembered (infinite). */
function bodyBytes(w: WireResponse): number {
  if (w.body === null || typeof w.body === 'string' || !isPieces(w.body)) return Infinity;
  let n = 0;
  for (const piece of w.body) n += piece.byteLength;
  return n;
}

function sameStability(a: ListStability, b: ListStability): boolean {
  return a.change === b.change && a.from === b.from && a.until === b.until;
}

/** What selects an answer in a request that may be answered from here; undefined for any other. */
function keyOf(request: HandlerRequest, site: string | undefined): string | undefined {
  const method = request.method;
  if ((method !== 'GET' && method !== 'HEAD') || request.headers.has('authorization')) return undefined;
  return `${site ?? ''} ${request.url} ${request.headers.get('origin') ?? ''} ${request.headers.get('accept') ?? ''}`;
}
