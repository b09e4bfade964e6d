// Languages change texts only (issue 7). The same requests, replayed under every language's
// address on calendars that start identical, get the same statuses, headers and bodies once
// the texts (messages, descriptions) are set aside and the language segment is taken out of
// URLs. Requests are the fuzz test's generated ones, over every route, plus one valid request
// per route and method.
import { createCalendar, type Calendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerTokens, createLanguageHandler, feedRoutes, LANGUAGES, routes, type FetchHandler } from '../src/index';
import { NOW, ORIGIN, request, SEED, TOKENS, toRequest, type FuzzRequest } from './support/requests';

const OTHERS = LANGUAGES.filter((l) => l !== 'en');

/** An empty storage's state, its change log's identity included: every calendar starts from it, so sync tokens agree. */
const EMPTY = createMemoryStorage().snapshot();

async function freshHandler(): Promise<FetchHandler> {
  const storage = createMemoryStorage();
  storage.load(EMPTY);
  const calendar: Calendar = createCalendar({ storage, now: () => NOW, users: { exists: (id) => id >= 1 && id <= 7 } });
  await calendar.importDataset(SEED);
  return createLanguageHandler(calendar, { languages: LANGUAGES, authenticate: bearerTokens(TOKENS), maxBodyBytes: 64 * 1024 });
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  /** The texts that were set aside, by where they were found. */
  readonly texts: Record<string, string>;
}

/** An answer with its texts set aside and `/<language>` taken out of its URLs. */
async function answer(res: Response, language: string): Promise<Answer> {
  // Webhook endpoints get random ids and secrets wherever they are created.
  const unprefix = (s: string) => s.replaceAll(`${ORIGIN}/${language}/`, `${ORIGIN}/`)
    .replace(/\bep_[a-z0-9]{24}\b/g, 'ep_<id>').replace(/\bwhsec_[A-Za-z0-9+/]+=*/g, 'whsec_<secret>');
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    // Entity tags differ by language by design (the bytes do): only their kind is compared.
    if (name === 'etag') headers[name] = value.startsWith('W/') ? 'W/<tag>' : '<tag>';
    else if (name !== 'content-language') headers[name] = unprefix(value);
  });
  const raw = await res.text();
  if (res.headers.get('content-type')?.startsWith('text/calendar')) {
    // An iCalendar feed: its one text is the calendar's name (NAME and X-WR-CALNAME).
    const texts: Record<string, string> = {};
    const body = unprefix(raw).replace(/^(NAME|X-WR-CALNAME):(.*)$/gm, (_, name: string, value: string) => {
      texts[name] = value;
      return `${name}:<text>`;
    });
    return { status: res.status, headers, body, texts };
  }
  const parsed: unknown = raw === '' ? '' : JSON.parse(raw);
  // With `_envelope` the answer is 200 and the real status and body are inside.
  const envelope = res.status === 200 && typeof parsed === 'object' && parsed !== null
    && Object.keys(parsed).join() === 'body,status,headers' ? parsed as { status: number } : undefined;
  const isError = (envelope?.status ?? res.status) >= 400;
  const root = envelope ? '.body' : '';
  const texts: Record<string, string> = {};
  const strip = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') return unprefix(value);
    if (Array.isArray(value)) return value.map((v, i) => strip(v, `${path}[${i}]`));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const at = `${path}.${key}`;
      const inBody = at.startsWith(root) ? at.slice(root.length) : undefined;
      const text = typeof v === 'string' && inBody !== undefined && (
        ['description', 'title', 'summary'].includes(key) && /^\.(routes|paths|info|components)\b/.test(inBody)
        || isError && (inBody === '.message' || inBody === '.data.json_error_message' || /^\.data\.params\./.test(inBody)
          || /^\.data\.details\.[^.]+\.message$/.test(inBody))
      );
      if (text) {
        texts[inBody] = v as string;
        out[key] = '<text>';
      } else if (envelope && at === '.headers.etag' && typeof v === 'string') {
        out[key] = v.startsWith('W/') ? 'W/<tag>' : '<tag>';
      } else {
        out[key] = strip(v, at);
      }
    }
    return out;
  };
  const body = strip(parsed, '');
  return { status: res.status, headers, body, texts };
}

async function replay(requests: readonly FuzzRequest[]): Promise<Record<string, Answer[]>> {
  const out: Record<string, Answer[]> = {};
  for (const language of LANGUAGES) {
    const handler = await freshHandler();
    const api = language === 'en' ? `${ORIGIN}/cal/events/v1` : `${ORIGIN}/${language}/cal/events/v1`;
    out[language] = [];
    for (const r of requests) out[language]!.push(await answer(await handler(toRequest(r, api)), language === 'en' ? '' : language));
  }
  return out;
}

function compare(requests: readonly FuzzRequest[], answers: Record<string, Answer[]>): void {
  answers.en!.forEach((en, i) => {
    const r = requests[i]!;
    for (const language of OTHERS) {
      const other = answers[language]![i]!;
      const what = `${language}: ${r.method} ${r.path} ${JSON.stringify(r.params).slice(0, 200)}`;
      expect({ status: other.status, headers: other.headers, body: other.body }, what).toEqual({ status: en.status, headers: en.headers, body: en.body });
      expect(Object.keys(other.texts), what).toEqual(Object.keys(en.texts));
    }
  });
}

/** How many refusals `everyRoute` ends with. */
const REFUSALS = 9;

/** One well-formed request per route and method, as an editor, on the seed's records; then refusals. */
function everyRoute(): FuzzRequest[] {
  const ids: Record<string, string> = { events: '300', venues: '100', organizers: '200', categories: '10', tags: '20' };
  const slugs: Record<string, string> = { events: 'gig', venues: 'hall', organizers: 'ada' };
  // Deleted by id: other records than those deleted by slug.
  const deleted: Record<string, string> = { events: '301', venues: '101', organizers: '201', categories: '11', tags: '20' };
  const bodies: Record<string, Record<string, unknown>> = {
    events: { title: 'Replayed', start_date: '2026-12-05 10:00:00', end_date: '2026-12-05 12:00:00', categories: ['music'], venue: 100 },
    venues: { venue: 'Replayed hall', city: 'Milan' },
    organizers: { organizer: 'Replayed org', email: 'org@example.com' },
    categories: { name: 'Replayed category' },
    tags: { name: 'Replayed tag' },
  };
  const out: FuzzRequest[] = [];
  for (const route of [...routes, ...feedRoutes]) {
    const collection = route.path.split('/')[1] ?? '';
    const at = (method: string) => route.path
      .replace('{id}', (method === 'DELETE' ? deleted : ids)[collection] ?? '1').replace('{slug}', slugs[collection] ?? 'x');
    for (const method of route.methods) {
      const write = method !== 'GET' && method !== 'DELETE';
      out.push({
        method, path: at(method), params: write ? bodies[collection] ?? {} : {}, encoding: write ? 'json' : 'query', raw: '', token: 't-editor',
      });
    }
  }
  // Deletes last, by slug first: a trashed record has another slug, and cannot be trashed twice.
  const order = (r: FuzzRequest) => (r.method !== 'DELETE' ? 0 : r.path.includes('/by-slug/') ? 1 : 2);
  out.sort((a, b) => order(a) - order(b));
  // And a few refusals of each kind.
  out.push(
    { method: 'GET', path: '/events/999999', params: {}, encoding: 'query', raw: '', token: undefined },
    { method: 'GET', path: '/events', params: { per_page: 'x', page: -1, status: 'draft' }, encoding: 'query', raw: '', token: undefined },
    { method: 'POST', path: '/events', params: {}, encoding: 'json', raw: '', token: 't-editor' },
    { method: 'POST', path: '/events', params: {}, encoding: 'raw', raw: '{"title":', token: 't-editor' },
    { method: 'POST', path: '/events', params: { title: 'x', start_date: '2026-12-05 10:00:00', end_date: '2026-12-05 12:00:00' }, encoding: 'json', raw: '', token: undefined },
    { method: 'DELETE', path: '/events/300', params: {}, encoding: 'query', raw: '', token: 't-subscriber' },
    { method: 'GET', path: '/nope', params: {}, encoding: 'query', raw: '', token: undefined },
    { method: 'GET', path: '/events/300', params: {}, encoding: 'query', raw: '', token: 'not-a-token' },
    { method: 'DELETE', path: '/events/301', params: {}, encoding: 'query', raw: '', token: 't-editor' },
  );
  return out;
}

describe('the same interface in every language', () => {
  it('every route and method: identical answers but for the texts, and the texts translated', async () => {
    const requests = everyRoute();
    const answers = await replay(requests);
    compare(requests, answers);
    // The well-formed requests were served (writes included), not refused.
    const refused = answers.en!.slice(0, requests.length - REFUSALS)
      .map((a, i) => `${requests[i]!.method} ${requests[i]!.path} ${a.status} ${JSON.stringify(a.texts)}`)
      .filter((line) => !/ 2\d\d /.test(line));
    expect(refused).toEqual([]);
    // The refusals really are in the other languages (the comparison above ignores texts).
    const refusals = answers.en!.map((a, i) => [a, i] as const).filter(([a]) => a.status >= 400);
    expect(refusals.length).toBe(REFUSALS);
    for (const language of OTHERS) {
      for (const [en, i] of refusals) {
        const other = answers[language]![i]!;
        if (en.texts['.message'] === undefined) continue;
        expect(other.texts['.message'], `${language} ${requests[i]!.method} ${requests[i]!.path}`).not.toBe(en.texts['.message']);
      }
    }
  }, 120_000);

  it('generated requests over every route: identical answers but for the texts', async () => {
    await fc.assert(fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 12 }), async (requests) => {
      compare(requests, await replay(requests));
    }), { numRuns: 300 });
  }, 300_000);
});
