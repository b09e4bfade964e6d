// Record factories for storage tests: complete, valid records with overridable fields.
import type { EventRecord, OrganizerRecord, TermRecord, TokenRecord, UserRecord, VenueRecord } from '@evcal/core/adapter';

const STAMP = '2026-01-01 10:00:00';

/** "YYYY-MM-DD HH:MM:SS" of an epoch-ms instant in UTC. */
export function utcWall(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export function eventRecord(id: number, over: Partial<EventRecord> = {}): EventRecord {
  const startUtc = over.startUtc ?? Date.UTC(2026, 5, 1, 18) + id * 3_600_000;
  const endUtc = over.endUtc ?? startUtc + 2 * 3_600_000;
  return {
    id, authorId: 1, status: 'publish', slug: `event-${id}`, password: '', title: `Event ${id}`,
    description: '', excerpt: '', date: STAMP, dateUtc: STAMP, modified: STAMP, modifiedUtc: STAMP, image: null, revision: 1,
    parentId: 0, timezone: 'UTC', timezoneAbbr: 'UTC', allDay: false,
    startLocal: utcWall(startUtc), endLocal: utcWall(endUtc), startUtc, endUtc,
    cost: [], currencySymbol: '', currencyPosition: '', currencyCode: '', website: null,
    showMap: false, showMapLink: false, hideFromListings: false, sticky: false, featured: false, ticketed: null,
    categoryIds: [], tagIds: [], venueIds: [], organizerIds: [],
    ...over,
  };
}

export function venueRecord(id: number, over: Partial<VenueRecord> = {}): VenueRecord {
  return {
    id, authorId: 1, status: 'publish', slug: `venue-${id}`, password: '', title: `Venue ${id}`,
    description: '', excerpt: '', date: STAMP, dateUtc: STAMP, modified: STAMP, modifiedUtc: STAMP, image: null, revision: 1,
    address: '', city: '', country: '', province: '', state: '', zip: '', phone: '', stateprovince: '', website: '',
    showMap: true, showMapLink: true, geoLat: null, geoLng: null,
    ...over,
  };
}

export function organizerRecord(id: number, over: Partial<OrganizerRecord> = {}): OrganizerRecord {
  return {
    id, authorId: 1, status: 'publish', slug: `organizer-${id}`, password: '', title: `Organizer ${id}`,
    description: '', excerpt: '', date: STAMP, dateUtc: STAMP, modified: STAMP, modifiedUtc: STAMP, image: null, revision: 1,
    phone: '', website: '', email: '',
    ...over,
  };
}

export function termRecord(id: number, over: Partial<TermRecord> = {}): TermRecord {
  return { id, name: `Term ${id}`, slug: `term-${id}`, description: '', parent: 0, revision: 1, ...over };
}

export function userRecord(id: number, over: Partial<UserRecord> = {}): UserRecord {
  return { id, name: `user-${id}`, role: 'editor', created: Date.UTC(2026, 0, 1) + id, ...over };
}

export function tokenRecord(id: string, userId: number, over: Partial<TokenRecord> = {}): TokenRecord {
  return {
    id, userId, kind: 'bearer', label: '', hash: `${id}`.padEnd(64, '0').slice(0, 64), created: Date.UTC(2026, 0, 2), expires: null, ...over,
  };
}
