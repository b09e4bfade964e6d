// Redaction of password-protected content in lists and embedded copies (behaviour reference:
// "Password-protected content (redaction)"): keys from a fixed list are replaced by placeholders
// wherever they occur, key order kept. The list is the reference's, side effects included (a
// redacted venue's name `venue` becomes [] because `venue` is an event key too).

type Json = unknown;

const EMPTY_STRING = ['description', 'excerpt', 'cost', 'website', 'virtual_url', 'virtual_video_source', 'email',
  'phone', 'stateprovince', 'zip', 'province', 'country', 'city', 'address'];
const NULLED = ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'ticketed', 'is_virtual'];
const EMPTY_LIST = ['categories', 'tags', 'venue', 'organizer', 'custom_fields'];

function placeholder(key: string): { value: Json } | undefined {
  if (EMPTY_STRING.includes(key)) return { value: '' };
  if (key === 'image') return { value: false };
  if (NULLED.includes(key)) return { value: null };
  if (EMPTY_LIST.includes(key)) return { value: [] };
  if (key === 'cost_details') return { value: { currency_symbol: '', currency_position: '', currency_code: '', values: [] } };
  if (key === 'attendance') return { value: { total_attendees: null, checked_in: null, not_checked_in: null } };
  if (key === 'geo_lat' || key === 'geo_lng') return { value: 0 };
  return undefined;
}

/** A copy of a representation with protected content replaced by placeholders. */
export function redactProtected<T extends Record<string, Json>>(obj: T): T {
  return walk(obj) as T;
}

function walk(value: Json): Json {
  if (Array.isArray(value)) return value.map(walk);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value)) {
    const p = placeholder(key);
    out[key] = p ? p.value : walk(v);
  }
  return out;
}
