// A schema-driven API fuzzer, as schemathesis works (issue 32): for every operation of the /doc
// that `evcal serve` serves (memory and SQLite), requests generated from the document, sent
// with an administrator's token:
// - requests the document allows are never refused (no 400 or 422), and
// - requests it forbids (one parameter off its schema, a required one left out, a JSON body that
//   is not an object) are never accepted (a 4xx, never a 2xx);
// every answer has a status /doc lists for the operation and validates against its schema, and
// none is a 5xx. The only differences allowed are listed, with their reasons, in
// support/api-fuzz-exceptions.ts. Fixed seed, bounded runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePhpTime } from '@evcal/core';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ACCEPTANCES, REFUSALS } from './support/api-fuzz-exceptions';
import { DocSchemas, invalidValue, STRAYED, validValue, type Schema } from './support/schema-arbitraries';
import { needBuiltCli, startServe } from './support/serve-process';

needBuiltCli();

const ADMIN = 'tok-fuzz-admin';
// Fixed, so that CI is deterministic; EVCAL_FUZZ_SEED explores others.
const SEED = Number(process.env.EVCAL_FUZZ_SEED ?? 20261122);
const RUNS = { valid: 6, invalid: 6 };

const DATASET = {
  categories: [{ id: 10, name: 'Music', slug: 'music' }, { id: 11, name: 'Jazz', slug: 'jazz', parent: 10 }, { id: 12, name: 'Talks', slug: 'talks' }],
  tags: [{ id: 20, name: 'Free', slug: 'free' }, { id: 21, name: 'Outdoor', slug: 'outdoor' }],
  venues: [{ id: 100, venue: 'Hall', status: 'publish', city: 'Rome', geo_lat: 41.9, geo_lng: 12.5 }, { id: 101, venue: 'Cellar', status: 'draft' }, { id: 102, venue: 'Park', status: 'publish' }],
  organizers: [{ id: 200, organizer: 'Ada', status: 'publish' }, { id: 201, organizer: 'Grace', status: 'publish' }],
  events: [300, 301, 302, 303, 304, 305].map((id, i) => ({
    id, title: `Event ${id}`, start_date: `2027-0${1 + i}-06 20:00:00`, end_date: `2027-0${1 + i}-06 23:00:00`, status: i === 5 ? 'draft' : 'publish',
    categories: [10 + (i % 3)], tags: [20], venue: [100], organizer: [200],
  })),
};

interface Operation { readonly method: string; readonly path: string; readonly id: string; readonly op: Schema; readonly pointer: string }
interface Request { path: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> | undefined; raw?: string; strayed?: boolean }
interface Param { readonly name: string; readonly in: 'path' | 'query' | 'body'; readonly schema: Schema; readonly required: boolean; readonly pointer: string }

const storages: Array<[string, (dir: string) => string]> = [
  ['memory', () => 'memory'],
  ['sqlite', (dir) => `sqlite:${join(dir, 'calendar.db')}`],
];

for (const [name, storage] of storages) {
  describe(`${name}: requests generated from /doc`, () => {
    it('are refused exactly when the document forbids them, and answered as it says', { timeout: 300_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'evcal-fuzz-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      writeFileSync(join(dir, 'seed.json'), JSON.stringify(DATASET));
      const server = await startServe(['--storage', storage(dir), '--seed', join(dir, 'seed.json'), '--user', `1:administrator:${ADMIN}`, '--webhook-allow-private']);
      const doc = (await (await fetch(`${server.api}/doc`)).json()) as Schema;
      const schemas = new DocSchemas(doc);
      const send = (o: Operation, r: Request) => request(server.api, o, r);
      // Deletes last, so that the records other operations name are there.
      const operations = listOperations(doc).sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
      expect(operations.length).toBeGreaterThanOrEqual(62);
      for (const o of operations) {
        const params = paramsOf(o);
        const known = await knownRecords(server.api);
        const valid = validRequest(schemas, o, params, known);
        await fc.assert(fc.asyncProperty(valid, async (r) => {
          fc.pre(!r.strayed);
          const answer = await send(o, r);
          checkAnswer(schemas, o, r, answer);
          if (answer.status === 400 || answer.status === 422) expect(unexplained(o, r, answer), `${o.id} refused what /doc allows: ${shown(r)} -> ${answer.text}`).toEqual([]);
        }), { seed: SEED, numRuns: RUNS.valid, endOnFailure: true });
        const invalid = invalidRequest(schemas, o, params, valid);
        if (!invalid) continue;
        await fc.assert(fc.asyncProperty(invalid, async ({ r, param, value }) => {
          fc.pre(!r.strayed);
          const answer = await send(o, r);
          checkAnswer(schemas, o, r, answer);
          if (answer.status < 400) {
            const accepted = param !== undefined && ACCEPTANCES.some((a) => a.applies(param, value));
            expect(accepted, `${o.id} accepted what /doc forbids (${param ?? 'the body'} = ${param === undefined ? r.raw : JSON.stringify(value)}): ${shown(r)} -> ${answer.status} ${answer.text.slice(0, 300)}`).toBe(true);
          }
        }), { seed: SEED, numRuns: RUNS.invalid, endOnFailure: true });
      }
    });
  });
}

// ---- the document ----

function listOperations(doc: Schema): Operation[] {
  return Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({
    method, path, id: op.operationId as string, op, pointer: `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}`,
  })));
}

function paramsOf(o: Operation): Param[] {
  const out: Param[] = ((o.op.parameters ?? []) as Schema[]).flatMap((p, i) => (p.in === 'header' ? [] : [{
    name: p.name, in: p.in, schema: p.schema, required: p.required === true, pointer: `${o.pointer}/parameters/${i}/schema`,
  }]));
  const body = o.op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  for (const [name, schema] of Object.entries((body?.properties ?? {}) as Record<string, Schema>)) {
    out.push({ name, in: 'body', schema, required: (body!.required ?? []).includes(name), pointer: `${o.pointer}/requestBody/content/application~1json/schema/properties/${name}` });
  }
  return out;
}

// ---- generation ----

interface Known { readonly ids: Record<string, (number | string)[]>; readonly slugs: Record<string, string[]> }

/** The records the server holds now, by collection (what parameters naming records take). */
async function knownRecords(api: string): Promise<Known> {
  const get = async (path: string) => (await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json() as Promise<any>;
  const posts = 'per_page=50&status=publish,future,draft,pending,private';
  const [events, venues, organizers, categories, tags, webhooks] = await Promise.all([
    get(`/events?${posts}&start_date=1900-01-01&end_date=2999-01-01`), get(`/venues?${posts}`), get(`/organizers?${posts}`),
    get('/categories?per_page=50&hide_empty=false'), get('/tags?per_page=50&hide_empty=false'), get('/webhooks'),
  ]);
  const of = (list: any[] | undefined) => list ?? [];
  return {
    ids: {
      events: of(events.events).map((e) => e.id), venues: of(venues.venues).map((e) => e.id), organizers: of(organizers.organizers).map((e) => e.id),
      categories: of(categories.categories).map((e) => e.id), tags: of(tags.tags).map((e) => e.id), webhooks: of(webhooks.webhooks).map((e) => e.id),
    },
    slugs: {
      events: of(events.events).map((e) => e.slug), venues: of(venues.venues).map((e) => e.slug), organizers: of(organizers.organizers).map((e) => e.slug),
    },
  };
}

/** Values naming stored records, for the parameters that take them (REFUSALS: references). */
function referenceValues(o: Operation, p: Param, known: Known): unknown[] | undefined {
  const collection = o.path.split('/')[1]!.replace(/\.ics$/, '');
  const pick = (list: unknown[] | undefined) => (list && list.length ? list : undefined);
  if (p.in === 'path') return pick(p.name === 'id' ? known.ids[collection] : known.slugs[collection]);
  if (o.id.startsWith('events.') && ['venue', 'organizer'].includes(p.name)) return pick([...(known.ids[`${p.name}s`] ?? []), ...(o.method === 'get' ? [] : [''])]);
  if (['categories', 'tags'].includes(p.name)) return pick(known.ids[p.name]);
  if (['post_parent', 'post', 'event'].includes(p.name)) return pick(known.ids.events);
  if (['include', 'exclude'].includes(p.name) && /^(categories|tags)\./.test(o.id)) return pick(known.ids[collection]);
  if (p.name === 'parent') return [0, ...(known.ids.categories ?? [])];
  if (p.name === 'author') return [1];
  if (p.name === 'image') return ['', 'https://cdn.example.com/poster.jpg'];
  if (p.name === 'recurrence') return ['', 'FREQ=DAILY;COUNT=3', 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4'];
  return undefined;
}

function validRequest(schemas: DocSchemas, o: Operation, params: Param[], known: Known): fc.Arbitrary<Request> {
  const fields = params.map((p) => {
    const valid = (x: unknown) => schemas.validator(p.pointer, p.in === 'path')(x) as boolean;
    const generated = validValue(schemas, p.schema, valid, p.in !== 'body').map((x) => (x !== STRAYED && containsNul(x) ? STRAYED : x));
    // Only records the parameter's schema allows (a tag takes no parent).
    const refs = referenceValues(o, p, known)?.filter((x) => valid(p.in === 'body' ? x : String(x)));
    // Inline venue and organizer data is not generated (GENERATION): ids and empties only.
    const value = refs?.length ? (o.id.startsWith('events.') && ['venue', 'organizer'].includes(p.name) ? fc.constantFrom(...refs) : fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...refs) }, { weight: 1, arbitrary: generated })) : generated;
    const present = p.required ? fc.constant(true) : fc.boolean();
    return fc.tuple(fc.constant(p), present, value);
  });
  return fc.tuple(...fields).map((chosen) => {
    const r: Request = { path: {}, query: {}, body: o.op.requestBody ? {} : undefined };
    for (const [p, present, value] of chosen) {
      if (!present || value === undefined) continue;
      if (value === STRAYED) {
        r.strayed = true;
        continue;
      }
      if (p.in === 'body') r.body![p.name] = value;
      else r[p.in][p.name] = value;
    }
    orderDates(r.body);
    return r;
  });
}

/** A valid request with one thing the document forbids, and which parameter (none: the body itself). */
function invalidRequest(schemas: DocSchemas, o: Operation, params: Param[], valid: fc.Arbitrary<Request>): fc.Arbitrary<{ r: Request; param?: string; value?: unknown }> | undefined {
  const mutations: fc.Arbitrary<{ r: Request; param?: string; value?: unknown }>[] = [];
  for (const p of params) {
    const check = (x: unknown) => schemas.validator(p.pointer, p.in === 'path')(x) as boolean;
    // A value sent as null counts as absent (the reference's rule), which an optional parameter may be;
    // an empty or blank path segment names another route (/events/ is the list), not this one.
    const off = invalidValue(schemas, p.schema, check, p.in !== 'body', (x) => x !== null && x !== undefined && !(p.in === 'path' && String(x).trim() === ''));
    if (off) mutations.push(fc.tuple(valid, off).map(([r, value]) => ({ r: withValue(r, p, value), param: p.name, value })));
    if (p.required && p.in !== 'path') mutations.push(valid.map((r) => ({ r: withValue(r, p, undefined), param: p.name })));
  }
  if (o.op.requestBody) mutations.push(fc.tuple(valid, fc.constantFrom('716', '[1,2]', 'null', '"text"', 'true')).map(([r, raw]) => ({ r: { ...r, raw } })));
  return mutations.length ? fc.oneof(...mutations) : undefined;
}

function withValue(r: Request, p: Param, value: unknown): Request {
  const next: Request = { path: { ...r.path }, query: { ...r.query }, body: r.body && { ...r.body }, ...(r.strayed ? { strayed: true } : {}) };
  const target = p.in === 'body' ? (next.body ??= {}) : next[p.in];
  if (value === undefined) delete target[p.name];
  else target[p.name] = value;
  return next;
}

/** start_date before end_date when both are sent (REFUSALS: end before start). */
function orderDates(body: Record<string, unknown> | undefined): void {
  if (!body || body.start_date === undefined || body.end_date === undefined) return;
  const at = (x: unknown) => parsePhpTime(x, { now: Date.now(), timeZone: 'UTC' })?.epochMs ?? 0;
  if (at(body.start_date) > at(body.end_date)) [body.start_date, body.end_date] = [body.end_date, body.start_date];
}

function containsNul(x: unknown): boolean {
  return JSON.stringify(x ?? null).includes('\\u0000');
}

// ---- sending and checking ----

interface Answer { readonly status: number; readonly type: string; readonly text: string; readonly json: any }

async function request(api: string, o: Operation, r: Request): Promise<Answer> {
  let path = o.path;
  for (const [name, value] of Object.entries(r.path)) path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  // A path parameter left out keeps its braces: no route has them.
  const query = new URLSearchParams(Object.entries(r.query).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : JSON.stringify(v)]));
  const body = r.raw ?? (r.body === undefined ? undefined : JSON.stringify(r.body));
  const res = await fetch(`${api}${path}${query.size ? `?${query}` : ''}`, {
    method: o.method.toUpperCase(),
    headers: { authorization: `Bearer ${ADMIN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  let json: any;
  if (type === 'application/json' && text) json = JSON.parse(text);
  return { status: res.status, type, text, json };
}

/** No 5xx; a status /doc lists for the operation; a JSON body its schema allows. */
function checkAnswer(schemas: DocSchemas, o: Operation, r: Request, a: Answer): void {
  expect(a.status, `${o.id}: ${shown(r)} -> ${a.text.slice(0, 500)}`).toBeLessThan(500);
  const response = o.op.responses?.[String(a.status)];
  expect(response, `${o.id} answered ${a.status}, which /doc does not list: ${a.text.slice(0, 300)}`).toBeDefined();
  if (a.status === 304) return;
  expect(response.content?.[a.type], `${o.id} ${a.status} answered ${a.type}, which /doc does not list`).toBeDefined();
  if (a.type !== 'application/json') return;
  const validate = schemas.validator(`${o.pointer}/responses/${a.status}/content/application~1json/schema`);
  expect(validate(a.json), `${o.id} ${a.status}: ${schemas.ajv.errorsText(validate.errors)}\n${a.text.slice(0, 1000)}`).toBe(true);
}

/** The refused parameters of a 400 no exception explains (empty: all explained). */
function unexplained(o: Operation, r: Request, a: Answer): string[] {
  const code = a.json?.code as string;
  if (code === 'term_exists' || code === 'duplicate_term_slug') return REFUSALS.some((x) => x.name === 'terms taken') ? [] : [code];
  if (code !== 'rest_invalid_param') return [`${a.status} ${code}`];
  const params = (a.json.data?.params ?? {}) as Record<string, string>;
  const sent = { ...r.path, ...r.query, ...r.body };
  return Object.entries(params)
    .filter(([param, message]) => !REFUSALS.some((x) => x.applies({ operation: o.id, param, value: sent[param], message })))
    .map(([param, message]) => `${param}: ${message}`);
}

function shown(r: Request): string {
  return JSON.stringify(r).slice(0, 600);
}
