// What the target calendar already holds, read once at the start of a run: which ids are
// taken by which kind, which posts came from which source (their lineage: a post migrated
// earlier lists the source's global id), and the terms by slug. This is all a run needs to
// remember between runs, so nothing else is stored.
import {
  POST_STATUSES, type EventRecord, type OrganizerRecord, type PostKind, type PostRecord, type Storage, type Taxonomy, type TermRecord,
  type VenueRecord,
} from '@evcal/core';

export type AnyPost = EventRecord | VenueRecord | OrganizerRecord;

export interface TargetIndex {
  post(id: number): { kind: PostKind; record: AnyPost } | undefined;
  /** The post whose lineage lists this global id. */
  postByGlobalId(gid: string): { kind: PostKind; record: AnyPost } | undefined;
  term(id: number): { taxonomy: Taxonomy; record: TermRecord } | undefined;
  termBySlug(taxonomy: Taxonomy, slug: string): TermRecord | undefined;
  /** Records what a committed write stored. */
  putPost(kind: PostKind, record: AnyPost): void;
  putTerm(taxonomy: Taxonomy, record: TermRecord): void;
}

export async function loadTargetIndex(storage: Storage): Promise<TargetIndex> {
  const all = { sort: [{ field: 'id' as const, direction: 'asc' as const }] };
  const termList = (t: Taxonomy) => (t === 'category' ? storage.categories : storage.tags).list({ ...all, hideEmpty: false, countStatuses: [] });
  const [categories, tags, venues, organizers, events] = await Promise.all([
    termList('category'),
    termList('tag'),
    storage.venues.list({ ...all, statuses: POST_STATUSES }),
    storage.organizers.list({ ...all, statuses: POST_STATUSES }),
    storage.events.list({ ...all, records: 'stored', statuses: POST_STATUSES, excludeHidden: false }),
  ]);
  const posts = new Map<number, { kind: PostKind; record: AnyPost }>();
  const byGid = new Map<string, number>();
  const terms = new Map<number, { taxonomy: Taxonomy; record: TermRecord }>();
  const slugs = { category: new Map<string, TermRecord>(), tag: new Map<string, TermRecord>() };

  const putPost = (kind: PostKind, record: AnyPost) => {
    const before = posts.get(record.id);
    for (const gid of lineageOf(before?.record)) if (byGid.get(gid) === record.id) byGid.delete(gid);
    posts.set(record.id, { kind, record });
    for (const gid of lineageOf(record)) byGid.set(gid, record.id);
  };
  const putTerm = (taxonomy: Taxonomy, record: TermRecord) => {
    const before = terms.get(record.id);
    if (before && slugs[before.taxonomy].get(before.record.slug)?.id === record.id) slugs[before.taxonomy].delete(before.record.slug);
    terms.set(record.id, { taxonomy, record });
    slugs[taxonomy].set(record.slug, record);
  };
  for (const { term } of categories.items) putTerm('category', term);
  for (const { term } of tags.items) putTerm('tag', term);
  for (const v of venues.items) putPost('venue', v);
  for (const o of organizers.items) putPost('organizer', o);
  for (const e of events.items) putPost('event', e);

  return {
    post: (id) => posts.get(id),
    postByGlobalId: (gid) => {
      const id = byGid.get(gid);
      return id === undefined ? undefined : posts.get(id);
    },
    term: (id) => terms.get(id),
    termBySlug: (taxonomy, slug) => slugs[taxonomy].get(slug),
    putPost,
    putTerm,
  };
}

function lineageOf(record: PostRecord | undefined): readonly string[] {
  return record?.lineage ?? [];
}
