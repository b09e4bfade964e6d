// Argument declarations used by several resources: authors, statuses, images, paging,
// passwords, and the validators they need.
import { INVALID_PARAMETER } from '../domain/errors';
import * as v from 'valibot';
import { arg, type ArgContext } from '../kernel/args';
import { oneOf, positiveInt, timeValue } from '../kernel/wire-schemas';
import { WRITABLE_STATUSES, type ImageRecord } from '../model/records';
import type { InstantRange } from '../query/query-types';
import { readingValidity, strictInstant } from '../time/interpret';
import { ALWAYS, narrowed, type Validity } from '../time/validity';
import type { Call } from '../kernel/call';

export const authorArg = arg({
  schema: positiveInt,
  description: 'The ID of the author',
  validate: async (id, ctx) => ((await ctx.config.users.exists(id, ctx.storage)) ? undefined : INVALID_PARAMETER),
});

export const dateArg = (description: string) => arg({ schema: timeValue, description });

export const writeStatusArg = arg({
  schema: oneOf(WRITABLE_STATUSES),
  description: 'The post status: publish, future, draft, pending or private',
});

/** An image by attachment id or URL; "" means none (venues and organizers). */
export const imageArg = arg({
  schema: v.union([v.string(), v.number()]),
  description: 'The ID or URL of the featured image',
  validate: async (ref, ctx) => {
    if (ref === '') return undefined;
    return (await resolveImage(ref, ctx)) ? undefined : INVALID_PARAMETER;
  },
});

export const pageArg = arg({ schema: positiveInt, default: 1, description: 'The archive page to return', type: 'integer' });

export const perPageArg = arg({
  schema: positiveInt,
  default: (ctx: ArgContext) => ctx.config.defaultPerPage,
  description: 'The number of items to return per page',
  type: 'integer',
});

/** `modified_after` and `modified_before` of the list routes: bounds on the last modification, exclusive. */
export const modifiedArgs = {
  modified_after: arg({ schema: timeValue, description: 'Only items last modified after this instant (a naive value is in the site time zone)' }),
  modified_before: arg({ schema: timeValue, description: 'Only items last modified before this instant (a naive value is in the site time zone)' }),
};
export const MODIFIED_PARAMS = ['modified_after', 'modified_before'] as const;

/** How long the reading of `modified_after` / `modified_before` holds (validity.ts). */
export function modifiedValidity(call: Call, values: { modified_after?: unknown; modified_before?: unknown }): Validity {
  let validity = ALWAYS;
  for (const value of [values.modified_after, values.modified_before]) {
    if (value !== undefined) validity = narrowed(validity, readingValidity(value, call.config.zone, call.now));
  }
  return validity;
}

/** The query bounds of `modified_after` / `modified_before`, when either was given. */
export function modifiedRange(call: Call, values: { modified_after?: unknown; modified_before?: unknown }): { modified?: InstantRange } {
  const at = (value: unknown) => (value === undefined ? undefined : strictInstant(value, call.config.zone, call.now));
  const gt = at(values.modified_after);
  const lt = at(values.modified_before);
  if (gt === undefined && lt === undefined) return {};
  return { modified: { ...(gt !== undefined ? { gt } : {}), ...(lt !== undefined ? { lt } : {}) } };
}

export const passwordArg = arg({ schema: v.string(), description: 'The password of a password-protected item' });

export const contextArg = arg({ schema: oneOf(['view', 'edit', 'embed']), description: 'The scope of the request: view, edit or embed' });

/**
 * The image an `image` value names, through the calendar's image provider. URLs need the
 * upload capability (behaviour reference: "Image"). Resolved once per call.
 */
export async function resolveImage(ref: string | number, ctx: ArgContext): Promise<ImageRecord | undefined> {
  const key = `image:${typeof ref}:${ref}`;
  if (ctx.memo.images.has(key)) return ctx.memo.images.get(key);
  let image: ImageRecord | undefined;
  const numeric = typeof ref === 'number' || /^\d+$/.test(ref.trim());
  if (numeric) image = await ctx.config.images.resolve(Number(ref), ctx.permissions.principal);
  else if (ctx.permissions.can('upload_files')) image = await ctx.config.images.resolve(ref.trim(), ctx.permissions.principal);
  ctx.memo.images.set(key, image);
  return image;
}
