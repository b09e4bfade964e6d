// Arguments of the category and tag routes (interface.md; behaviour reference: "GET /categories and
// GET /tags", "Terms: create, update, delete").
import { INVALID_PARAMETER } from '../domain/errors';
import * as v from 'valibot';
import { arg, type ArgContext, type ArgSpecs } from '../kernel/args';
import { anyString, MAX_TERM_NAME, nonEmptyString, positiveInt, termRefList, textOfLength, withRule, wpBoolean } from '../kernel/wire-schemas';
import { msg } from '../domain/messages';
import type { Taxonomy } from '../model/records';
import { eventIdArg } from '../shared/event-ref-args';
import { modifiedArgs, pageArg, perPageArg } from '../shared/shared-args';
import { findTerms, termCollection } from './term-refs';

const noun = (taxonomy: Taxonomy) => (taxonomy === 'category' ? 'category' : 'tag');

/** The id of an existing term of the taxonomy, or 400. */
export function termIdArg(taxonomy: Taxonomy) {
  return arg({
    schema: positiveInt,
    required: true,
    description: `The ${noun(taxonomy)} ID`,
    type: 'integer',
    validate: async (id, ctx) => ((await termCollection(ctx.storage, taxonomy).get(id)) ? undefined : INVALID_PARAMETER),
  });
}

/** A list of terms that must all exist (by id, slug or name). */
function existingTerms(taxonomy: Taxonomy, description: string) {
  return arg({
    schema: termRefList,
    description,
    validate: async (refs: string[], ctx: ArgContext) => {
      const found = await findTerms(termCollection(ctx.storage, taxonomy), refs);
      return refs.every((ref) => found.has(ref)) ? undefined : INVALID_PARAMETER;
    },
  });
}

/** A category parent: 0 (top level) or an existing category. */
const parentArg = arg({
  schema: withRule(v.union([v.literal(0), v.literal('0'), positiveInt]), msg('{param} must be 0 (no parent) or the ID of a category.')),
  description: 'The parent category ID (0 for top level)',
  type: 'integer',
  validate: async (id, ctx) => (Number(id) === 0 || (await ctx.storage.categories.get(Number(id))) ? undefined : INVALID_PARAMETER),
});

/** `GET /categories`, `GET /tags`. */
export function termListArgs(taxonomy: Taxonomy) {
  return {
    page: pageArg,
    per_page: perPageArg,
    search: arg({ schema: nonEmptyString, description: 'Terms whose name or slug contains the text', type: 'string' }),
    exclude: existingTerms(taxonomy, 'Leave out these terms (ids or slugs)'),
    include: existingTerms(taxonomy, 'Only these terms (ids or slugs)'),
    order: arg({ schema: nonEmptyString, description: 'asc (default) or desc', type: 'string' }),
    orderby: arg({ schema: nonEmptyString, description: 'name (default), id, slug, count, description, parent or include', type: 'string' }),
    hide_empty: arg({ schema: wpBoolean, default: true, description: 'Hide terms no published event uses', type: 'boolean' }),
    ...(taxonomy === 'category' ? { parent: parentArg } : {}),
    post: arg({ ...eventIdArg, description: 'Only the terms of this event' }),
    event: arg({ ...eventIdArg, description: 'Only the terms of this event (alias of post; wins over it)' }),
    slug: arg({ schema: nonEmptyString, description: 'The term with this slug', type: 'string' }),
    ...modifiedArgs,
  } satisfies ArgSpecs;
}

/** Create (name required) and update (nothing required) of a term. */
export function termWriteArgs(taxonomy: Taxonomy, create: boolean) {
  return {
    name: arg({ schema: textOfLength(1, MAX_TERM_NAME), required: create, description: `The ${noun(taxonomy)} name (at most ${MAX_TERM_NAME} characters)`, type: 'string' }),
    description: arg({ schema: anyString, description: `The ${noun(taxonomy)} description`, type: 'string' }),
    slug: arg({ schema: nonEmptyString, description: `The ${noun(taxonomy)} slug`, type: 'string' }),
    parent: taxonomy === 'category' ? parentArg : arg({ schema: v.pipe(v.unknown(), v.metadata({ not: {} })), description: 'Not supported: tags have no parent' }),
  } satisfies ArgSpecs;
}

function termArgSets(taxonomy: Taxonomy) {
  const id = { id: termIdArg(taxonomy) };
  return {
    list: termListArgs(taxonomy),
    create: termWriteArgs(taxonomy, true),
    get: id,
    update: { ...id, ...termWriteArgs(taxonomy, false) },
    delete: id,
  };
}

/** The arguments of each category and tag operation: what it parses, and what @evcal/http documents. */
export const TERM_ARGS = { category: termArgSets('category'), tag: termArgSets('tag') };
