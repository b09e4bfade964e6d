// The demo calendar: in memory, with a venue and a few events in the coming days, so the
// default list (upcoming events) shows them whenever the example runs.
import { createCalendar, type Calendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';

/** `YYYY-MM-DD HH:MM:SS`, `days` after today (UTC). */
function inDays(days: number, time: string): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${date.toISOString().slice(0, 10)} ${time}`;
}

export async function createDemoCalendar(): Promise<Calendar> {
  const calendar = createCalendar({ storage: createMemoryStorage(), timezone: 'UTC' });
  await calendar.importDataset({
    venues: [{ id: 1, venue: 'Blue Room', status: 'publish', city: 'Springfield' }],
    events: [
      { id: 10, title: 'Jazz Night', status: 'publish', venue: [1], start_date: inDays(1, '20:00:00'), end_date: inDays(1, '23:00:00') },
      { id: 11, title: 'Printmaking Workshop', status: 'publish', venue: [1], start_date: inDays(3, '10:00:00'), end_date: inDays(3, '16:00:00') },
      { id: 12, title: 'Open-Air Concert', status: 'publish', start_date: inDays(7, '18:00:00'), end_date: inDays(7, '21:00:00') },
    ],
  });
  return calendar;
}
