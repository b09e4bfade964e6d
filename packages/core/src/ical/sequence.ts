// SEQUENCE of an event in feeds: a number that grows whenever the event changes, so calendar
// apps replace their copy instead of keeping the old one.
import type { EventRecord } from '../model/records';

/**
 * The event's SEQUENCE: its revision, the storage's change number of its last write. Every
 * write raises it (also one that unlinks a venue, organizer or term the event showed), and
 * it stays far below the 32-bit integers iCalendar allows.
 */
export function sequenceOf(event: EventRecord): number {
  return event.revision;
}
