// Shared fixtures for the behaviour tests of @evcal/core: a calendar over the memory storage
// with a fixed clock, the default WordPress roles as principals, an image provider with a
// small media library, and helpers to assert CalendarError refusals.
import { expect } from 'vitest';
import {
  createCalendar, isCalendarError,
  type Calendar, type CalendarError, type CalendarErrorCode, type CalendarOptions, type CallContext,
  type ImageProvider, type ImageRecord, type Principal,
} from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';

/** Sunday 2026-11-22 12:00:00 UTC (07:00 in New York, 13:00 in Rome). */
export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** The user ids that exist (the `author` field must name one). */
export const USER_IDS = [1, 2, 3, 4, 5] as const;

export const admin: Principal = { id: 1, role: 'administrator' };
export const editor: Principal = { id: 2, role: 'editor' };
export const author: Principal = { id: 3, role: 'author' };
export const contributor: Principal = { id: 4, role: 'contributor' };
export const subscriber: Principal = { id: 5, role: 'subscriber' };

/** The call context of a principal; `anon` is an anonymous call. */
export const as = (principal: Principal): CallContext => ({ principal });
export const anon: CallContext = {};

/** Callers by role name, for readable test tables. */
export type Role = 'anonymous' | 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';
const BY_ROLE = { administrator: admin, editor, author, contributor, subscriber } as const;
/** The call context of a role (`anonymous`: no principal). */
export const ctxOf = (role: Role): CallContext => (role === 'anonymous' ? anon : as(BY_ROLE[role]));
/** The principal of a role. */
export const principalOf = (role: Exclude<Role, 'anonymous'>): Principal => BY_ROLE[role];

/** A full image attachment (metadata and sizes), as a media library would describe it. */
export const POSTER: ImageRecord = {
  url: 'https://cdn.example.com/uploads/2026/08/poster.jpg',
  id: 345,
  width: 1200,
  height: 800,
  filesize: 183402,
  sizes: {
    medium: {
      width: 300, height: 200, 'mime-type': 'image/jpeg', filesize: 14022,
      url: 'https://cdn.example.com/uploads/2026/08/poster-300x200.jpg',
    },
  },
};

/** An attachment without usable metadata. */
export const BARE_IMAGE: ImageRecord = { url: 'https://cdn.example.com/uploads/2026/08/flyer.png', id: 346 };

/** Attachment ids 345 and 346 exist; absolute http(s) URLs are accepted as given. */
export const testImages: ImageProvider = {
  resolve(ref) {
    if (typeof ref === 'number') return ref === POSTER.id ? POSTER : ref === BARE_IMAGE.id ? BARE_IMAGE : undefined;
    return /^https?:\/\/\S+$/i.test(ref) ? { url: ref } : undefined;
  },
};

/** A calendar over a fresh memory storage; site zone America/New_York, clock fixed at NOW. */
export function makeCalendar(options: Partial<CalendarOptions> = {}): Calendar {
  return createCalendar({
    storage: createMemoryStorage(),
    timezone: 'America/New_York',
    now: () => NOW,
    users: { exists: (id) => (USER_IDS as readonly number[]).includes(id) },
    images: testImages,
    ...options,
  });
}

/** The smallest valid event create input, with overrides. */
export function eventInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Jazz Night', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', ...overrides };
}

/** Awaits a promise that must reject with a CalendarError of `code`, and returns the error. */
export async function refusal(promise: Promise<unknown>, code: CalendarErrorCode): Promise<CalendarError> {
  let caught: unknown;
  try {
    await promise;
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a CalendarError "${code}", but the call succeeded`).toBeDefined();
  expect(isCalendarError(caught), `expected a CalendarError, got ${String(caught)}`).toBe(true);
  const error = caught as CalendarError;
  expect(error.code, error.message).toBe(code);
  return error;
}

/** The names of the invalid parameters of an `invalid_params` error. */
export function invalidParamNames(error: CalendarError): string[] {
  return Object.keys((error.details.params ?? {}) as Record<string, unknown>);
}

/** Asserts an `invalid_params` refusal naming exactly `params`. */
export async function expectInvalid(promise: Promise<unknown>, ...params: string[]): Promise<CalendarError> {
  const error = await refusal(promise, 'invalid_params');
  expect(invalidParamNames(error).sort()).toEqual([...params].sort());
  return error;
}

/** The ids of a rendered `venue` field (object, list or []). */
export function venueIds(venue: unknown): number[] {
  if (Array.isArray(venue)) return venue.map((v) => (v as { id: number }).id);
  return [(venue as { id: number }).id];
}

/** The ids of a rendered `organizer` (or terms) list. */
export function ids(list: unknown): number[] {
  return (list as { id: number }[]).map((x) => x.id);
}

/** Every event of the calendar an administrator can list (all statuses except trash), by id. */
export async function listedEventIds(calendar: Calendar, input: Record<string, unknown> = {}, ctx: CallContext = as(admin)): Promise<number[]> {
  const result = await calendar.events.list({ per_page: 50, start_date: '2000-01-01', end_date: '2099-12-31', ...input }, ctx);
  return ids(result.body.events);
}

export type Json = Record<string, unknown>;

/** A field of a representation by a name known only at run time (test tables). */
export function at(representation: object, key: string): unknown {
  return (representation as Record<string, unknown>)[key];
}
