// Single-record results are explicit (issue 32): a `Representation` — the value, its validator
// and, when already made, its JSON text — with nothing hidden on the value, for every kind of
// record and every single-record operation.
import { describe, expect, it } from 'vitest';
import type { Calendar, CallContext, Representation } from '@evcal/core';
import { admin, anon, as, eventInput, makeCalendar, refusal } from './helpers';

type Answer = Representation<{ id: number }>;

/** Each kind's create, read, update and delete, through the calendar's own operations. */
interface Kind {
  readonly create: (c: Calendar) => Promise<Answer>;
  readonly get: (c: Calendar, id: number) => Promise<Answer>;
  readonly update: (c: Calendar, id: number, ctx: CallContext) => Promise<Answer>;
  readonly remove: (c: Calendar, id: number) => Promise<Answer>;
}

const A = as(admin);
const KINDS: ReadonlyArray<[string, Kind]> = [
  ['events', {
    create: (c) => c.events.create(eventInput({ status: 'publish' }), A),
    get: (c, id) => c.events.get({ id }, anon),
    update: (c, id, ctx) => c.events.patch({ id, title: 'Renamed' }, ctx),
    remove: (c, id) => c.events.delete({ id }, A),
  }],
  ['venues', {
    create: (c) => c.venues.create({ venue: 'Hall' }, A),
    get: (c, id) => c.venues.get({ id }, anon),
    update: (c, id, ctx) => c.venues.patch({ id, city: 'Rome' }, ctx),
    remove: (c, id) => c.venues.delete({ id }, A),
  }],
  ['organizers', {
    create: (c) => c.organizers.create({ organizer: 'Ada' }, A),
    get: (c, id) => c.organizers.get({ id }, anon),
    update: (c, id, ctx) => c.organizers.update({ id, organizer: 'Ada', phone: '123' }, ctx),
    remove: (c, id) => c.organizers.delete({ id }, A),
  }],
  ['categories', {
    create: (c) => c.categories.create({ name: 'Music' }, A),
    get: (c, id) => c.categories.get({ id }, anon),
    update: (c, id, ctx) => c.categories.update({ id, name: 'Jazz' }, ctx),
    remove: (c, id) => c.categories.delete({ id }, A),
  }],
  ['tags', {
    create: (c) => c.tags.create({ name: 'Free' }, A),
    get: (c, id) => c.tags.get({ id }, anon),
    update: (c, id, ctx) => c.tags.update({ id, name: 'Gratis' }, ctx),
    remove: (c, id) => c.tags.delete({ id }, A),
  }],
];

/** A representation with its parts in the open: a validator, and a value that carries nothing hidden. */
function expectExplicit(answer: Answer): void {
  expect(typeof answer.validator).toBe('string');
  expect(answer.validator.length).toBeGreaterThan(0);
  expect(typeof answer.value).toBe('object');
  expect(Object.getOwnPropertySymbols(answer.value)).toEqual([]);
  // Every property of the value is an ordinary one: what JSON gives back is the value itself.
  expect(JSON.parse(JSON.stringify(answer.value))).toEqual(answer.value);
}

describe('single-record results are representations', () => {
  it.each(KINDS)('%s: create, get, update and delete answer { value, validator }', async (_kind, ops) => {
    const calendar = makeCalendar();
    const created = await ops.create(calendar);
    expectExplicit(created);
    const id = created.value.id;
    const read = await ops.get(calendar, id);
    expectExplicit(read);
    expect(read.value.id).toBe(id);
    expect(read.validator).toBe(created.validator);

    const updated = await ops.update(calendar, id, A);
    expectExplicit(updated);
    expect(updated.validator).not.toBe(created.validator);
    expect((await ops.get(calendar, id)).validator).toBe(updated.validator);

    // The validator is what an ETag names (If-Match): the current one lets a write through, an older one does not.
    await refusal(ops.update(calendar, id, { ...A, preconditions: { ifMatch: [created.validator] } }), 'precondition_failed');
    const matched = await ops.update(calendar, id, { ...A, preconditions: { ifMatch: [updated.validator] } });
    expectExplicit(matched);

    const removed = await ops.remove(calendar, id);
    expectExplicit(removed);
    expect(removed.value.id).toBe(id);
  });

  it('an event read asked again carries its JSON text, and its value is the caller\'s own', async () => {
    const calendar = makeCalendar();
    const { value: { id } } = await calendar.events.create(eventInput({ status: 'publish' }), A);
    await calendar.events.get({ id }, anon);
    const again = await calendar.events.get({ id }, anon);
    expect(again.bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(again.bytes)).toBe(JSON.stringify(again.value));
    expect(Object.getOwnPropertySymbols(again.value)).toEqual([]);
    // The same answer through getJson, the route a binding uses: the same text and validator.
    const json = await calendar.events.getJson({ id }, anon);
    expect(json.bytes).toEqual(again.bytes);
    expect(json.validator).toBe(again.validator);

    (again.value as { title: string }).title = 'Changed by a caller';
    const later = await calendar.events.get({ id }, anon);
    expect(later.value.title).toBe('Jazz Night');
    expect(JSON.parse(new TextDecoder().decode(later.bytes))).toEqual(later.value);
  });

  it('a write answers its value without JSON text (none was made)', async () => {
    const calendar = makeCalendar();
    const created = await calendar.events.create(eventInput(), A);
    expect(created.bytes).toBeUndefined();
    expect(Object.keys(created).sort()).toEqual(['validator', 'value']);
  });
});
