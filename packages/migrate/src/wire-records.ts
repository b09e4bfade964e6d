// The reference's representations read back into dataset records: what the wire shows is
// what a record stores, but for what the reference derives (display costs, permalinks as
// websites, escaped titles, zero dates), which is mapped back to what produces it again.
import {
  costValues, displayCost, formatUtc, parseWall, wallToInstant, ZERO_DATE, type CostDetails, type CurrencyDefaults, type PostKind,
  type Taxonomy, type Zone,
} from '@evcal/core';

export type Json = Record<string, unknown>;
export type SourceKind = Taxonomy | PostKind;

/** Maps source ids to target ids, per id space (posts share one, terms another). */
export interface IdMapper {
  term(sourceId: number): number | undefined;
  post(sourceId: number): number | undefined;
}

/** A protected post in a list has its fields replaced by placeholders; these show it. */
export function isRedacted(kind: PostKind, wire: Json): boolean {
  if (kind === 'event') return wire.all_day === null;
  if (kind === 'venue') return Array.isArray(wire.venue) || wire.show_map === null;
  return Array.isArray(wire.organizer);
}

/** The name a list shows for a record, for reports. */
export function labelOf(kind: SourceKind, wire: Json): string {
  const name = kind === 'event' ? wire.title : kind === 'venue' ? wire.venue : kind === 'organizer' ? wire.organizer : wire.name;
  return typeof name === 'string' ? decodeTitle(name) : '';
}

export function termInput(wire: Json, taxonomy: Taxonomy, ids: IdMapper): Json {
  const parent = taxonomy === 'category' ? Number(wire.parent ?? 0) : 0;
  return {
    name: decodeTitle(String(wire.name ?? '')),
    slug: wire.slug,
    description: typeof wire.description === 'string' ? wire.description : '',
    ...(taxonomy === 'category' ? { parent: parent === 0 ? 0 : (ids.term(parent) ?? -1) } : {}),
  };
}

/** A venue or organizer; the lists drop empty fields, so a missing one is empty. */
export function linkedPostInput(kind: 'venue' | 'organizer', wire: Json, zone: Zone): Json {
  const text = (key: string) => (typeof wire[key] === 'string' ? (wire[key] as string) : '');
  const fields = kind === 'venue'
    ? {
      venue: decodeTitle(text('venue')),
      ...Object.fromEntries(['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince'].map((k) => [k, text(k)])),
      website: decodeUrl(text('website')),
      show_map: wire.show_map !== false,
      show_map_link: wire.show_map_link !== false,
      ...(typeof wire.geo_lat === 'number' && typeof wire.geo_lng === 'number' ? { geo_lat: wire.geo_lat, geo_lng: wire.geo_lng } : {}),
    }
    : { organizer: decodeTitle(text('organizer')), phone: text('phone'), website: decodeUrl(text('website')), email: text('email') };
  return { ...postInput(wire, zone), description: text('description'), ...fields };
}

/** An event, its references mapped to target ids (unmapped ones are left out). */
export function eventInput(wire: Json, ids: IdMapper, zone: Zone, currency: CurrencyDefaults): { raw: Json; cost: StoredCost } {
  const cost = storedCost(wire, currency);
  const refs = (list: number[], map: (id: number) => number | undefined) => list.map(map).filter((id): id is number => id !== undefined);
  const website = typeof wire.website === 'string' ? wire.website : '';
  const raw: Json = {
    ...postInput(wire, zone),
    title: decodeTitle(String(wire.title ?? '')),
    description: typeof wire.description === 'string' ? wire.description : '',
    excerpt: typeof wire.excerpt === 'string' ? wire.excerpt : '',
    ...(typeof wire.timezone === 'string' && wire.timezone !== '' ? { timezone: wire.timezone } : {}),
    all_day: wire.all_day === true,
    start_date: wire.start_date,
    end_date: wire.end_date,
    cost: cost.cost,
    // Without a stored website the reference shows the permalink; evcal does the same for none.
    ...(website === wire.url ? {} : { website: decodeUrl(website) }),
    show_map: wire.show_map !== false,
    show_map_link: wire.show_map_link !== false,
    hide_from_listings: wire.hide_from_listings === true,
    sticky: wire.sticky === true,
    featured: wire.featured === true,
    ...(typeof wire.ticketed === 'boolean' ? { ticketed: wire.ticketed } : {}),
    categories: refs(termIds(wire.categories), (id) => ids.term(id)),
    tags: refs(termIds(wire.tags), (id) => ids.term(id)),
    venue: refs(linkedIds(wire.venue), (id) => ids.post(id)),
    organizer: refs(linkedIds(wire.organizer), (id) => ids.post(id)),
  };
  return { raw, cost };
}

/** The objects embedded in an event's `venue` (object, list or []) or `organizer` (list). */
export function embedded(value: unknown): Json[] {
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : [];
  return list.filter((x): x is Json => x !== null && typeof x === 'object' && typeof (x as Json).id === 'number');
}

export function linkedIds(value: unknown): number[] {
  return embedded(value).map((x) => x.id as number);
}

export function termIds(value: unknown): number[] {
  return Array.isArray(value) ? value.flatMap((t) => (t && typeof (t as Json).id === 'number' ? [(t as Json).id as number] : [])) : [];
}

/** The cost strings and currency fields a record stores so that it renders as the source did. */
export interface StoredCost {
  readonly cost: string[];
  readonly symbol: string;
  readonly position: '' | 'prefix' | 'postfix';
  readonly code: string;
  /** false when no stored form renders the same (the site's default currency differs). */
  readonly exact: boolean;
}

/**
 * The reference shows a display cost and its numbers, not what was stored. The numbers store
 * exactly whenever they render the same display cost; otherwise the display text itself (a
 * cost in words, or a stored symbol the display shows).
 */
export function storedCost(wire: Json, currency: CurrencyDefaults): StoredCost {
  const details = (wire.cost_details ?? {}) as Partial<CostDetails>;
  const display = typeof wire.cost === 'string' ? wire.cost : '';
  const symbol = typeof details.currency_symbol === 'string' ? details.currency_symbol : '';
  const position = details.currency_position === 'prefix' || details.currency_position === 'postfix' ? details.currency_position : '';
  const code = typeof details.currency_code === 'string' ? details.currency_code : '';
  const values = Array.isArray(details.values) ? details.values.map(String) : [];
  const renders = (cost: string[]) => displayCost(cost, symbol, position, currency) === display
    && JSON.stringify(costValues(cost)) === JSON.stringify(values);
  const candidates = [values, display === '' ? [] : [decodeHtml(display)]];
  const found = candidates.find(renders);
  return { cost: found ?? candidates[1]!, symbol, position, code, exact: found !== undefined };
}

/** `modified_utc`, which the reference shows as zeros for some drafts: then read `modified` in the site zone. */
export function modifiedUtcOf(wire: Json, zone: Zone): string | undefined {
  const utc = wire.modified_utc;
  if (typeof utc === 'string' && utc !== ZERO_DATE) return utc;
  const local = typeof wire.modified === 'string' ? parseWall(wire.modified) : undefined;
  return local ? formatUtc(wallToInstant(local, zone)) : undefined;
}

/** Titles come texturized and escaped (`&#038;`, `&lt;`); stored, they are the plain text. */
export function decodeTitle(s: string): string {
  return s.replace(/&#0?38;|&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

// ---- helpers ----

/** The fields every post has. */
function postInput(wire: Json, zone: Zone): Json {
  const author = Number(wire.author ?? 0);
  const modifiedUtc = modifiedUtcOf(wire, zone);
  return {
    status: wire.status,
    ...(Number.isInteger(author) && author > 0 ? { author } : {}),
    ...(typeof wire.slug === 'string' && wire.slug !== '' ? { slug: wire.slug } : {}),
    ...(typeof wire.date === 'string' && wire.date !== ZERO_DATE ? { date: wire.date } : {}),
    // A never-set UTC date (zeros) is absent: the import keeps it unset for unpublished posts.
    date_utc: typeof wire.date_utc === 'string' && wire.date_utc !== ZERO_DATE ? wire.date_utc : null,
    ...(typeof wire.modified === 'string' ? { modified: wire.modified } : {}),
    ...(modifiedUtc ? { modified_utc: modifiedUtc } : {}),
    ...(imageOf(wire.image) ?? {}),
  };
}

/** The stored image: the wire object without what is derived from it (the extension). */
function imageOf(image: unknown): { image: Json } | undefined {
  if (!image || typeof image !== 'object' || typeof (image as Json).url !== 'string') return undefined;
  const { extension: _, ...stored } = image as Json;
  return { image: stored };
}

function decodeUrl(s: string): string {
  return s.replace(/&#0?38;|&amp;/g, '&');
}

function decodeHtml(s: string): string {
  return decodeTitle(s).replace(/&quot;/g, '"').replace(/&#0?39;/g, "'");
}
