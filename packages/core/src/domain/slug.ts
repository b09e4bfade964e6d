// Slugs: WordPress's sanitize_title for generation, and per-type uniqueness by suffix.
import { foldText } from '../query/text-match';

/** The longest slug stored (WordPress's post_name column). */
export const MAX_SLUG_LENGTH = 200;

/**
 * A URL-safe slug from a title or a requested slug: accents removed, lower case, anything
 * other than letters, digits, `_` and `-` turned into `-`, repeated dashes collapsed.
 * Letters outside Latin are kept (they are percent-encoded in URLs). May return "".
 */
export function sanitizeSlug(text: string): string {
  return foldText(text.replace(/<[^>]*>/g, '').replace(/&[a-zA-Z0-9#]+;/g, ''))
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}

/**
 * `base`, or the first of `base-2`, `base-3`, … that `isTaken` says is free. `base` must be
 * non-empty.
 */
export async function uniqueSlug(base: string, isTaken: (slug: string) => Promise<boolean>): Promise<string> {
  if (!(await isTaken(base))) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length)}${suffix}`;
    if (!(await isTaken(candidate))) return candidate;
  }
}

/** The suffix WordPress appends to the slug of a trashed post. */
export const TRASHED_SUFFIX = '__trashed';

export function trashedSlug(slug: string): string {
  return slug === '' || slug.endsWith(TRASHED_SUFFIX) ? slug : `${slug}${TRASHED_SUFFIX}`;
}

export function untrashedSlug(slug: string): string {
  return slug.endsWith(TRASHED_SUFFIX) ? slug.slice(0, -TRASHED_SUFFIX.length) : slug;
}
