// Terms named by clients: by id, slug or name, in list filters and on event writes.
import type { ArgContext } from '../input/args';
import type { Taxonomy, TermRecord } from '../model/records';
import { withDescendants } from '../query/term-engine';
import type { Storage, TermCollection } from '../storage/storage';
import { sanitizeSlug, uniqueSlug } from '../domain/slug';
import { requirePermission, type Call } from './call';

export function termCollection(storage: Storage, taxonomy: Taxonomy): TermCollection {
  return taxonomy === 'category' ? storage.categories : storage.tags;
}

/** The term a reference names: first as a slug, then as an id, then as a name. */
export async function findTerm(terms: TermCollection, ref: string): Promise<TermRecord | undefined> {
  const bySlug = await terms.getBySlug(ref);
  if (bySlug) return bySlug;
  if (/^\d+$/.test(ref)) {
    const byId = await terms.get(Number(ref));
    if (byId) return byId;
  }
  return (await terms.findByName(ref))[0];
}

/** Validates a list filter: every reference must name a term of the taxonomy (behaviour.md §2.1.1). */
export function termFilterValidator(taxonomy: Taxonomy) {
  return async (refs: readonly string[], ctx: ArgContext): Promise<string | undefined> => {
    if (refs.length === 0) return 'Invalid parameter.';
    const terms = termCollection(ctx.storage, taxonomy);
    const ids: number[] = [];
    for (const ref of refs) {
      const term = await findTerm(terms, ref);
      if (!term) return 'Invalid parameter.';
      ids.push(term.id);
    }
    ctx.memo.set(`terms:${taxonomy}`, ids);
    return undefined;
  };
}

/** The term ids a validated filter named; categories with all their descendants. */
export async function termFilterIds(ctx: ArgContext, taxonomy: Taxonomy): Promise<number[]> {
  const ids = (ctx.memo.get(`terms:${taxonomy}`) as number[] | undefined) ?? [];
  if (taxonomy !== 'category') return ids;
  const all = await ctx.storage.categories.list({ hideEmpty: false, countStatuses: [], sort: [{ field: 'id', direction: 'asc' }] });
  return withDescendants(all.items.map((t) => t.term), ids);
}

/**
 * The term ids an event write names (behaviour.md §4.1.5, §10.3): numeric items are ids
 * (unknown ones skipped); others resolve by slug, then name; unknown names create terms,
 * which needs the right to manage terms of the taxonomy.
 */
export async function resolveTermsForWrite(call: Call, taxonomy: Taxonomy, refs: readonly string[]): Promise<number[]> {
  const terms = termCollection(call.storage, taxonomy);
  const ids: number[] = [];
  for (const ref of refs) {
    let term: TermRecord | undefined;
    if (/^\d+$/.test(ref)) term = await terms.get(Number(ref));
    else term = (await terms.getBySlug(ref)) ?? (await terms.findByName(ref))[0];
    if (!term && !/^\d+$/.test(ref)) term = await createNamedTerm(call, taxonomy, ref);
    if (term && !ids.includes(term.id)) ids.push(term.id);
  }
  return ids;
}

/** Whether the caller may create, update and delete terms of the taxonomy (behaviour.md §4.8). */
export function canManageTerms(call: Call, taxonomy: Taxonomy): boolean {
  const p = call.permissions;
  return p.can('edit_events') && (taxonomy === 'category' ? p.can('publish_events') : p.can('manage_categories'));
}

async function createNamedTerm(call: Call, taxonomy: Taxonomy, name: string): Promise<TermRecord> {
  requirePermission(call, canManageTerms(call, taxonomy));
  const terms = termCollection(call.storage, taxonomy);
  const id = await call.storage.sequences.next('term');
  const base = sanitizeSlug(name) || String(id);
  const slug = await uniqueSlug(base, async (s) => (await terms.getBySlug(s)) !== undefined);
  const term: TermRecord = { id, name: name.trim(), slug, description: '', parent: 0 };
  await terms.insert(term);
  return term;
}
