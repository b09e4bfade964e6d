// The names a `ts fragment` block of the docs may use without declaring them: what the text
// around it has set up (the calendar, its storage…) and an app's own pieces it calls (its
// sessions, a Redis client…). test/docs/docs.test.ts compiles fragments with these
// declarations, in an app that installed the packed packages (CONTRIBUTING.md).
import type { Calendar, Storage } from '@evcal/core';
import type { Authenticate } from '@evcal/http';
import type { Express } from 'express';

declare global {
  /** `createCalendar({ storage, … })`, as the page set it up. */
  const calendar: Calendar;
  /** The storage adapter the calendar uses (docs/storage.md). */
  const storage: Storage;
  /** A dataset (docs/datasets.md). */
  const dataset: unknown;
  /** An iCalendar file's text. */
  const text: string;
  /** The authentication hook of the app (docs/security.md). */
  const authenticate: Authenticate;
  /** The app's Express application. */
  const app: Express;

  // An app's own pieces that examples call.
  function verifyJwt(token: string): Promise<{ sub: string; role: string }>;
  function parseCookie(header: string): Record<string, string | undefined>;
  const sessions: { get(id: string): Promise<{ userId: number; isStaff: boolean } | undefined> };
  const redis: { incr(key: string): Promise<number>; expire(key: string, seconds: number): Promise<unknown>; ttl(key: string): Promise<number> };
  const pressTeam: ReadonlySet<number>;
  const searchIndex: { refresh(kind: string, id: number): void };
  const queue: { push(item: unknown): void };
  /** A storage adapter being written, and how to open its data again (docs/storage.md). */
  function createMyStorage(options: object): Storage;
  function openMyStorageAgain(): Promise<Storage>;
}
