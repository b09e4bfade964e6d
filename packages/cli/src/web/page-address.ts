// The addresses of the record pages: what core writes as each record's `url` (represent/links.ts:
// `/event/<slug>/`, an occurrence `/event/<series slug>/<date>/`, `/venue/<slug>/`,
// `/organizer/<slug>/`, `/events/category/<slug>/`, `/tag/<slug>/`), read back here, in the
// site's default language; the same path after `/<language>` in each language evcal ships, as
// the API is served at `/<language>/<namespace>`.
import { LANGUAGES } from '@evcal/http';

export { inLanguage } from './language-address';

export type RecordKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

export interface RecordAddress {
  readonly kind: RecordKind;
  readonly slug: string;
  /** The language its path names (`/de/event/…`); undefined for the default language's path. */
  readonly language: string | undefined;
}

const PATTERNS: readonly (readonly [RegExp, RecordKind])[] = [
  // An event's slug, or an occurrence's: its series' slug and its date.
  [/^\/event\/([^/]+(?:\/\d{4}-\d{2}-\d{2})?)\/?$/, 'event'],
  [/^\/venue\/([^/]+)\/?$/, 'venue'],
  [/^\/organizer\/([^/]+)\/?$/, 'organizer'],
  [/^\/events\/category\/([^/]+)\/?$/, 'category'],
  [/^\/tag\/([^/]+)\/?$/, 'tag'],
];

/** The record page a path names, or undefined. */
export function recordAddress(pathname: string): RecordAddress | undefined {
  let path = pathname;
  let language: string | undefined;
  const prefixed = /^\/([a-z]{2})(\/.+)$/.exec(path);
  if (prefixed && LANGUAGES.includes(prefixed[1]!)) {
    language = prefixed[1];
    path = prefixed[2]!;
  }
  for (const [pattern, kind] of PATTERNS) {
    const m = pattern.exec(path);
    if (!m) continue;
    const slug = decoded(m[1]!);
    return slug === undefined ? undefined : { kind, slug, language };
  }
  return undefined;
}

function decoded(segments: string): string | undefined {
  try {
    return segments.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}
