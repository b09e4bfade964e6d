// The reference's parameter parsers (behaviour reference: "Input parsing rules") as valibot
// schemas. Each accepts what a client may send (JSON values, or the strings of a query or form
// body) and outputs the normalised value. The input side of each schema is what /doc documents:
// every bound the server enforces is an action JSON Schema states (integer, minimum, maximum,
// pattern, enum). Where the accepted language is beyond JSON Schema (strtotime's dates, the
// zone database's names, the URL parser), `v.metadata` documents the common forms, the check
// enforces the rule, and the field's text says what else is read. Each schema carries the
// rule a refused value broke (`ruleOf`), which the 400 names.
import * as v from 'valibot';
import { msg, type Message } from '../domain/messages';
import { parsePhpTime } from '../time/php-time';
import { isValidZoneName } from '../time/zone';

const rules = new WeakMap<object, Message>();

/**
 * The message of a check that finds a value of another type than the argument's, though of a
 * JSON type the schema takes: text that is no number at all for a numeric argument. Such a
 * value gets the reference's "… is not of type …"; one of the right type breaking a bound
 * gets the rule.
 */
export const NOT_OF_TYPE = 'evcal:not-of-type';

/** Whether a text is a number as PHP's is_numeric reads it (blanks around allowed). */
export function isNumericText(x: string): boolean {
  return /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(x);
}

/**
 * Registers the rule a value this schema refuses broke, for the 400's message: `{param}` is
 * the argument's name and `{value}` the value sent.
 */
export function withRule<S extends object>(schema: S, rule: Message): S {
  rules.set(schema, rule);
  return schema;
}

/** The rule a schema enforces (`withRule`), if one was registered. */
export function ruleOf(schema: object): Message | undefined {
  return rules.get(schema);
}

/** 8.4(a) WordPress `type: boolean`: true/false, 1/0, and those words or digits in any case. */
export const wpBoolean = v.pipe(
  v.union([
    v.boolean(),
    v.picklist([0, 1]),
    // Any other text is no boolean: the reference's "… is not of type boolean.".
    v.pipe(v.string(), v.regex(/^(?:[tT][rR][uU][eE]|[fF][aA][lL][sS][eE]|1|0)$/, NOT_OF_TYPE)),
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

/**
 * A positive integer written as text, in the forms JSON Schema can state ("3", "+3", " 3",
 * "3.0", "010"); PHP's numeric strings with an exponent that name one ("1e1") are also read.
 */
export const POSITIVE_INT_TEXT = '\\s*\\+?0*[1-9]\\d*(?:\\.0*)?\\s*';
const POSITIVE_INT_NUMBER = v.pipe(v.number(), v.integer(), v.minValue(1));

/** 8.5 A positive integer: numeric, integral and > 0 ("3", "3.0", "+3", " 3", "1e1", "010"). */
export const positiveInt = withRule(v.pipe(
  v.union([
    POSITIVE_INT_NUMBER,
    v.pipe(v.string(), v.metadata({ pattern: `^${POSITIVE_INT_TEXT}$` }), v.check(isNumericText, NOT_OF_TYPE), v.check((x) => toPositiveInt(x) !== undefined)),
  ]),
  v.metadata({ description: 'A whole number of at least 1; as text, PHP\'s numeric forms with an exponent (1e1) are read too.' }),
  v.transform((x): number => toPositiveInt(x)!),
), msg('{param} must be a whole number of at least 1.'));

/** A non-empty string. */
export const nonEmptyString = withRule(v.pipe(v.string(), v.minLength(1)), msg('{param} must not be empty.'));

/** A text of `min` to `max` characters. */
export function textOfLength(min: number, max: number) {
  return withRule(v.pipe(v.string(), v.minLength(min), v.maxLength(max)),
    min > 0 ? msg('{param} must be {min} to {max} characters long.', { min, max }) : msg('{param} must be at most {max} characters long.', { max }));
}

/** A string; "" allowed. */
export const anyString = v.string();

/** Decimal degrees up to 90 (latitudes) or 180 (longitudes), written as text: no exponent, no hexadecimal. */
const DEGREES_TEXT = {
  90: '\\s*[+-]?0*(?:[1-8]?\\d(?:\\.\\d+)?|90(?:\\.0+)?)\\s*',
  180: '\\s*[+-]?0*(?:(?:1[0-7]\\d|[1-9]?\\d)(?:\\.\\d+)?|180(?:\\.0+)?)\\s*',
} as const;

/** A latitude (`max` 90) or longitude (180) in decimal degrees: a number, or its text, between -max and max. */
export function degrees(max: 90 | 180) {
  return withRule(v.pipe(
    v.union([
      v.pipe(v.number(), v.minValue(-max), v.maxValue(max)),
      v.pipe(v.string(), v.check(isNumericText, NOT_OF_TYPE), v.regex(new RegExp(`^${DEGREES_TEXT[max]}$`))),
    ]),
    v.transform(Number),
  ), max === 90 ? msg('{param} must be a number of degrees from -90 to 90.') : msg('{param} must be a number of degrees from -180 to 180.'));
}

/** The largest Unix timestamp (seconds) a time may be: that of +275760-09-13, the last instant JavaScript dates hold. */
export const MAX_TIMESTAMP = 8_640_000_000_000;

/**
 * The date forms /doc states: a date (YYYY-MM-DD, a day that exists in every year), with a
 * time (HH:MM or HH:MM:SS, with fractions of a second) after a blank or `T`, and an offset
 * (`Z`, `+02:00`, `+0200`). The years 1969 and 1970 are left out: a time there may be the
 * instant 0, which the reference reads as no time at all.
 */
export const DATE_TEXT = '\\s*(?!19(?:69|70))\\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)'
  + '(?:[T ](?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,6})?)?(?:Z|[+-](?:0\\d|1[0-3]):?[0-5]\\d)?)?\\s*';

/**
 * 8.1 "Is a time": a number (Unix timestamp, seconds) or a string PHP's strtotime() reads. Left
 * as sent: how it is read depends on the context (zone, strict mode), decided by the operation.
 */
export const timeValue = withRule(v.pipe(
  v.union([
    v.pipe(v.string(), v.minLength(1), v.metadata({ pattern: `^${DATE_TEXT}$` })),
    // The instant 0 (any time in the second after it) is no time, as for the reference.
    v.pipe(v.number(), v.minValue(-MAX_TIMESTAMP), v.maxValue(MAX_TIMESTAMP), v.metadata({ not: { minimum: 0, maximum: 1, exclusiveMaximum: true } })),
  ]),
  v.metadata({ description: 'A date and time: YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601 (the forms the pattern states), a Unix timestamp in seconds, or any other text PHP\'s strtotime() reads, such as "tomorrow 8pm" or "next monday".' }),
  v.check((x) => parsePhpTime(x, { now: Date.now(), timeZone: 'UTC' }) !== undefined),
), msg('{param} is not a date: send YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or an ISO 8601 date and time, a Unix timestamp, or a date strtotime() reads, such as "tomorrow 8pm".'));

/** The zone names /doc lists: the IANA database's canonical names, as this runtime knows them. */
const ZONE_NAMES = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])].filter(isValidZoneName).sort();

/** The UTC offsets /doc states: `UTC+2`, `UTC-5.5`, `UTC+05:30`, `+02:00`, `-0530`, `+2`, up to 13 hours. */
export const ZONE_OFFSET_TEXT = '\\s*(?:UTC[+-](?:0?\\d|1[0-3])(?:\\.5|:[0-5]\\d)?|[+-](?:0?\\d|1[0-3])(?::?[0-5]\\d)?)\\s*';

/**
 * Empty, or a zone the reference accepts: an IANA name (/doc lists the canonical ones; links
 * such as `US/Eastern`, abbreviations such as `EST` and any case are read too), a UTC offset.
 */
export const zoneOrEmpty = withRule(v.pipe(
  v.string(),
  v.metadata({
    anyOf: [{ type: 'string', enum: ['', ...ZONE_NAMES] }, { type: 'string', pattern: `^${ZONE_OFFSET_TEXT}$` }, { type: 'string', pattern: '^\\s*$' }],
    description: 'An IANA time zone name (links such as US/Eastern and abbreviations such as EST are read too, in any case), a UTC offset (UTC+2, UTC-5.5, +02:00), or empty.',
  }),
  v.check((x) => x.trim() === '' || isValidZoneName(x.trim())),
), msg('{value} is not a known time zone: send an IANA name such as Europe/Rome, or a UTC offset such as UTC+2 or +02:00.'));

/** Schemas a document states once and refers to (they are long): /doc's components, by name. */
export const SHARED_SCHEMAS = { TimeZone: zoneOrEmpty } as const;

/** Schemes WordPress lets through `esc_url_raw`; anything else (javascript:, data:) is refused. */
const URL_SCHEMES = /^(https?|ftps?|mailto|news|irc|gopher|nntp|feed|telnet|mms|rtsp|sms|svn|tel|fax|xmpp|webcal|urn):/i;

/** Whether a string is an absolute URL with a scheme WordPress allows. */
export function isAllowedUrl(s: string): boolean {
  return URL_SCHEMES.test(s) && URL.canParse(s) && !/\s/.test(s);
}

/** The URLs /doc states: blank, or a scheme WordPress allows and no blank inside (what the URL parser reads besides is its own). */
const URL_TEXT = `^\\s*(?:(?:${URL_SCHEMES.source.slice(2, -2).split('|').map(caseless).join('|')}):\\S+)?\\s*$`;

/** Empty, or an absolute URL with an allowed scheme. */
export const urlOrEmpty = withRule(
  v.pipe(v.string(), v.metadata({
    pattern: URL_TEXT,
    description: 'Empty, or an absolute URL with a scheme WordPress allows (http, https, ftp, mailto, tel, …), as the WHATWG URL parser reads it.',
  }), v.check((x) => x.trim() === '' || isAllowedUrl(x.trim()))),
  msg('{param} must be empty or an absolute URL (http, https, mailto, tel, …).'),
);

/**
 * 8.6 A list: an array, or a comma-separated string (blanks around commas ignored, `%2C`
 * also separates). Empty items dropped.
 */
const listInput = v.union([v.string(), v.number(), v.array(v.union([v.string(), v.number()]))]);

/** A list of strings (terms by id, slug or name; statuses). */
export const stringList = v.pipe(listInput, v.transform(splitList), v.array(v.string()));

/** How a list's items are written (listOf). */
interface ListForm<T> {
  /** An item of a text list, as a regular expression's source without anchors. */
  readonly item: string;
  /** An item of an array (not split: it may hold what separates a text's items); default `item`. */
  readonly arrayItem?: string;
  /** The numbers a list may be, or be made of; none when a number is never an item. */
  readonly numbers?: v.GenericSchema<number>;
  /** The check of each item, once split. */
  readonly items: v.GenericSchema<string, T>;
  /** At least one item (blank items do not count). */
  readonly nonEmpty?: boolean;
}

/**
 * A list as /doc states it: a number (when `numbers` says which), a comma-separated string of
 * items (blank ones dropped) or an array of them. The server splits it and checks every item.
 */
export function listOf<T>(form: ListForm<T>): v.GenericSchema<ListInput, T[]> {
  const { item, arrayItem = item, numbers, items, nonEmpty = false } = form;
  const notBlank = nonEmpty ? `(?!(?:\\s|${SEPARATOR})*$)` : '';
  const text = v.pipe(v.string(), v.metadata({ pattern: `^${notBlank}(?:\\s*(?:${item})?\\s*${SEPARATOR})*\\s*(?:${item})?\\s*$` }));
  // An array of a non-empty list offers no blank item: the document cannot say "one at least is not blank".
  const one = v.pipe(v.string(), v.metadata({ pattern: nonEmpty ? `^\\s*(?:${arrayItem})\\s*$` : `^\\s*(?:${arrayItem})?\\s*$` }));
  const array = v.array(v.union([one, ...(numbers ? [numbers] : [])]) as v.GenericSchema<string | number>);
  const input = v.union([text, ...(numbers ? [numbers] : []), nonEmpty ? v.pipe(array, v.minLength(1)) : array]) as v.GenericSchema<ListInput>;
  const parsed = v.pipe(input, v.transform(splitList), v.array(items));
  return nonEmpty ? v.pipe(parsed, v.minLength(1)) : parsed;
}

/** What a list may be sent as: a number, a text, or an array of those. */
type ListInput = string | number | (string | number)[];

/** What separates the items of a list written as text: a comma, or `%2C` (decoded once more). */
const SEPARATOR = '(?:,|%2[cC])';

/** A list of positive integers (ids). */
export const idList = withRule(
  listOf({ item: POSITIVE_INT_TEXT, numbers: POSITIVE_INT_NUMBER, items: positiveInt as v.GenericSchema<string, number> }),
  msg('{param} must be a list of whole numbers of at least 1 (an array, or separated by commas).'),
);

/** The longest term name (WordPress's column). */
export const MAX_TERM_NAME = 200;

/** A term by id, slug or name in a list written as text: no comma, no `%2C`, at most MAX_TERM_NAME characters once trimmed. */
const TERM_REF_TEXT = (() => {
  const edge = '(?:[^\\s,%]|%(?!2[cC]))';
  const inner = '(?:[^,%]|%(?!2[cC]))';
  return `${edge}(?:${inner}{0,${MAX_TERM_NAME - 2}}${edge})?`;
})();

/** A list of terms by id, slug or name. */
export const termRefList = withRule(
  listOf({
    item: TERM_REF_TEXT, arrayItem: `\\S(?:[\\s\\S]{0,${MAX_TERM_NAME - 2}}\\S)?`, numbers: v.number(), items: v.pipe(v.string(), v.maxLength(MAX_TERM_NAME)),
  }),
  msg('{param} must be a list of term ids, slugs or names of at most 200 characters (an array, or separated by commas).'),
);

/** A list of one of `values` each (statuses, event types); `nonEmpty`: at least one. */
export function enumList<const T extends string>(values: readonly T[], nonEmpty = false) {
  return withRule(
    listOf({ item: `(?:${values.map(escapeRegExp).join('|')})`, items: v.picklist(values), nonEmpty }),
    msg('{param} must be a list of these values (an array, or separated by commas): {values}.', { values: values.join(', ') }),
  );
}

/** One of `values`. */
export function oneOf<const T extends string>(values: readonly T[]) {
  return withRule(v.picklist(values), msg('{param} must be one of: {values}.', { values: values.join(', ') }));
}

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
  else if (typeof x === 'string' && isNumericText(x)) n = Number(x);
  else return undefined;
  return Number.isFinite(n) && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `text` as a regular expression matching it literally. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regular expression's source matching `word` in any case (JSON Schema patterns take no flags). */
function caseless(word: string): string {
  return [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join('');
}

/** Splits a list value (8.6) into its non-empty items, as strings. */
export function splitList(x: string | number | (string | number)[]): string[] {
  const items = Array.isArray(x) ? x.map(String) : String(x).replace(/%2c/gi, ',').split(',');
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}
