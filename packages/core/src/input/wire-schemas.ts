// The reference's parameter parsers (behaviour reference: "Input parsing rules") as valibot
// schemas. Each accepts what a client may send (JSON values, or the strings of a query or form
// body) and outputs the normalised value. The input side of each schema is what /doc documents.
import * as v from 'valibot';
import { parsePhpTime } from '../time/php-time';
import { isValidZoneName } from '../time/zone';

/** 8.4(a) WordPress `type: boolean`: true/false, 1/0, and those words or digits in any case. */
export const wpBoolean = v.pipe(
  v.union([
    v.boolean(),
    v.picklist([0, 1]),
    v.pipe(v.string(), v.regex(/^(?:[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|1|0)$/)),
  ]),
  v.transform((x): boolean => x === true || x === 1 || (typeof x === 'string' && /^(true|1)$/i.test(x))),
);

/** 8.4(c) "truthy" (`tribe_is_truthy`): any value; 1/enable(d)/on/y/yes/true, non-zero numbers and `true` are true. */
export const truthy = v.pipe(
  v.union([v.boolean(), v.number(), v.string()]),
  v.transform((x): boolean => isTruthy(x)),
);

/** 8.4(b) `strict_dates`: a non-empty string other than "0"; 1/true/on/yes (any case) mean strict. */
export const strictDates = v.pipe(
  v.union([v.boolean(), v.pipe(v.string(), v.minLength(1), v.notValue('0'))]),
  v.transform((x): boolean => x === true || (typeof x === 'string' && /^(1|true|on|yes)$/i.test(x.trim()))),
);

/** 8.5 A positive integer: numeric, integral and > 0 ("3", "3.0", "+3", " 3", "1e1", "010"). */
export const positiveInt = v.pipe(
  v.union([v.number(), v.string()]),
  v.check((x) => toPositiveInt(x) !== undefined),
  v.transform((x): number => toPositiveInt(x)!),
);

/** A non-empty string. */
export const nonEmptyString = v.pipe(v.string(), v.minLength(1));

/** A string; "" allowed. */
export const anyString = v.string();

/**
 * 8.1 "Is a time": a number (Unix timestamp) or a string PHP's strtotime() reads. Left as
 * sent: how it is read depends on the context (zone, strict mode), decided by the operation.
 */
export const timeValue = v.pipe(
  v.union([v.pipe(v.string(), v.minLength(1)), v.number()]),
  v.check((x) => parsePhpTime(x, { now: Date.now(), timeZone: 'UTC' }) !== undefined),
);

/** Empty, or a zone the reference accepts (IANA name, abbreviation, offset, `UTC±N`). */
export const zoneOrEmpty = v.pipe(v.string(), v.check((x) => x.trim() === '' || isValidZoneName(x.trim())));

/** Schemes WordPress lets through `esc_url_raw`; anything else (javascript:, data:) is refused. */
const URL_SCHEMES = /^(https?|ftps?|mailto|news|irc|gopher|nntp|feed|telnet|mms|rtsp|sms|svn|tel|fax|xmpp|webcal|urn):/i;

/** Whether a string is an absolute URL with a scheme WordPress allows. */
export function isAllowedUrl(s: string): boolean {
  return URL_SCHEMES.test(s) && URL.canParse(s) && !/\s/.test(s);
}

/** Empty, or an absolute URL with an allowed scheme. */
export const urlOrEmpty = v.pipe(v.string(), v.check((x) => x.trim() === '' || isAllowedUrl(x.trim())));

/**
 * 8.6 A list: an array, or a comma-separated string (blanks around commas ignored, `%2C`
 * also separates). Empty items dropped.
 */
const listInput = v.union([v.string(), v.number(), v.array(v.union([v.string(), v.number()]))]);

/** A list of strings (terms by id, slug or name; statuses). */
export const stringList = v.pipe(listInput, v.transform(splitList), v.array(v.string()));

/** A list of positive integers (ids). */
export const idList = v.pipe(listInput, v.transform(splitList), v.array(positiveInt));

/** The longest term name (WordPress's column). */
export const MAX_TERM_NAME = 200;

/** A list of terms by id, slug or name. */
export const termRefList = v.pipe(listInput, v.transform(splitList), v.array(v.pipe(v.string(), v.maxLength(MAX_TERM_NAME))));

// ---- helpers (exported for the operations that parse nested values) ----

/** 8.4(c) tribe_is_truthy. */
export function isTruthy(x: unknown): boolean {
  if (typeof x === 'boolean') return x;
  if (typeof x === 'number') return x !== 0;
  if (typeof x === 'string') return /^(1|enable|enabled|on|y|yes|true)$/i.test(x.trim());
  return false;
}

/** PHP `is_numeric` followed by the positive-integer rule; undefined when not one. */
export function toPositiveInt(x: unknown): number | undefined {
  let n: number;
  if (typeof x === 'number') n = x;
  else if (typeof x === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(x)) n = Number(x);
  else return undefined;
  return Number.isFinite(n) && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Splits a list value (8.6) into its non-empty items, as strings. */
export function splitList(x: string | number | (string | number)[]): string[] {
  const items = Array.isArray(x) ? x.map(String) : String(x).replace(/%2c/gi, ',').split(',');
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}
