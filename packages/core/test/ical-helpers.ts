// Reading evcal's feeds back the way a calendar app does: ical.js parses them (VTIMEZONEs
// included), and times become instants to compare with the JSON representation.
import ICAL from 'ical.js';
import { expect } from 'vitest';
import type { EventFeed } from '@evcal/core';

export interface ReadFeed {
  readonly text: string;
  readonly total: number;
  readonly count: number;
  readonly truncated: boolean;
  /** The VEVENTs in feed order. */
  readonly events: readonly ICAL.Component[];
}

/** Opens a feed, reads it to the end and parses it. */
export async function readFeed(feed: EventFeed | Promise<EventFeed>): Promise<ReadFeed> {
  const opened = await (await feed).open();
  let text = '';
  for await (const chunk of opened.body) text += chunk;
  return { text, total: opened.total, count: opened.count, truncated: opened.truncated, events: parseEvents(text) };
}

/** The VEVENTs of an iCalendar text, parsed by ical.js. */
export function parseEvents(text: string): ICAL.Component[] {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
}

/** The VEVENT with this UID. */
export function byUid(events: readonly ICAL.Component[], uid: string): ICAL.Component {
  const found = events.find((e) => e.getFirstPropertyValue('uid') === uid);
  expect(found, `a VEVENT with UID ${uid}`).toBeDefined();
  return found!;
}

/** The instant of DTSTART or DTEND as ical.js reads it (TZID through the feed's VTIMEZONE). */
export function instantOf(vevent: ICAL.Component, name: 'dtstart' | 'dtend'): number {
  const time = vevent.getFirstPropertyValue(name) as ICAL.Time;
  expect(time.isDate, `${name} is a date and time`).toBe(false);
  return time.toJSDate().getTime();
}

/** `YYYY-MM-DD` of a DATE value. */
export function dateOf(vevent: ICAL.Component, name: 'dtstart' | 'dtend'): string {
  const time = vevent.getFirstPropertyValue(name) as ICAL.Time;
  expect(time.isDate, `${name} is a date`).toBe(true);
  return time.toString();
}

/** The instant of a JSON `utc_*_date` ("YYYY-MM-DD HH:MM:SS" in UTC). */
export function jsonInstant(utc: unknown): number {
  return Date.parse(`${String(utc).replace(' ', 'T')}Z`);
}

/** Every physical line of the text: at most 75 octets, CRLF-terminated (RFC 5545 §3.1). */
export function expectFolded(text: string): void {
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  const long = lines.filter((l) => Buffer.byteLength(l, 'utf8') > 75);
  expect(long).toEqual([]);
  expect(lines.filter((l) => l.includes('\n') || l.includes('\r'))).toEqual([]);
}
