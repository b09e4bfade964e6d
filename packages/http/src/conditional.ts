// Validators on the wire (RFC 9110 §8.8.3, §13): entity tags, conditional GETs answered 304,
// and the preconditions of writes. Core names the state a representation was built from (its
// validator); an entity tag adds the form of the bytes: `"<validator>.<variant>"`, where the
// variant covers the language, the addresses, `_fields` and the rest of the request that
// shapes the body. Single resources get strong tags (the same tag means the same bytes); lists
// get weak ones (their validator counts every write to the storage, so a tag may change
// without the bytes changing, never the other way round).
import { type Preconditions } from '@evcal/core';
import { hashText } from '@evcal/core/binding';
import { boundedMemo } from './memo';

/** A parsed `If-Match` / `If-None-Match` value: `*`, or the listed tags. */
export type EntityTags = '*' | readonly { readonly weak: boolean; readonly opaque: string }[];

/** The entity tag of a representation: core's validator, and the variant of the bytes. */
export function entityTag(validator: string, variant: string, weak: boolean): string {
  return `${weak ? 'W/' : ''}"${validator}.${variant}"`;
}

/** A short digest of what shapes the bytes besides the stored state. */
export function variantOf(parts: readonly unknown[]): string {
  const text = JSON.stringify(parts);
  return digests(text, () => hashText(text));
}

/** Most requests repeat the variant of one before them. */
const digests = boundedMemo<string>(4096);

/** Parses an `If-Match` / `If-None-Match` header; undefined when absent or malformed (then ignored). */
export function parseEntityTags(header: string | null): EntityTags | undefined {
  if (header === null) return undefined;
  let rest = header.trim();
  if (rest === '*') return '*';
  const tags: { weak: boolean; opaque: string }[] = [];
  // #entity-tag: [ "W/" ] DQUOTE *etagc DQUOTE, comma-separated (etagc has no DQUOTE).
  while (rest.length > 0) {
    const m = /^(W\/)?"([^"]*)"\s*(?:,\s*|$)/.exec(rest);
    if (!m) return undefined;
    tags.push({ weak: m[1] !== undefined, opaque: m[2]! });
    rest = rest.slice(m[0].length);
  }
  return tags.length > 0 ? tags : undefined;
}

/** `If-None-Match` on a read: weak comparison, so a tag matches with or without `W/`. */
export function noneMatch(header: EntityTags | undefined, tag: string): boolean {
  if (header === undefined) return true;
  if (header === '*') return false;
  const opaque = opaqueOf(tag);
  return !header.some((t) => t.opaque === opaque);
}

/**
 * The preconditions of a write, as core's validators. `If-Match` compares strongly (weak tags
 * never match); any variant of the current state matches, since a write changes the record,
 * not one of its representations. `If-None-Match` on a write compares weakly (RFC 9110 §13.1.2).
 */
export function writePreconditions(ifMatch: EntityTags | undefined, ifNoneMatch: EntityTags | undefined): Preconditions | undefined {
  if (ifMatch === undefined && ifNoneMatch === undefined) return undefined;
  const validators = (tags: EntityTags, strong: boolean) =>
    tags === '*' ? '*' as const : tags.filter((t) => !strong || !t.weak).map((t) => validatorPart(t.opaque));
  return {
    ...(ifMatch !== undefined ? { ifMatch: validators(ifMatch, true) } : {}),
    ...(ifNoneMatch !== undefined ? { ifNoneMatch: validators(ifNoneMatch, false) } : {}),
  };
}

// ---- helpers ----

function opaqueOf(tag: string): string {
  return tag.slice(tag.indexOf('"') + 1, -1);
}

/** The validator inside an opaque tag of ours (before the last dot); a foreign tag stays as is and matches nothing. */
function validatorPart(opaque: string): string {
  const dot = opaque.lastIndexOf('.');
  return dot > 0 ? opaque.slice(0, dot) : opaque;
}
