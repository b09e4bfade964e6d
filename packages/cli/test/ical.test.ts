// iCalendar end to end (issue 15), on every storage: feeds served by a real `evcal serve`
// process, read back by ical.js and compared with the JSON list across DST changes; the same
// bytes by Accept; the translated name under /de/; then `evcal import` of the feed into a fresh
// storage, served again with the same events, imported again without copies, and a bad file
// refused naming its line with nothing written.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, needBuiltCli, REPO, startServe } from './support/serve-process';

needBuiltCli();

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the iCalendar end-to-end tests on PostgreSQL are skipped.');

const ADMIN = 'tok-admin';
const ARGS = ['--user', `1:administrator:${ADMIN}`, '--now', '2026-11-22T06:30:00Z', '--timezone', 'Europe/Rome', '--languages', 'en,de'];

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-ical-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const postgres = () => `${POSTGRES_URL}${POSTGRES_URL?.includes('?') ? '&' : '?'}schema=evcal_ical_${randomBytes(4).toString('hex')}`;

/** Storage URLs to serve from; `importable` when another process can import into a fresh one. */
const storages: Array<[string, () => string, { available: boolean; importable: boolean }]> = [
  ['memory', () => 'memory', { available: true, importable: false }],
  ['json', () => `json:${join(tempDir(), 'calendar.json')}`, { available: true, importable: true }],
  ['sqlite', () => `sqlite:${join(tempDir(), 'calendar.db')}`, { available: true, importable: true }],
  ['postgres', postgres, { available: Boolean(POSTGRES_URL), importable: true }],
];

const EVENTS = [
  { title: 'Rome, spring forward', start_date: '2027-03-28 01:30:00', end_date: '2027-03-28 04:00:00', timezone: 'Europe/Rome', categories: ['Music'] },
  { title: 'New York, the hour twice', start_date: '2027-11-07 01:30:00', end_date: '2027-11-07 02:30:00', timezone: 'America/New_York' },
  { title: 'Sydney, spring forward', start_date: '2027-10-03 01:30:00', end_date: '2027-10-03 03:30:00', timezone: 'Australia/Sydney' },
  { title: 'Fair', start_date: '2027-01-09', end_date: '2027-01-11', all_day: true },
  {
    title: 'Fête 🎷 « Jazz », à Zürich; long and non-ASCII ' + 'ü'.repeat(50), description: `${'Ωmega, 😀; \\ '.repeat(30)}end`,
    start_date: '2027-05-01 18:00:00', end_date: '2027-05-03 02:00:00',
    venue: { venue: 'Blue Room', address: 'Via Roma 1', city: 'Rome', geo_lat: 41.9, geo_lng: 12.5 }, categories: ['Music', 'Jazz'],
  },
];

async function call(url: string, init: { json?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(url, {
    method: init.json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

function evcal(...args: string[]) {
  const res = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

const vevents = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
const instant = (v: ICAL.Component, name: string) => (v.getFirstPropertyValue(name) as ICAL.Time).toJSDate().getTime();
const jsonInstant = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);

interface JsonEvent { id: number; title: string; all_day: boolean; start_date: string; end_date: string; utc_start_date: string; utc_end_date: string }

/** The feed of a server, checked against its JSON list: the same events at the same instants. */
async function checkedFeed(api: string): Promise<string> {
  const ics = await call(`${api}/events.ics`);
  expect(ics.status).toBe(200);
  expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  const list = JSON.parse((await call(`${api}/events?per_page=50`)).text) as { events: JsonEvent[] };
  const parsed = vevents(ics.text);
  expect(parsed.map((v) => v.getFirstPropertyValue('summary'))).toEqual(list.events.map((e) => e.title));
  for (const [i, e] of list.events.entries()) {
    const v = parsed[i]!;
    if (e.all_day) {
      expect((v.getFirstPropertyValue('dtstart') as ICAL.Time).toString(), e.title).toBe(e.start_date.slice(0, 10));
      const after = new Date(Date.parse(`${e.end_date.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      expect((v.getFirstPropertyValue('dtend') as ICAL.Time).toString(), e.title).toBe(after);
    } else {
      expect(instant(v, 'dtstart'), e.title).toBe(jsonInstant(e.utc_start_date));
      expect(instant(v, 'dtend'), e.title).toBe(jsonInstant(e.utc_end_date));
    }
  }
  for (const line of ics.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  return ics.text;
}

for (const [name, storageUrl, { available, importable }] of storages) {
  describe.skipIf(!available)(`${name}: iCalendar through evcal serve`, { timeout: 90_000 }, () => {
    it('serves feeds that ical.js reads as the JSON list, the same bytes by Accept, named in the address\'s language', async () => {
      const server = await startServe(['--storage', storageUrl(), ...ARGS]);
      const ids: number[] = [];
      for (const event of EVENTS) {
        const created = await call(`${server.api}/events`, { json: { status: 'publish', ...event } });
        expect(created.status, created.text).toBe(201);
        ids.push(JSON.parse(created.text).id);
      }
      const feed = await checkedFeed(server.api);
      expect((await call(`${server.api}/events`, { headers: { accept: 'text/calendar' } })).text).toBe(feed);
      const one = await call(`${server.api}/events/${ids[0]}.ics`);
      expect(vevents(one.text).map((v) => v.getFirstPropertyValue('uid'))).toEqual([`${ids[0]}@127.0.0.1`]);
      expect((await call(`${server.api}/events/${ids[0]}`, { headers: { accept: 'text/calendar' } })).text).toBe(one.text);
      const de = await call(`${server.origin}/de/cal/events/v1/events.ics`);
      expect(de.text).toContain('\r\nX-WR-CALNAME:Veranstaltungen von 127.0.0.1\r\n');
      const error = await call(`${server.api}/events/999999.ics`);
      expect([error.status, JSON.parse(error.text).code]).toEqual([404, 'rest-event-not-found']);
    });

    it.skipIf(!importable)('imports a feed into a fresh storage (the same events served again), again without copies, and refuses a bad file naming the line', async () => {
      const source = await startServe(['--storage', 'memory', ...ARGS]);
      for (const event of EVENTS) await call(`${source.api}/events`, { json: { status: 'publish', ...event } });
      const feed = await checkedFeed(source.api);
      const dir = tempDir();
      const file = join(dir, 'calendar.ics');
      writeFileSync(file, feed);
      const target = storageUrl();

      const first = evcal('import', file, '--storage', target);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/^imported 5 events \(5 new, 0 updated, 0 unchanged\), 1 new venues, 2 new categories into .* in [\d.]+ s\n$/);
      const again = evcal('import', file, '--storage', target);
      expect(again.stderr).toMatch(/^imported 5 events \(0 new, 0 updated, 5 unchanged\), 0 new venues, 0 new categories into /);

      const bad = join(dir, 'bad.ics');
      writeFileSync(bad, feed.replace('DTSTART;TZID=Australia/Sydney', 'DTSTART;TZID=Mars/Olympus_Mons'));
      const line = feed.slice(0, feed.indexOf('DTSTART;TZID=Australia/Sydney')).split('\r\n').length;
      const refused = evcal('import', bad, '--storage', target);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`evcal import: ${bad}, line ${line}: unknown time zone "Mars/Olympus_Mons" in DTSTART: neither an IANA zone nor defined by a VTIMEZONE\n`);
      // Into a fresh storage: nothing of the events before that line is left.
      const fresh = storageUrl();
      expect(evcal('import', bad, '--storage', fresh).code).toBe(1);
      const exported = evcal('export', '--storage', fresh);
      expect(exported.stderr).toMatch(/^exported 0 events, 0 venues, 0 organizers, 0 categories, 0 tags from /);
      const notIcal = join(dir, 'notes.ics');
      writeFileSync(notIcal, 'shopping list\n');
      expect(evcal('import', notIcal, '--storage', target).stderr).toMatch(/line 1: not an iCalendar file/);

      const copy = await startServe(['--storage', target, ...ARGS]);
      const served = await checkedFeed(copy.api);
      const essence = (text: string) => vevents(text).map((v) => [
        v.getFirstPropertyValue('summary'), v.getFirstPropertyValue('description'), v.getFirstPropertyValue('location'), v.getFirstPropertyValue('geo'),
        v.getAllProperties('categories').flatMap((p) => p.getValues()), instant(v, 'dtstart'), instant(v, 'dtend'),
      ]);
      expect(essence(served)).toEqual(essence(feed));
    });
  });
}
