// createFetchHandler: a web-standard `(Request) => Promise<Response>` over the route table, and
// the one path of a request (`answer`), in stages (behaviour reference: "Request pipeline"):
// a remembered answer still current (kept-answers.ts: a 304 or the 200's very bytes, at once
// where the storage reads its change counter at once); else route match, authentication,
// rate limit, parameters (body, query, path), the conditional request, then the core
// operation, which runs defaults, the required check, validation, the permission check and
// the handler in that order; every body encoded once (`jsonBody`, or the bytes core kept), and
// the answer remembered where the next request for it may be answered from memory.
import {
  CalendarError, isCalendarError, isStorageFault, msg, type Calendar, type CallContext, type Principal,
} from '@evcal/core';
import { hashText, sharedArgs, type WireArgs } from '@evcal/core/binding';
import type { Authenticate } from './auth';
import { namespaceIndex } from './namespace-index';
import { openApiDocument } from './openapi';
import { bodyParams, mergeParams, queryParams } from './request-params';
import { entityTag, noneMatch, parseEntityTags, variantOf, writePreconditions } from './conditional';
import { feedOperation, isNegotiated, matchFeedRoute, serveFeed } from './ical-routes';
import { restRouteUrl, sitePathOf } from './rest-route';
import { createRouter, type RouteAnswer } from './route-table';
import { corsHeaders, preflightHeaders, type CorsOptions } from './cors';
import { translateDocument, translator, type Catalogue } from './i18n/translator';
import type { RateLimit } from './rate-limit';
import { authenticateLimited, type CredentialFailureLimit } from './credential-limit';
import { internalError, noRoute, retryAfterOf, tooManyRequests, wireError, type WireErrorBody } from './wire-errors';
import type { HandlerRequest } from './handler-request';
import { boundedMemo } from './memo';
import { fetchHandlerOf, type EvcalHandler, type FetchHandler, type WireAnswer, type WireResponse } from './wire-response';
import { isTransportError } from './transport-errors';
import { idempotencyKeyOf, keptAnswerOf, keptAnswerText, requestFingerprint } from './idempotency-keys';
import { keptAnswers } from './kept-answers';
import { BASE_HEADERS, idUrl, listHeaders, notModified, pickFields, replay, respond, selfUrl, vary } from './answer-parts';

export interface FetchHandlerOptions {
  /**
   * Where the API is mounted, before the namespace: requests are served at
   * `<origin><basePath>/<namespace>/…`, and also in WordPress's plain-permalink form
   * `<site>/?rest_route=/<namespace>/…` (rewritten onto the first).
   * @default ''
   */
  readonly basePath?: string;
  /**
   * The namespace the routes live under. With `basePath: '/wp-json'` and
   * `namespace: 'tribe/events/v1'` the API is where The Events Calendar serves it.
   * @default 'cal/events/v1'
   */
  readonly namespace?: string;
  /** Who sent a request. @default every request is anonymous */
  readonly authenticate?: Authenticate;
  /**
   * The site's home URL, for permalinks (`url`) and `global_id`: a URL, or a function of the
   * request.
   * @default the request's origin
   */
  readonly siteUrl?: string | ((request: HandlerRequest) => string);
  /** The largest request body accepted; larger ones get 413. @default 1048576 (1 MiB) */
  readonly maxBodyBytes?: number;
  /** Told about every unexpected error (the client gets a generic 500). @default console.error */
  readonly onError?: (error: unknown, request: HandlerRequest) => void;
  /**
   * Told about every fault of the storage a request met (unreachable, full, read-only, a
   * commit of unknown outcome): the client gets 503 or 507 with `Retry-After`, and the error's
   * `cause` holds the driver's error for the log.
   * @default console.warn
   */
  readonly onStorageFault?: (error: CalendarError, request: HandlerRequest) => void;
  /** Cross-origin requests from these origins. @default off: no CORS headers */
  readonly cors?: CorsOptions;
  /** Asked before a request is served; a refusal is 429 with `Retry-After`. @default no limit */
  readonly rateLimit?: RateLimit;
  /**
   * Slows down guessing of credentials: told of every failed and successful authentication
   * per client address, it makes an address that failed too often wait (429 with
   * `Retry-After` to requests with credentials). See `memoryCredentialFailureLimit`.
   * @default no limit
   */
  readonly credentialFailures?: CredentialFailureLimit;
  /**
   * Refuse writes to an existing resource (update, patch, delete by id or slug) that carry no
   * `If-Match` with 428 `rest_precondition_required`, so that no client can overwrite a change
   * it has not seen (optimistic concurrency). Creates are not affected.
   * @default false
   */
  readonly requireIfMatch?: boolean;
  /**
   * The language of messages and descriptions: a bundled language (`'en'`, `'de'`, `'fr'`,
   * `'es'`) or an app's own catalogue. Data, codes and field names are the same in every
   * language. Mount one handler per language under its own `basePath` for language-specific
   * addresses (or use `createLanguageHandler`).
   * @default 'en'
   */
  readonly locale?: string | Catalogue;
}

export function createFetchHandler(calendar: Calendar, options: FetchHandlerOptions = {}): EvcalHandler {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const namespace = (options.namespace ?? 'cal/events/v1').replace(/^\/+|\/+$/g, '');
  const prefix = `${basePath}/${namespace}`;
  const maxBodyBytes = options.maxBodyBytes ?? 1_048_576;
  const onError = options.onError ?? ((error: unknown) => console.error('evcal: unexpected error', error));
  const onStorageFault = options.onStorageFault ?? ((error: CalendarError) => console.warn('evcal: storage fault', error.code, error.cause ?? error));
  const router = createRouter();
  const t = translator(options.locale);
  const documents = documentCache();
  // Most requests repeat an address already seen: its URL parsed, its query read and its
  // parameters merged once per address (and site), its path matched once per method.
  const targets = boundedMemo<Target>(1024);
  const matches = boundedMemo<ReturnType<typeof router.match>>(1024);
  // A list's variant (language, `_fields`) hashed once per `_fields` value.
  const listVariants = boundedMemo<string>(256);
  // Lists and reads answered lately, answered again from memory while still current.
  const kept = keptAnswers(calendar, options);

  const siteOf = (request: HandlerRequest) => (typeof options.siteUrl === 'function' ? options.siteUrl(request) : options.siteUrl);

  /** The one path: a remembered answer still current, else the whole way. */
  function answer(request: HandlerRequest): WireAnswer {
    const site = siteOf(request);
    let early: ReturnType<NonNullable<typeof kept>['answer']>;
    try {
      early = kept?.answer(request, site);
    } catch {
      // Whatever failed (the storage, asked whether the answer changed) fails again the whole way, which reports it.
      early = undefined;
    }
    if (early === undefined) return whole(request, site);
    if (!(early instanceof Promise)) return early;
    return early.then((a) => a ?? whole(request, site), () => whole(request, site));
  }

  async function whole(request: HandlerRequest, site: string | undefined): Promise<WireResponse> {
    const { path, search, query, addressParams, siteRoot, apiRoot } = targets(site === undefined ? request.url : `${site} ${request.url}`, () => {
      const url = restRouteUrl(new URL(request.url), sitePathOf(site), basePath);
      const urlOrigin = `${url.protocol}//${url.host}`;
      const query = safeQuery(url);
      return {
        path: pathWithin(url.pathname, prefix), search: url.search, query, addressParams: sharedArgs(mergeParams({ path: {}, query, body: {} })),
        siteRoot: (site ?? urlOrigin).replace(/\/+$/, ''), apiRoot: `${urlOrigin}${prefix}`,
      };
    });
    let method = request.method.toUpperCase();
    const override = (typeof query._method === 'string' ? query._method : request.headers.get('x-http-method-override'))?.toUpperCase();
    if (override && method === 'POST') method = override;
    const head = method === 'HEAD';
    const envelope = '_envelope' in query;
    const fields = typeof query._fields === 'string' ? query._fields : undefined;
    const origin = request.headers.get('origin');
    // Headers are merged with Object.assign and set name by name, not spread: V8 takes a slow
    // path for a spread that adds names (about 3 µs a response; see withHeaders in node-writer.ts).
    const common: Record<string, string> = Object.assign({}, corsHeaders(options.cors, origin));
    common['content-language'] = t.language;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      respond(status, fields ? pickFields(body, fields) : body, common, headers, { head, envelope });
    /** A body already serialised (a list joined from its items' cached texts); `_fields` and `_envelope` need the object. */
    const sendJson = (status: number, chunks: () => readonly Uint8Array[], body: () => unknown, headers: Record<string, string>): WireResponse =>
      (fields || envelope ? send(status, body(), headers) : { status, headers: Object.assign({}, BASE_HEADERS, common, headers), body: head ? null : chunks() });

    try {
      if (path === undefined) return send(404, noRoute(t));
      // iCalendar addresses (`/events.ics`, …) first: `/events/by-slug/x.ics` is a feed, not the slug "x.ics".
      const routeMethod = head ? 'GET' : method;
      const { match, allowed } = matches(`${routeMethod} ${path}`, () => {
        const feedRoute = matchFeedRoute(path, routeMethod);
        return feedRoute.allowed.length ? feedRoute : router.match(path, routeMethod);
      });
      if (method === 'OPTIONS' && allowed.length > 0) {
        const preflight = request.headers.has('access-control-request-method') ? preflightHeaders(options.cors, origin, allowed) : {};
        if (Object.keys(preflight).length > 0) {
          return { status: 204, headers: { allow: allowed.join(', '), 'content-language': t.language, ...preflight }, body: null };
        }
        return send(200, { methods: allowed }, { allow: allowed.join(', ') });
      }
      if (!match) return send(404, noRoute(t));

      const authenticated = options.authenticate ? await authenticateLimited(options.authenticate, options.credentialFailures, request) : undefined;
      if (authenticated && 'retryAfter' in authenticated) return send(429, tooManyRequests(t), { 'retry-after': String(authenticated.retryAfter) });
      const principal = authenticated?.principal;
      if (options.rateLimit) {
        const decision = await options.rateLimit({ request, principal, route: match.route.path });
        if (!decision.allowed) {
          const retry = decision.retryAfterSeconds;
          return send(429, tooManyRequests(t), retry === undefined ? {} : { 'retry-after': String(Math.ceil(retry)) });
        }
      }
      const ctx: CallContext = principal ? { links: { siteUrl: siteRoot, apiRoot }, principal } : { links: { siteUrl: siteRoot, apiRoot } };
      const bodyIn = await bodyParams(request, maxBodyBytes);
      // A request with neither path captures nor a body (most reads) shares its address's frozen parameters.
      const params = isEmpty(match.params) && isEmpty(bodyIn) ? addressParams : mergeParams({ path: match.params, query, body: bodyIn });
      const action = match.route.action;
      // Validators (RFC 9110 §13): reads answer 304 to a matching If-None-Match, writes to an
      // existing resource check If-Match / If-None-Match inside their transaction. Answers
      // wrapped by `_envelope` carry their status in the body: no 304 there.
      const varies = vary(common.vary, options.authenticate !== undefined, isNegotiated(action));
      const caching: Record<string, string> = { 'cache-control': principal ? 'private, no-cache' : 'no-cache' };
      if (varies) caching.vary = varies;
      const ifNoneMatch = envelope ? undefined : parseEntityTags(request.headers.get('if-none-match'));
      const feed = feedOperation(action, request.headers.get('accept'));
      if (feed) {
        const headers = { ...common, ...caching };
        return await serveFeed(calendar, feed, {
          params, ctx, translate: t.message, headers, head, onError: (e) => onError(e, request), ifNoneMatch, variant: variantOf([t.language, 'ics']),
        });
      }
      switch (action.kind) {
        case 'root':
          return send(200, documents(`root ${apiRoot} ${siteRoot}`, () => translateDocument(namespaceIndex(namespace, apiRoot, siteRoot), t)));
        case 'doc': {
          // 300 KB that change only with the server's version: its bytes and their entity tag made
          // once per address, and a 304 to a client that has them (the reference page at /docs).
          const doc = documents(`doc ${apiRoot}`, () => {
            const body = translateDocument(openApiDocument(apiRoot), t);
            const bytes = new TextEncoder().encode(JSON.stringify(body));
            return { body, bytes, etag: `"${hashText(JSON.stringify(body))}"` };
          });
          const headers = Object.assign({ etag: doc.etag }, caching);
          if (!noneMatch(ifNoneMatch, doc.etag)) return notModified(doc.etag, caching, common);
          return sendJson(200, () => [doc.bytes], () => doc.body, headers);
        }
        case 'feed':
          // Reached only when feedOperation gave no feed, which it always does for feed routes.
          return send(404, noRoute(t));
        case 'list': {
          const planned = await action.plan(calendar)(params, ctx);
          const etag = entityTag(planned.validator, listVariants(fields ?? '', () => variantOf([t.language, fields ?? '', 'list'])), true);
          const unmodified = notModified(etag, caching, common);
          // Remembered for anonymous callers (kept-answers.ts), while the plan's validator holds.
          const stable = kept && !envelope && !principal ? planned.stable : undefined;
          if (!noneMatch(ifNoneMatch, etag)) {
            if (stable) kept!.remember(request, site, stable, unmodified);
            return unmodified;
          }
          const list = await planned.run();
          const headers = Object.assign(listHeaders(list), caching);
          headers.etag = etag;
          const ok = sendJson(200, () => list.chunks, () => list.body, headers);
          if (stable) kept!.remember(request, site, stable, unmodified, head ? undefined : ok);
          return ok;
        }
        default: {
          const reading = action.kind === 'read';
          const changing = action.kind === 'change';
          const ifMatch = changing ? parseEntityTags(request.headers.get('if-match')) : undefined;
          if (changing && options.requireIfMatch && ifMatch === undefined) {
            throw new CalendarError('precondition_required', msg('Changes need an If-Match header with the ETag of the resource as you read it.'));
          }
          const preconditions = changing ? writePreconditions(ifMatch, ifNoneMatch) : undefined;
          const callCtx = preconditions ? { ...ctx, preconditions } : ctx;
          const run = (c: CallContext) => action.run(calendar)(params, c);
          /**
           * The headers of an answer: its ETag (from its validator), and where a created resource
           * is (from its value; a read's value is left alone: parsing it may be what sending its bytes avoids).
           */
          const headersOf = (answer: RouteAnswer): Record<string, string> => {
            const etag = answer.validator === undefined ? undefined
              : entityTag(answer.validator, variantOf([t.language, principal?.id ?? 0, principal?.role ?? '', siteRoot, apiRoot, search, reading ? 'read' : 'write']), false);
            const location = action.kind !== 'create' ? undefined
              : action.location === 'self' ? selfUrl(answer.value)
              : action.location === 'id' ? idUrl(`${apiRoot}${match.route.path}`, answer.value) : undefined;
            return { ...(location ? { location } : {}), ...(etag ? { etag } : {}), ...(reading ? caching : {}) };
          };
          // Writes sent with an Idempotency-Key run once per key; a repeat gets the first answer (idempotency-keys.ts).
          const key = reading ? undefined : idempotencyKeyOf(request.headers.get('idempotency-key'));
          let result: RouteAnswer;
          if (key === undefined) {
            result = await run(callCtx);
          } else {
            const fingerprint = await requestFingerprint(method, `${prefix}${path}${search}`, bodyIn);
            const outcome = await calendar.idempotent({ key, fingerprint }, callCtx, run, (r) => keptAnswerText({
              status: match.route.status, headers: headersOf(r), body: JSON.stringify(fields ? pickFields(r.value, fields) : r.value),
            }));
            if (outcome.replayed) return replay(keptAnswerOf(outcome.answer), common, { head, envelope });
            result = outcome.result;
          }
          const headers = headersOf(result);
          // A kept read (an event's, core's kept-reads.ts) says how long it holds: anonymous
          // answers are remembered while it does (kept-answers.ts), and answered from memory.
          const stable = kept && !principal && !fields && !envelope ? result.stable : undefined;
          if (reading && headers.etag && !noneMatch(ifNoneMatch, headers.etag)) {
            const unmodified = notModified(headers.etag, caching, common);
            if (stable) kept!.remember(request, site, stable, unmodified);
            return unmodified;
          }
          // A representation whose JSON text was already made (an event read) is sent as that text.
          const bytes = result.bytes;
          const ok = bytes ? sendJson(match.route.status, () => [bytes], () => result.value, headers) : send(match.route.status, result.value, headers);
          if (stable) kept!.remember(request, site, stable, notModified(headers.etag!, caching, common), head ? undefined : ok);
          return ok;
        }
      }
    } catch (error) {
      if (isCalendarError(error) || isTransportError(error)) {
        const body = wireError(error, t);
        if (isStorageFault(error)) onStorageFault(error, request);
        const retryAfter = retryAfterOf(error);
        return send(body.data.status, body, retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
      }
      // The client went away (e.g. mid-upload): nothing went wrong here, and nobody will read this.
      if (request.signal.aborted) return { status: 499, headers: {}, body: null };
      onError(error, request);
      return send(500, internalError(t));
    }
  }

  return fetchHandlerOf(answer);
}

// ---- helpers ----

/** What a request's address alone determines (kept per address, frozen). */
interface Target {
  /** The path below the API root, or undefined when outside it. */
  readonly path: string | undefined;
  /** The query string as sent (`?…`, or ''). */
  readonly search: string;
  readonly query: WireArgs;
  /** The query's parameters as operations take them (mergeParams without path or body). */
  readonly addressParams: WireArgs;
  readonly siteRoot: string;
  readonly apiRoot: string;
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/** The path below the API root ('' for the root itself), or undefined when outside it. */
function pathWithin(pathname: string, prefix: string): string | undefined {
  const lower = pathname.toLowerCase();
  const p = prefix.toLowerCase();
  if (lower === p || lower === `${p}/`) return '';
  return lower.startsWith(`${p}/`) ? pathname.slice(prefix.length) : undefined;
}

function safeQuery(url: URL): Record<string, unknown> {
  try {
    return queryParams(url);
  } catch {
    return {};
  }
}

/**
 * The namespace index and /doc depend only on the addresses they were requested under; they
 * are built once per address (a handful: one per host name the API is reached by).
 */
function documentCache(limit = 32): <T>(key: string, build: () => T) => T {
  const cache = new Map<string, unknown>();
  return <T>(key: string, build: () => T): T => {
    if (cache.has(key)) return cache.get(key) as T;
    const value = build();
    if (cache.size >= limit) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
    return value;
  };
}

export type { EvcalHandler, FetchHandler, Principal, WireErrorBody };
