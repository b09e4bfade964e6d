// A client keeping a copy of a calendar over HTTP, as docs/sync.md tells one to: take a token,
// list every collection, then follow GET /changes page by page (a series' item brings the
// occurrences its changes affected). And the full lists the copy must equal, read page by page.
import { expect } from 'vitest';

type Json = Record<string, any>;

export interface SyncClient {
  /** Records by `<type>:<id>`. */
  readonly records: Map<string, Json>;
  /** Every record id the client was ever given, by type (to prove nothing was skipped). */
  readonly seen: Map<string, Set<number>>;
  token: string;
}

async function get(url: string, token: string | undefined): Promise<{ status: number; json: Json }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, json: (await res.json()) as Json };
}

/** Starts a copy: a token first, then the full lists (a change made in between is read again later). */
export async function startCopy(api: string, auth?: string): Promise<SyncClient> {
  const start = await get(`${api}/changes`, auth);
  expect(start.json.full_sync_required).toBe(true);
  const client: SyncClient = { records: new Map(), seen: new Map(), token: start.json.next_token };
  for (const [type, records] of Object.entries(await fullLists(api, auth))) {
    for (const r of records) keep(client, type, r);
  }
  return client;
}

/** Reads one page of changes into the copy; true when more are waiting. */
export async function syncPage(api: string, client: SyncClient, auth?: string, perPage = 25): Promise<boolean> {
  const page = await get(`${api}/changes?since=${encodeURIComponent(client.token)}&per_page=${perPage}`, auth);
  expect(page.status, JSON.stringify(page.json)).toBe(200);
  for (const c of page.json.changes as Json[]) {
    // A series is never listed (its occurrences are): a copy of the lists does not keep it.
    if (c.deleted || c.record.recurrence) client.records.delete(`${c.type}:${c.id}`);
    else keep(client, c.type, c.record);
    for (const r of (c.occurrences?.records ?? []) as Json[]) keep(client, 'event', r);
    for (const id of (c.occurrences?.deleted ?? []) as number[]) client.records.delete(`event:${id}`);
  }
  client.token = page.json.next_token;
  return page.json.has_more;
}

/** Follows the changes to the end. */
export async function catchUp(api: string, client: SyncClient, auth?: string): Promise<void> {
  while (await syncPage(api, client, auth));
}

function keep(client: SyncClient, type: string, record: Json): void {
  client.records.set(`${type}:${record.id}`, record);
  let ids = client.seen.get(type);
  if (!ids) client.seen.set(type, (ids = new Set()));
  ids.add(record.id);
}

/** Every record the caller's lists show, by type (events of every date). */
export async function fullLists(api: string, auth?: string): Promise<Record<string, Json[]>> {
  const all = async (path: string, key: string) => {
    const out: Json[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`${api}${path}${path.includes('?') ? '&' : '?'}per_page=50&page=${page}`, auth);
      if (res.status === 404 && page > 1) return out;
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      out.push(...(res.json[key] as Json[]));
      if (page >= res.json.total_pages) return out;
    }
  };
  return {
    event: await all('/events?start_date=1990-01-01&end_date=2090-01-01', 'events'),
    venue: await all('/venues', 'venues'),
    organizer: await all('/organizers', 'organizers'),
    category: await all('/categories?hide_empty=0', 'categories'),
    tag: await all('/tags?hide_empty=0', 'tags'),
  };
}

/**
 * Asserts the copy equals the full lists, as docs/sync.md defines it: events hidden from
 * listings are in the copy, not in lists; an event's embedded records are taken from the copy
 * by id (those it holds).
 */
export async function expectCopyEqualsLists(api: string, client: SyncClient, auth?: string): Promise<void> {
  const lists = await fullLists(api, auth);
  const kept = (type: string) => [...client.records].filter(([k]) => k.startsWith(`${type}:`)).map(([, r]) => r);
  const held = (type: string, id: number) => client.records.has(`${type}:${id}`);
  const linked = (type: string, list: unknown) => (Array.isArray(list) ? list : [list]).map((x: Json) => x.id as number).filter((id) => held(type, id));
  const own = (e: Json) => ({
    ...e, venue: linked('venue', e.venue), organizer: linked('organizer', e.organizer), categories: linked('category', e.categories), tags: linked('tag', e.tags),
  });
  const byId = (a: Json, b: Json) => a.id - b.id;
  expect(kept('event').filter((e) => !e.hide_from_listings).map(own).sort(byId), 'events').toEqual(lists.event!.map(own).sort(byId));
  for (const type of ['venue', 'organizer', 'category', 'tag']) expect(kept(type).sort(byId), type).toEqual([...lists[type]!].sort(byId));
}
