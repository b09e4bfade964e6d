// Category and tag operations (behaviour reference: "GET /categories and GET /tags", "Terms, single
// GET", "Terms: create, update, delete").
import { msg } from '../domain/messages';
import { CalendarError, invalidParam } from '../domain/errors';
import { parseArgs, type WireArgs } from '../kernel/args';
import type { Taxonomy, TermRecord } from '../model/records';
import { sanitizeSlug, uniqueSlug } from '../domain/slug';
import { foldText } from '../query/text-match';
import type { TermQuery, TermSortField } from '../query/query-types';
import { termJson } from '../represent/term-json';
import { withDescendants } from '../query/term-engine';
import { formatUtc } from '../time/wall-clock';
import { startCall, requirePermission, type Call, type CallContext, type WriteCall } from '../kernel/call';
import type { CalendarConfig } from '../kernel/context';
import { createPlanCache, type PlanCache } from '../kernel/plan-cache';
import { listKeys, listLinks, listResult, listViewKey, pageOffset, parseList, planWithCache, readList, totalPages, type ListPlan, type ListResult } from '../kernel/list-urls';
import { TERM_ARGS } from './term-args';
import { canManageTerms, findTerms, termCollection } from './term-refs';
import { modifiedRange, modifiedValidity } from '../shared/shared-args';
import { checkPreconditions, termValidator } from '../kernel/validators';
import { represented, type Representation } from '../kernel/representation';
import { runWrite } from '../kernel/write';
import type { TermCreateInput, TermGetInput, TermListInput, TermUpdateInput } from './term-inputs';
import type { CategoryListJson, TagListJson, TermJson } from '../represent/schemas';

type Input = WireArgs;

/** The operations of `/categories` or `/tags` (L: their list envelope), typed as EventOperations are. */
export interface TermOperations<L extends object = Record<string, unknown>> {
  list(input?: TermListInput, ctx?: CallContext): Promise<ListResult<L>>;
  /** The list parsed and validated, with its validator, before it is read (see ListPlan). */
  planList(input?: TermListInput, ctx?: CallContext): Promise<ListPlan<L>>;
  get(input: TermGetInput, ctx?: CallContext): Promise<Representation<TermJson>>;
  create(input: TermCreateInput, ctx?: CallContext): Promise<Representation<TermJson>>;
  /** POST, PUT and PATCH alike: only the fields sent change. */
  update(input: TermUpdateInput, ctx?: CallContext): Promise<Representation<TermJson>>;
  /** Deletes for good; events lose the term. Returns the term as it was. */
  delete(input: TermGetInput, ctx?: CallContext): Promise<Representation<TermJson>>;
}

/** The orderby values read (others sort by name); a Map, so that `constructor` or `__proto__` is no key. */
const ORDERBY: ReadonlyMap<string, TermSortField> = new Map(Object.entries({
  name: 'name', id: 'id', term_id: 'id', slug: 'slug', count: 'count', description: 'description',
  parent: 'parent', include: 'include', term_group: 'name', taxonomy: 'name', term_taxonomy_id: 'id', include_slugs: 'include', none: 'id',
} as const satisfies Record<string, TermSortField>));

export function termOperations(taxonomy: 'category', config: CalendarConfig): TermOperations<CategoryListJson>;
export function termOperations(taxonomy: 'tag', config: CalendarConfig): TermOperations<TagListJson>;
/** One implementation for both taxonomies; the overloads above say which list each one's operations give. */
export function termOperations(taxonomy: Taxonomy, config: CalendarConfig): TermOperations<CategoryListJson | TagListJson> {
  const hierarchical = taxonomy === 'category';
  const args = TERM_ARGS[taxonomy];
  const listArgs = args.list;

  const count = async (call: Call, id: number) => (await call.storage.events.countByTerm(taxonomy, [id], ['publish'])).get(id) ?? 0;
  const validator = async (call: Call, term: TermRecord) => termValidator(taxonomy, term, await count(call, term.id));
  const render = async (call: Call, term: TermRecord, withLinks = true): Promise<Representation<TermJson>> => {
    const n = await count(call, term.id);
    return represented(termJson(call.links, taxonomy, term, n, withLinks), termValidator(taxonomy, term, n));
  };
  /** A write on an existing term: preconditions are checked against its state first. */
  const checked = async (c: WriteCall, term: TermRecord) => {
    if (!c.preconditions) return;
    const current = await validator(c, term);
    checkPreconditions(c.preconditions, () => current);
  };

  /** A term list's arguments, resolved (terms named by slug or name become ids) and normalised. */
  const parseTermList = async (call: Call, input: Input, lastChange: number) => {
    const { values, page, perPage } = await parseList(call, listArgs, input);
    const terms = termCollection(call.storage, taxonomy);
    // Terms named by id are those ids: a numeric value is never read as a slug or name, even
    // when a term has it as its slug (the reference passes the values on as ids).
    const resolve = async (refs: string[] | undefined) => {
      if (!refs) return undefined;
      const found = await findTerms(terms, refs.filter((r) => !/^\d+$/.test(r)));
      return refs.map((r) => (/^\d+$/.test(r) ? Number(r) : found.get(r)!.id));
    };
    const include = await resolve(values.include);
    const exclude = await resolve(values.exclude);
    const eventId = values.event ?? values.post;
    const direction = values.order === undefined || /^asc$/i.test(values.order) ? 'asc' : 'desc';
    const field = ORDERBY.get((values.orderby ?? 'name').toLowerCase()) ?? 'name';
    const query: TermQuery = {
      ...(include ? { ids: include } : {}),
      ...(exclude ? { excludeIds: exclude } : {}),
      ...(values.search !== undefined ? { search: foldText(values.search) } : {}),
      ...('parent' in values && values.parent !== undefined ? { parent: Number(values.parent) } : {}),
      ...(eventId !== undefined ? { eventId } : {}),
      ...(values.slug !== undefined ? { slugs: [values.slug] } : {}),
      hideEmpty: values.hide_empty!,
      countStatuses: ['publish'],
      ...modifiedRange(call, values),
      sort: [{ field: field === 'include' && !include ? 'id' : field, direction }, ...(field === 'id' ? [] : [{ field: 'id' as const, direction: 'asc' as const }])],
      limit: perPage,
      offset: pageOffset(page, perPage),
    };
    const { validator, key } = listKeys(lastChange, [taxonomy, query, values, listViewKey(call)]);
    return { values, page, perPage, include, exclude, eventId, query, validator, key };
  };

  const plans: PlanCache<Awaited<ReturnType<typeof parseTermList>>, ListResult<CategoryListJson | TagListJson>> = createPlanCache(config.listCache);

  const runTermList = async (call: Call, p: Awaited<ReturnType<typeof parseTermList>>): Promise<ListResult<CategoryListJson | TagListJson>> => {
    const { values, page, perPage, include, exclude, eventId } = p;
    const result = await termCollection(call.storage, taxonomy).list(p.query);
    const pages = totalPages(result.total, perPage);
    const links = listLinks(`${call.links.apiRoot}/${taxonomy === 'category' ? 'categories' : 'tags'}/`, [
      ['page', page], ['per_page', perPage], ['search', values.search], ['exclude', exclude?.join(',')],
      ['include', include?.join(',')], ['order', values.order], ['orderby', values.orderby],
      ['hide_empty', values.hide_empty ? undefined : 0], ['parent', 'parent' in values ? values.parent : undefined],
      ['event', eventId], ['slug', values.slug],
      ['modified_after', values.modified_after], ['modified_before', values.modified_before],
    ], page, page < pages, page > 1);
    // The term lists' own key order (behaviour reference: "GET /categories and GET /tags"): the
    // items after the totals.
    const items = result.items.map((t) => termJson(call.links, taxonomy, t.term, t.count));
    const head = { rest_url: links.restUrl, total: result.total, total_pages: pages };
    const tail = { ...(links.next ? { next_rest_url: links.next } : {}), ...(links.previous ? { previous_rest_url: links.previous } : {}) };
    const body = taxonomy === 'category' ? { ...head, categories: items, ...tail } : { ...head, tags: items, ...tail };
    return listResult({ body }, links, result.total, pages, p.validator);
  };

  const planList = async (input: Input = {}, ctx?: CallContext): Promise<ListPlan<CategoryListJson | TagListJson>> => {
    const call = await startCall(config, ctx);
    // Term lists follow the clock only through relative modified bounds.
    const { plan: p, stable } = await planWithCache(call, plans, input, async (lastChange) => {
      const plan = await parseTermList(call, input, lastChange);
      return { plan, validity: modifiedValidity(call, plan.values) };
    });
    return { validator: p.validator, ...(stable ? { stable } : {}), run: () => readList(plans, p.key, () => runTermList(call, p)) };
  };

  return {
    planList,
    list: async (input = {}, ctx) => (await planList(input, ctx)).run(),

    async get(input, ctx) {
      const call = await startCall(config, ctx);
      const { values } = await parseArgs(args.get, input, call.args);
      return render(call, (await termCollection(call.storage, taxonomy).get(values.id!))!);
    },

    async create(input, ctx) {
      const call = await startCall(config, ctx);
      const term = await runWrite(call, async (c) => {
        const { values } = await parseArgs(args.create, input, c.args);
        requirePermission(c, canManageTerms(c, taxonomy));
        if (!hierarchical && values.parent !== undefined) {
          throw new CalendarError('taxonomy_not_hierarchical', msg('Cannot set parent term, taxonomy is not hierarchical.'));
        }
        const terms = termCollection(c.storage, taxonomy);
        const name = values.name!.trim();
        const parent = hierarchical ? Number(values.parent ?? 0) : 0;
        const same = (await terms.findByName(name)).find((t) => t.parent === parent);
        if (same) {
          throw new CalendarError('term_exists', hierarchical
            ? msg('A term with the name provided already exists with this parent.')
            : msg('A term with the name provided already exists in this taxonomy.'), { details: { termId: same.id } });
        }
        const id = await c.storage.sequences.next('term');
        const slug = await uniqueSlug(sanitizeSlug(values.slug ?? name) || String(id), async (s) => (await terms.getBySlug(s)) !== undefined);
        const record: TermRecord = { id, name, slug, description: values.description ?? '', parent, revision: c.storage.change, modifiedUtc: formatUtc(c.now) };
        await terms.insert(record);
        return record;
      });
      return render(call, term);
    },

    async update(input, ctx) {
      const call = await startCall(config, ctx);
      const term = await runWrite(call, async (c) => {
        const { values } = await parseArgs(args.update, input, c.args);
        requirePermission(c, canManageTerms(c, taxonomy));
        if (!hierarchical && values.parent !== undefined) {
          throw new CalendarError('taxonomy_not_hierarchical', msg('Cannot set parent term, taxonomy is not hierarchical.'));
        }
        const terms = termCollection(c.storage, taxonomy);
        const current = (await terms.get(values.id!))!;
        await checked(c, current);
        let slug = current.slug;
        if (values.slug !== undefined) {
          slug = sanitizeSlug(values.slug) || current.slug;
          const owner = await terms.getBySlug(slug);
          if (owner && owner.id !== current.id) {
            throw new CalendarError('duplicate_term_slug', msg('The slug \u201c{slug}\u201d is already in use by another term.', { slug }), { details: { slug } });
          }
        }
        let parent = current.parent;
        if (hierarchical && values.parent !== undefined) {
          parent = Number(values.parent);
          const all = await terms.list({ hideEmpty: false, countStatuses: [], sort: [{ field: 'id', direction: 'asc' }] });
          if (withDescendants(all.items.map((t) => t.term), [current.id]).includes(parent)) throw invalidParam('parent');
        }
        const record: TermRecord = {
          ...current,
          name: values.name !== undefined ? values.name.trim() : current.name,
          description: values.description ?? current.description,
          slug,
          parent,
          revision: c.storage.change,
          modifiedUtc: formatUtc(c.now),
        };
        await terms.replace(record);
        return record;
      });
      return render(call, term);
    },

    async delete(input, ctx) {
      const call = await startCall(config, ctx);
      return runWrite(call, async (c) => {
        const { values } = await parseArgs(args.delete, input, c.args);
        requirePermission(c, canManageTerms(c, taxonomy));
        const terms = termCollection(c.storage, taxonomy);
        const term = (await terms.get(values.id!))!;
        await checked(c, term);
        const body = await render(c, term, false);
        if (hierarchical) {
          // Children move up to the deleted category's parent, as WordPress does.
          const children = await terms.list({ parent: term.id, hideEmpty: false, countStatuses: [], sort: [{ field: 'id', direction: 'asc' }] });
          for (const { term: child } of children.items) await terms.replace({ ...child, parent: term.parent, revision: c.storage.change, modifiedUtc: formatUtc(c.now) });
        }
        await c.storage.events.unlink(taxonomy, term.id, c.storage.change);
        await terms.delete(term.id);
        return body;
      });
    },
  };
}
