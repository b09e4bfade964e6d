// What the handler sends for a single record is the calendar's `Representation` (core's
// representation.ts): its ETag is built from the representation's validator, and its body is
// the representation's value, for every kind of record, on reads and on writes.
import { describe, expect, it } from 'vitest';
import { createCalendar, type Calendar, type Representation } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { bearerTokens, createFetchHandler } from '@evcal/http';

const ROOT = 'https://cal.example.org/cal/events/v1';
const ADMIN = { principal: { id: 1, role: 'administrator' } } as const;
/** An anonymous call at the addresses the handler serves. */
const ANON = { links: { siteUrl: 'https://cal.example.org', apiRoot: ROOT } };

type Answer = Representation<{ id: number }>;

const KINDS: ReadonlyArray<[string, (c: Calendar) => Promise<Answer>, (c: Calendar, id: number) => Promise<Answer>, Record<string, unknown>]> = [
  ['events', (c) => c.events.create({ title: 'Gig', start_date: '2027-01-02 20:00:00', end_date: '2027-01-02 23:00:00', status: 'publish' }, ADMIN),
    (c, id) => c.events.get({ id }, ANON), { title: 'Renamed' }],
  ['venues', (c) => c.venues.create({ venue: 'Hall' }, ADMIN), (c, id) => c.venues.get({ id }, ANON), { city: 'Rome' }],
  ['organizers', (c) => c.organizers.create({ organizer: 'Ada' }, ADMIN), (c, id) => c.organizers.get({ id }, ANON), { phone: '123' }],
  ['categories', (c) => c.categories.create({ name: 'Music' }, ADMIN), (c, id) => c.categories.get({ id }, ANON), { name: 'Jazz' }],
  ['tags', (c) => c.tags.create({ name: 'Free' }, ADMIN), (c, id) => c.tags.get({ id }, ANON), { name: 'Gratis' }],
];

/** The validator an entity tag of ours names: `"<validator>.<variant>"`. */
const validatorOfTag = (etag: string | null) => etag?.slice(1, etag.lastIndexOf('.'));

describe('a single record over HTTP is its representation', () => {
  it.each(KINDS)('%s: the ETag is built from the validator, the body is the value', async (kind, create, get, change) => {
    const calendar = createCalendar({ storage: createMemoryStorage() });
    const handler = createFetchHandler(calendar, { authenticate: bearerTokens({ 'admin-token': ADMIN.principal }) });
    const { value: { id } } = await create(calendar);

    const read = await handler(new Request(`${ROOT}/${kind}/${id}`));
    expect(read.status).toBe(200);
    const current = await get(calendar, id);
    expect(validatorOfTag(read.headers.get('etag'))).toBe(current.validator);
    expect(JSON.parse(await read.text())).toEqual(current.value);

    const written = await handler(new Request(`${ROOT}/${kind}/${id}`, {
      method: 'PATCH', headers: { authorization: 'Bearer admin-token', 'content-type': 'application/json', 'if-match': read.headers.get('etag')! },
      body: JSON.stringify(change),
    }));
    expect(written.status).toBe(200);
    const after = await get(calendar, id);
    expect(after.validator).not.toBe(current.validator);
    expect(validatorOfTag(written.headers.get('etag'))).toBe(after.validator);
  });
});
