// SEQUENCE of an event in feeds: a number that grows whenever the event changes, so calendar
// apps replace their copy instead of keeping the old one.
import type { EventRecord } from '../model/records';

/** Where the count starts. */
const EPOCH = Date.UTC(2000, 0, 1);

/**
 * The event's SEQUENCE: the seconds between 2000-01-01 and its last change (`modifiedUtc`,
 * which every write sets), so it grows with every change and stays a 32-bit integer until
 * 2068. (It becomes the storage's change number once records carry one.)
 */
export function sequenceOf(event: EventRecord): number {
  const modified = Date.parse(`${event.modifiedUtc.replace(' ', 'T')}Z`);
  return Number.isFinite(modified) ? Math.max(0, Math.floor((modified - EPOCH) / 1000)) : 0;
}
