// @evcal/client against a real `evcal serve` process: typed calls of every kind, paging over
// whole lists by next_rest_url, ETags (304 and 412), errors as typed values, list filters as
// CSV, and a language's address.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createEvcalClient, EvcalApiError, ifMatch, ifNoneMatch, outcome, type ApiError, type Event, type Venue } from '@evcal/client';
import { needBuiltCli, startServe } from '../../cli/test/support/serve-process';

needBuiltCli();

const ADMIN = 'tok-admin';
const ARGS = ['--user', `1:administrator:${ADMIN}`, '--now', '2026-11-22T06:30:00Z', '--timezone', 'Europe/Rome', '--languages', 'en,de', '--max-per-page', '50'];

const at = (day: number) => ({ start_date: `2026-12-${String(day).padStart(2, '0')} 20:00:00`, end_date: `2026-12-${String(day).padStart(2, '0')} 22:00:00` });

describe('@evcal/client against evcal serve', { timeout: 60_000 }, () => {
  it('creates, reads, changes and deletes with typed calls', async () => {
    const server = await startServe(ARGS);
    const client = createEvcalClient({ baseUrl: server.api, token: ADMIN });

    const category = outcome(await client.api.POST('/categories', { body: { name: 'Jazz' } }));
    expect(category.kind).toBe('ok');
    const created = outcome(await client.api.POST('/events', {
      body: { title: 'Gig', status: 'publish', ...at(5), venue: { venue: 'Blue Room', city: 'Rome' }, categories: ['Jazz'] },
    }));
    if (created.kind !== 'ok') throw new Error(`create failed: ${JSON.stringify(created)}`);
    expectTypeOf(created.data).toEqualTypeOf<Event>();
    expect(created.status).toBe(201);
    expect(created.data.categories.map((c) => c.slug)).toEqual(['jazz']);
    const venue = created.data.venue;
    expect(Array.isArray(venue)).toBe(false);

    const bySlug = outcome(await client.api.GET('/events/by-slug/{slug}', { params: { path: { slug: created.data.slug } } }));
    expect(bySlug.kind === 'ok' && bySlug.data.id).toBe(created.data.id);
    const venueId = (venue as Venue).id;
    const readVenue = outcome(await client.api.GET('/venues/{id}', { params: { path: { id: venueId } } }));
    expect(readVenue.kind === 'ok' && readVenue.data.city).toBe('Rome');

    const patched = outcome(await client.api.PATCH('/events/{id}', { params: { path: { id: created.data.id } }, body: { featured: true } }));
    expect(patched.kind === 'ok' && patched.data.featured).toBe(true);
    const deleted = outcome(await client.api.DELETE('/events/{id}', { params: { path: { id: created.data.id } } }));
    expect(deleted.kind === 'ok' && deleted.data.status).toBe('trash');
    const again = outcome(await client.api.DELETE('/events/{id}', { params: { path: { id: created.data.id } } }));
    expect(again.kind === 'error' && [again.status, again.error.code]).toEqual([410, 'event-is-in-trash']);
  });

  it('iterates every page of a list by next_rest_url, with the totals, keeping the filters', async () => {
    const server = await startServe(ARGS);
    const client = createEvcalClient({ baseUrl: server.api, token: ADMIN });
    for (let day = 1; day <= 7; day++) {
      const r = outcome(await client.api.POST('/events', { body: { title: `Night ${day}`, status: 'publish', ...at(day), categories: [day % 2 ? 'Odd' : 'Even'] } }));
      expect(r.kind).toBe('ok');
    }
    const pages = [];
    for await (const page of client.pages('/events', { per_page: 3 })) pages.push(page);
    expect(pages.map((p) => [p.page, p.items.length, p.total, p.totalPages])).toEqual([[1, 3, 7, 3], [2, 3, 7, 3], [3, 1, 7, 3]]);
    const titles: string[] = [];
    for await (const event of client.all('/events', { per_page: 2, categories: ['odd'] })) titles.push(event.title);
    expect(titles).toEqual(['Night 1', 'Night 3', 'Night 5', 'Night 7']);
    const terms = [];
    for await (const term of client.all('/categories', { per_page: 1 })) terms.push(term.name);
    expect(terms.sort()).toEqual(['Even', 'Odd']);
    // A failing page is thrown as an EvcalApiError carrying the typed body.
    const failing = client.all('/events', { per_page: 'many' });
    await expect(failing.next()).rejects.toMatchObject({ name: 'EvcalApiError', status: 400, error: { code: 'rest_invalid_param' } });
    await expect(client.pages('/venues', { page: 9 }).next()).rejects.toBeInstanceOf(EvcalApiError);
  });

  it('reads again with If-None-Match (304) and changes only what it read with If-Match (412 otherwise)', async () => {
    const server = await startServe(ARGS);
    const client = createEvcalClient({ baseUrl: server.api, token: ADMIN });
    const created = outcome(await client.api.POST('/events', { body: { title: 'Watched', status: 'publish', ...at(9) } }));
    if (created.kind !== 'ok') throw new Error('create failed');
    const path = { path: { id: created.data.id } };
    const first = outcome(await client.api.GET('/events/{id}', { params: path }));
    if (first.kind !== 'ok') throw new Error('read failed');
    expect(first.etag).toMatch(/^"/);
    expect(outcome(await client.api.GET('/events/{id}', { params: path, headers: ifNoneMatch(first.etag) })).kind).toBe('not-modified');

    const changed = outcome(await client.api.PATCH('/events/{id}', { params: path, body: { title: 'Watched, moved' }, headers: ifMatch(first.etag) }));
    expect(changed.kind).toBe('ok');
    const stale = outcome(await client.api.PATCH('/events/{id}', { params: path, body: { title: 'Lost update' }, headers: ifMatch(first.etag) }));
    expect(stale.kind === 'error' && [stale.status, stale.error.code]).toEqual([412, 'rest_precondition_failed']);
    const now = outcome(await client.api.GET('/events/{id}', { params: path, headers: ifNoneMatch(first.etag) }));
    expect(now.kind === 'ok' && now.data.title).toBe('Watched, moved');

    const list = await client.pages('/events', {}).next();
    const listEtag = list.value ? list.value.etag : undefined;
    expect(outcome(await client.api.GET('/events', { headers: ifNoneMatch(listEtag) })).kind).toBe('not-modified');
  });

  it('answers errors as typed values, in the language of the address', async () => {
    const server = await startServe(ARGS);
    const anonymous = createEvcalClient({ baseUrl: server.api });
    const missing = outcome(await anonymous.api.GET('/events/{id}', { params: { path: { id: 999_999 } } }));
    expect(missing.kind).toBe('error');
    if (missing.kind === 'error') {
      expectTypeOf(missing.error).toEqualTypeOf<ApiError>();
      expect([missing.status, missing.error.code, missing.error.data.status]).toEqual([404, 'rest-event-not-found', 404]);
    }
    const refused = outcome(await anonymous.api.POST('/events', { body: { title: 'x', ...at(3) } }));
    expect(refused.kind === 'error' && [refused.status, refused.error.code]).toEqual([401, 'rest_forbidden']);
    // @ts-expect-error end_date is required: a compile-time error, and 400 at run time
    const invalid = outcome(await createEvcalClient({ baseUrl: server.api, token: ADMIN }).api.POST('/events', { body: { title: 'No end', start_date: '2026-12-01' } }));
    expect(invalid.kind === 'error' && invalid.error.code).toBe('rest_missing_callback_param');

    const german = createEvcalClient({ baseUrl: `${server.origin}/de/cal/events/v1` });
    const deMissing = outcome(await german.api.GET('/events/{id}', { params: { path: { id: 999_999 } } }));
    expect(deMissing.kind === 'error' && deMissing.error.message).toMatch(/Veranstaltung/);

    // A server that is not evcal (here: a path outside the API) still gives a typed value.
    const elsewhere = createEvcalClient({ baseUrl: `${server.origin}/nowhere` });
    const lost = outcome(await elsewhere.api.GET('/events'));
    expect(lost.kind === 'error' && lost.error.code).toBe('rest_no_route');
  });
});
