// Every URL a representation carries, built from where the site and the API live.
import type { PostKind, PostRecord, Taxonomy } from '../model/records';

/** Where the site and the API are, as the caller reached them. */
export interface LinkBase {
  /** The site's home URL with no trailing slash, e.g. "https://example.com". */
  readonly siteUrl: string;
  /** The API root with no trailing slash, namespace included, e.g. "https://example.com/cal/events/v1". */
  readonly apiRoot: string;
}

const POST_TYPE: Record<PostKind, string> = { event: 'tribe_events', venue: 'tribe_venue', organizer: 'tribe_organizer' };

/** The public permalink; unpublished posts get the query-string form WordPress uses for them. */
export function postUrl(links: LinkBase, kind: PostKind, post: PostRecord): string {
  if (post.status !== 'publish' || post.slug === '') return `${links.siteUrl}/?post_type=${POST_TYPE[kind]}&p=${post.id}`;
  // An occurrence's slug is its series' and its date (`jam/2027-03-15`): two path segments, as the reference's extension writes them.
  return `${links.siteUrl}/${kind}/${post.slug.split('/').map(encodeURIComponent).join('/')}/`;
}

/** `<host><path of the home URL>?id=<id>`: no scheme, no port. */
export function globalId(links: LinkBase, id: number): string {
  return `${globalIdBase(links.siteUrl)}?id=${id}`;
}

// The host and path of the last home URL seen: a page of posts asks for the same one each time.
let lastSite: string | undefined;
let lastBase = '';

function globalIdBase(siteUrl: string): string {
  if (siteUrl === lastSite) return lastBase;
  let base = siteUrl;
  try {
    const u = new URL(siteUrl);
    base = `${u.hostname}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    // a siteUrl that is not a URL is used as is
  }
  lastSite = siteUrl;
  lastBase = base;
  return base;
}

/**
 * `global_id_lineage`: the post's own global id, then the ids of its sources. An id that is
 * the post's own (a site migrated onto the same address keeps its global ids) is listed once.
 */
export function globalIdLineage(gid: string, lineage: readonly string[] | undefined): string[] {
  if (lineage === undefined || lineage.length === 0) return [gid];
  return [...new Set([gid, ...lineage])];
}

export function eventRestUrl(links: LinkBase, id: number): string {
  return `${links.apiRoot}/events/${id}`;
}

export function termCollectionUrl(links: LinkBase, taxonomy: Taxonomy): string {
  return `${links.apiRoot}/${taxonomy === 'category' ? 'categories' : 'tags'}`;
}

/** The `urls` object of a term: self, collection and, with a parent, up. */
export function termUrls(links: LinkBase, taxonomy: Taxonomy, id: number, parent: number): { self: string; collection: string; up?: string } {
  const collection = termCollectionUrl(links, taxonomy);
  return { self: `${collection}/${id}`, collection, ...(parent ? { up: `${collection}/${parent}` } : {}) };
}

/** The public archive page of a term. */
export function termArchiveUrl(links: LinkBase, taxonomy: Taxonomy, slug: string): string {
  return taxonomy === 'category'
    ? `${links.siteUrl}/events/category/${encodeURIComponent(slug)}/`
    : `${links.siteUrl}/tag/${encodeURIComponent(slug)}/`;
}
