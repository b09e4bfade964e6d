// The iCalendar parser matrix (issue 31): every shape of series evcal accepts (corpus.json) is
// created through the HTTP API of a real `evcal serve`, on memory and on SQLite; its feed is
// read by five independent parsers, as subscribers read it — ical.js (Thunderbird's) and
// node-ical from npm, Python's icalendar, recurring-ical-events and vobject from Debian — and
// each parser's expansion over the corpus' windows must be the JSON API's occurrences: the same
// count, the same UTC instants (all-day ones: the same dates), the same titles. The JSON API
// must give the occurrences the corpus expects (computed apart from evcal, expected.py), every
// content line of the feed must follow RFC 5545's grammar for its property, and the `.ics` of
// one occurrence must be that occurrence alone, read so by every parser.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needBuiltCli, startServe, type Running } from '../support/serve-process';
import { grammarProblems } from './rfc5545';

needBuiltCli();

const HERE = fileURLToPath(new URL('.', import.meta.url));
const PYTHON = '/usr/bin/python3';
const ADMIN = 'tok-admin';
const ARGS = ['--user', `1:administrator:${ADMIN}`, '--now', '2026-11-22T06:30:00Z', '--timezone', 'Europe/Rome'];

type Occurrence = [start: string, local: string, title: string];
interface Series {
  readonly shape: string;
  readonly event: Record<string, unknown>;
  readonly changes?: readonly ({ date: string; patch: Record<string, unknown> } | { date: string; delete: true })[];
  readonly window?: readonly [string, string];
  readonly expected: readonly Occurrence[];
}
const corpus = JSON.parse(readFileSync(join(HERE, 'corpus.json'), 'utf8')) as { window: [string, string]; series: Series[] };
const windows = [corpus.window, ...corpus.series.flatMap((s) => (s.window ? [s.window] : []))];
const inWindows = (start: string) => windows.some(([from, to]) => (start.length === 10 ? from.slice(0, 10) <= start && start < to.slice(0, 10) : from <= start && start < to));
const OUTER = [windows.map((w) => w[0]).sort()[0]!, windows.map((w) => w[1]).sort().at(-1)!] as const;
/** Every expected occurrence, as [start, title] in the parsers' order. */
const EXPECTED = corpus.series.flatMap((s) => s.expected.map(([start, , title]): [string, string] => [start, title])).sort(byStart);

const PARSERS = ['ical.js', 'node-ical', 'icalendar', 'recurring-ical-events', 'vobject'] as const;
type Readings = Record<(typeof PARSERS)[number], [string, string][] | { error: string }>;
type Reading = [string, string][];

interface JsonEvent { id: number; title: string; all_day: boolean; start_date: string; utc_start_date: string; next_rest_url?: string }

const pythonParsers = existsSync(PYTHON) ? '' : `${PYTHON} is missing (.ci/run installs python3-icalendar, python3-recurring-ical-events and python3-vobject)`;

const storages: Array<[string, (dir: string) => string]> = [
  ['memory', () => 'memory'],
  ['sqlite', (dir) => `sqlite:${join(dir, 'calendar.db')}`],
];

describe.each(storages)('the iCalendar parser matrix on %s', (_name, storage) => {
  let dir = '';
  let server: Running;
  let feed = '';
  let readings: Readings;
  const json = new Map<Series, JsonEvent[]>();
  /** The `.ics` of each series' first occurrence in the windows: the occurrence, its series, its text and how each parser reads it. */
  const alone: { occurrence: JsonEvent; series: number; text: string; readings: Readings }[] = [];

  beforeAll(async () => {
    if (pythonParsers) throw new Error(pythonParsers);
    dir = mkdtempSync(join(tmpdir(), 'evcal-matrix-'));
    server = await startServe(['--storage', storage(dir), ...ARGS], { killAfterTest: false });
    for (const series of corpus.series) {
      const created = await call('POST', '/events', { status: 'publish', ...series.event });
      expect(created.status, `${series.shape}: ${created.text}`).toBe(201);
      const id = (JSON.parse(created.text) as { id: number }).id;
      for (const change of series.changes ?? []) {
        const occurrence = occurrenceId(id, change.date);
        const res = 'delete' in change ? await call('DELETE', `/events/${occurrence}`) : await call('PATCH', `/events/${occurrence}`, change.patch);
        expect(res.status, `${series.shape}, ${change.date}: ${res.text}`).toBe(200);
      }
      json.set(series, await occurrencesOf(id));
      const first = json.get(series)!.find((e) => inWindows(startOf(e)))!;
      const one = await fetch(`${server.api}/events/${first.id}.ics`);
      expect(one.status).toBe(200);
      alone.push({ occurrence: first, series: id, text: await one.text(), readings: undefined as never });
    }
    // The feed as a subscriber fetches it: anonymous, every series with an occurrence in the windows.
    const res = await fetch(`${server.api}/events.ics?start_date=${OUTER[0].slice(0, 10)}&end_date=${OUTER[1].slice(0, 10)}`);
    expect(res.status).toBe(200);
    feed = await res.text();
    const file = join(dir, 'feed.ics');
    writeFileSync(file, feed);
    // EVCAL_MATRIX_OUT=dir keeps the feeds, to read them with a parser by hand.
    if (process.env.EVCAL_MATRIX_OUT) writeFileSync(join(process.env.EVCAL_MATRIX_OUT, `feed-${_name}.ics`), feed);
    const files = alone.map((a, i) => {
      const path = join(dir, `occurrence-${i}.ics`);
      writeFileSync(path, a.text);
      return path;
    });
    const [js, py] = await Promise.all([
      run(process.execPath, [join(HERE, 'read-js.mjs'), ...OUTER, file, ...files]),
      run(PYTHON, [join(HERE, 'read-py.py'), ...OUTER, file, ...files]),
    ]);
    const read = (path: string) => ({ ...JSON.parse(js)[path], ...JSON.parse(py)[path] }) as Readings;
    readings = read(file);
    alone.forEach((a, i) => { a.readings = read(files[i]!); });
  }, 120_000);

  afterAll(() => {
    server?.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the JSON API gives every series the occurrences the corpus expects', () => {
    for (const series of corpus.series) {
      const got = json.get(series)!.map((e): Occurrence => [startOf(e), e.start_date, e.title]);
      expect(got.filter(([start]) => inWindows(start)), series.shape).toEqual(series.expected);
    }
  });

  it('every content line of the feed follows RFC 5545', () => {
    expect(grammarProblems(feed)).toEqual([]);
  });

  it.each(PARSERS)('%s expands the feed into the JSON API\'s occurrences', (parser) => {
    const reading = readings[parser];
    expect(reading, `${parser} refused the feed: ${JSON.stringify(reading)}`).toBeInstanceOf(Array);
    const fromJson = [...json.values()].flat().map((e): [string, string] => [startOf(e), e.title]);
    expect(fromJson.filter(([start]) => inWindows(start)).sort(byStart)).toEqual(EXPECTED);
    expect((reading as Reading).filter(([start]) => inWindows(start))).toEqual(EXPECTED);
  });

  it('gives an occurrence alone in its .ics: its series\' UID and its RECURRENCE-ID', () => {
    for (const { occurrence, series, text } of alone) {
      const vevents = text.split('BEGIN:VEVENT').length - 1;
      expect([vevents, text.includes(`\r\nUID:${series}@127.0.0.1\r\n`), /\r\nRECURRENCE-ID[;:]/.test(text)], occurrence.title).toEqual([1, true, true]);
      expect(grammarProblems(text), occurrence.title).toEqual([]);
    }
  });

  it.each(PARSERS)('%s reads an occurrence\'s .ics as that occurrence', (parser) => {
    for (const { occurrence, readings: read } of alone) {
      expect(read[parser], `${parser}, ${occurrence.title}`).toEqual([[startOf(occurrence), occurrence.title]]);
    }
  });

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${server.api}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, text: await res.text() };
  }

  /** The occurrences of a series an anonymous visitor lists in the outer window, every page. */
  async function occurrencesOf(series: number): Promise<JsonEvent[]> {
    const out: JsonEvent[] = [];
    let url: string | undefined = `${server.api}/events?post_parent=${series}&start_date=${OUTER[0].slice(0, 10)}&end_date=${OUTER[1].slice(0, 10)}&per_page=50`;
    while (url) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { events: JsonEvent[]; next_rest_url?: string };
      out.push(...page.events);
      url = page.next_rest_url;
    }
    return out;
  }
});

/** The start of an event as the matrix compares it: its UTC instant, or its date when all-day. */
function startOf(e: JsonEvent): string {
  return e.all_day ? e.start_date.slice(0, 10) : `${e.utc_start_date.replace(' ', 'T')}Z`;
}

/** The id of the occurrence of `series` on `date` (docs/recurrence.md): day number × 2^31 + series id. */
function occurrenceId(series: number, date: string): number {
  return (Date.parse(`${date}T00:00:00Z`) / 86_400_000 + 719_163) * 2 ** 31 + series;
}

function byStart(a: [string, string], b: [string, string]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** Runs a reader and resolves with what it printed; a reader that fails is an error of the test. */
function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { err += c; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${err}`))));
  });
}
