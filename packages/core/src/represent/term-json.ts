// The two term shapes (behaviour reference: "Terms (categories and tags)"): embedded in events, and
// returned by /categories and /tags.
import type { Taxonomy, TermRecord } from '../model/records';
import { renderTitle } from '../domain/text';
import { termArchiveUrl, termCollectionUrl, termUrls, type LinkBase } from './links';
import type { EmbeddedTermJson, TermJson } from './schemas';

export type { EmbeddedTermJson, TermJson };

export const TAXONOMY_NAME: Record<Taxonomy, string> = { category: 'tribe_events_cat', tag: 'post_tag' };

/** The raw WordPress term with `term_id` renamed to `id` and moved last, plus `urls` (1.5.1). */
export function embeddedTermJson(links: LinkBase, taxonomy: Taxonomy, term: TermRecord, count: number): EmbeddedTermJson {
  return {
    name: renderTitle(term.name),
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: TAXONOMY_NAME[taxonomy],
    description: term.description,
    parent: term.parent,
    count,
    filter: 'raw',
    id: term.id,
    urls: termUrls(links, taxonomy, term.id, term.parent),
  };
}

/** The term of the term routes (1.5.2); `withLinks` adds `_links` (single, create, update). */
export function termJson(links: LinkBase, taxonomy: Taxonomy, term: TermRecord, count: number, withLinks = false): TermJson {
  const collection = termCollectionUrl(links, taxonomy);
  return {
    id: term.id,
    count,
    description: term.description,
    name: renderTitle(term.name),
    slug: term.slug,
    taxonomy: TAXONOMY_NAME[taxonomy],
    ...(taxonomy === 'category' ? { parent: term.parent } : {}),
    meta: [],
    url: termArchiveUrl(links, taxonomy, term.slug),
    urls: termUrls(links, taxonomy, term.id, term.parent),
    ...(withLinks ? {
      _links: {
        self: [{ href: `${collection}/${term.id}` }],
        collection: [{ href: collection }],
        ...(term.parent ? { up: [{ embeddable: true, href: `${collection}/${term.parent}` }] } : {}),
        'https://api.w.org/post_type': [{ href: `${links.apiRoot}/events?${taxonomy === 'category' ? 'categories' : 'tags'}=${term.id}` }],
      },
    } : {}),
  };
}
