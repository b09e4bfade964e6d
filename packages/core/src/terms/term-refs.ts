// Terms named by clients: by id, slug or name, in list filters and on event writes.
import type { Message } from '../domain/messages';
import { INVALID_PARAMETER } from '../domain/errors';
import type { ArgContext } from '../kernel/args';
import type { Taxonomy, TermRecord } from '../model/records';
import { withDescendants } from '../query/term-engine';
import { foldText } from '../query/text-match';
import { formatUtc } from '../time/wall-clock';
import type { Storage, TermCollection } from '../storage/storage';
import { sanitizeSlug, uniqueSlug } from '../domain/slug';
import { requirePermission, type Call, type WriteCall } from '../kernel/call';
import { remember } from '../kernel/arg-memo';

export function termCollection(storage: Storage, taxonomy: Taxonomy): TermCollection {
  return taxonomy === 'category' ? storage.categories : storage.tags;
}

const ALL_TERMS = { hideEmpty: false, countStatuses: [], sort: [{ field: 'id', direction: 'asc' }] } as const;

/**
 * The terms references name — each first as a slug, then as an id, then as a name (the
 * oldest term of that name) — in three lookups however many references there are.
 * Unresolved references are absent from the map.
 */
export async function findTerms(terms: TermCollection, refs: readonly string[], as: 'any' | 'slug-or-name' = 'any'): Promise<Map<string, TermRecord>> {
  const unique = [...new Set(refs)];
  // Nothing to look up (e.g. a write naming its terms by id only): no queries.
  if (unique.length === 0) return new Map();
  const numeric = as === 'any' ? unique.filter((r) => /^\d+$/.test(r)).map(Number) : [];
  const [bySlug, byId, byName] = await Promise.all([
    terms.list({ ...ALL_TERMS, slugs: unique }),
    numeric.length ? terms.getMany(numeric) : [],
    terms.list({ ...ALL_TERMS, nameKeys: unique.map((r) => foldText(r.trim())) }),
  ]);
  const candidates = new Map<number, TermRecord>();
  for (const term of [...bySlug.items.map((t) => t.term), ...byId, ...byName.items.map((t) => t.term)]) candidates.set(term.id, term);
  return matchTerms([...candidates.values()].sort((a, b) => a.id - b.id), unique, as);
}

/**
 * What `findTerms` resolves, from terms already read (in id order, so that a name names the
 * oldest term of that name).
 */
function matchTerms(terms: readonly TermRecord[], refs: readonly string[], as: 'any' | 'slug-or-name'): Map<string, TermRecord> {
  const found = new Map<string, TermRecord>();
  for (const ref of refs) {
    const name = foldText(ref.trim());
    const term = terms.find((t) => t.slug === ref)
      ?? (as === 'any' && /^\d+$/.test(ref) ? terms.find((t) => t.id === Number(ref)) : undefined)
      ?? terms.find((t) => foldText(t.name) === name);
    if (term) found.set(ref, term);
  }
  return found;
}

/**
 * Validates a list filter: every reference must name a term of the taxonomy (behaviour
 * reference: "Parameters"). A category names itself and its descendants, which need every
 * category: that one read resolves the references too.
 */
export function termFilterValidator(taxonomy: Taxonomy) {
  return async (refs: readonly string[], ctx: ArgContext): Promise<Message | undefined> => {
    if (refs.length === 0) return INVALID_PARAMETER;
    const all = taxonomy === 'category' ? (await ctx.storage.categories.list(ALL_TERMS)).items.map((t) => t.term) : undefined;
    const found = all ? matchTerms(all, refs, 'any') : await findTerms(ctx.storage.tags, refs);
    if (refs.some((ref) => !found.has(ref))) return INVALID_PARAMETER;
    const ids = refs.flatMap((ref) => found.get(ref)?.id ?? []);
    ctx.memo.termFilters.set(taxonomy, all ? withDescendants(all, ids) : ids);
    // The listed events' categories are among them: their rendering need not read them again.
    if (all) remember(ctx.memo, 'category', all);
    return undefined;
  };
}

/** The term ids a validated filter named; categories with all their descendants. */
export function termFilterIds(ctx: ArgContext, taxonomy: Taxonomy): number[] {
  return ctx.memo.termFilters.get(taxonomy) ?? [];
}

/**
 * The term ids an event write names (behaviour reference: "Categories and tags on create/update",
 * "Tags by slug on a write"): numeric items are ids (unknown ones skipped); others resolve by slug,
 * then name; unknown names create terms, which needs the right to manage terms of the taxonomy.
 */
export async function resolveTermsForWrite(call: WriteCall, taxonomy: Taxonomy, refs: readonly string[]): Promise<number[]> {
  const terms = termCollection(call.storage, taxonomy);
  const isId = (ref: string) => /^\d+$/.test(ref);
  const ids = refs.filter(isId).map(Number);
  const [byId, byText] = await Promise.all([
    ids.length ? terms.getMany(ids) : [],
    findTerms(terms, refs.filter((ref) => !isId(ref)), 'slug-or-name'),
  ]);
  const resolved: number[] = [];
  for (const ref of refs) {
    const term = isId(ref) ? byId.find((t) => t.id === Number(ref)) : byText.get(ref) ?? (await createNamedTerm(call, taxonomy, ref));
    if (term && !resolved.includes(term.id)) {
      resolved.push(term.id);
      remember(call.args.memo, taxonomy, [term]);
    }
  }
  return resolved;
}

/** Whether the caller may create, update and delete terms of the taxonomy (behaviour reference: "Terms: create, update, delete"). */
export function canManageTerms(call: Call, taxonomy: Taxonomy): boolean {
  const p = call.permissions;
  return p.can('edit_events') && (taxonomy === 'category' ? p.can('publish_events') : p.can('manage_categories'));
}

/** Creates a term named `name` (with a unique slug), if the caller may manage terms. */
export async function createNamedTerm(call: WriteCall, taxonomy: Taxonomy, name: string): Promise<TermRecord> {
  requirePermission(call, canManageTerms(call, taxonomy));
  const terms = termCollection(call.storage, taxonomy);
  const id = await call.storage.sequences.next('term');
  const base = sanitizeSlug(name) || String(id);
  const slug = await uniqueSlug(base, async (s) => (await terms.getBySlug(s)) !== undefined);
  const term: TermRecord = { id, name: name.trim(), slug, description: '', parent: 0, revision: call.storage.change, modifiedUtc: formatUtc(call.now) };
  await terms.insert(term);
  return term;
}
