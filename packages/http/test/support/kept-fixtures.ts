// What the tests of remembered answers share (unchanged-lists.test.ts, kept-answers.test.ts):
// the clock they start at, the addresses, an administrator and two published events.
import type { Principal } from '@evcal/core';

export const START = Date.parse('2026-11-22T06:30:00Z');
export const HOUR = 3_600_000;
export const ROOT = 'https://cal.example.org/cal/events/v1';
export const ADMIN: Principal = { id: 1, role: 'administrator' };

export const SEED_EVENTS = [
  { id: 12, title: 'Twelve', start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 11:00:00', timezone: 'UTC', status: 'publish' },
  { id: 34, title: 'Thirty-four', start_date: '2027-01-03 10:00:00', end_date: '2027-01-03 11:00:00', timezone: 'UTC', status: 'publish' },
];
