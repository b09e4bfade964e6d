// The one place where the API fuzzer (api-fuzz.test.ts) lets the server and /doc differ, each
// difference with its reason. Two kinds only: the reference's documented behaviour that a
// schema cannot express (rules on stored records, on two fields at once, on configuration),
// and inputs whose accepted language JSON Schema cannot state (strtotime's dates, the zone
// database's names, what the URL parser reads, PHP's numeric texts), which the field's text
// describes. Anything else the fuzzer finds is a failure.
import { isValidZoneName, parsePhpTime } from '@evcal/core';

export interface Exception {
  readonly name: string;
  readonly reason: string;
}

/** A refused parameter of a request /doc allows: the operation, the parameter, the value sent and the message of its 400. */
export interface Refusal {
  readonly operation: string;
  readonly param: string;
  readonly value: unknown;
  readonly message: string;
}

/** The parameters that take a date (the date pattern of /doc): the date exceptions apply to these only. */
const DATE_PARAMS = new Set(['date', 'date_utc', 'start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after', 'modified_after', 'modified_before']);

/** Parameters that name stored records (by operation prefix and name). */
const REFERENCES: readonly (readonly [RegExp, readonly string[]])[] = [
  [/^events\.list$|^events\.feed$/, ['categories', 'tags', 'venue', 'organizer', 'post_parent']],
  [/^(venues|organizers)\.list$/, ['event']],
  [/^(categories|tags)\.list$/, ['include', 'exclude', 'post', 'event', 'parent']],
  [/^(events|venues|organizers)\./, ['id', 'slug', 'author', 'image', 'venue', 'organizer']],
  [/^(categories|tags)\./, ['id', 'parent']],
];

/** Refusals of requests the document allows, and why they are right. */
export const REFUSALS: readonly (Exception & { readonly applies: (r: Refusal) => boolean })[] = [
  {
    name: 'references to stored records',
    reason: 'A parameter naming a record (an id, slug or name of a venue, organizer, term, author, event or image) that does not exist is 400 rest_invalid_param: the reference validates references as arguments (behaviour §9.5). A schema states the form of an id, not which ids are stored.',
    applies: (r) => REFERENCES.some(([op, params]) => op.test(r.operation) && params.includes(r.param)),
  },
  {
    name: 'tickets',
    reason: 'ticketed=true is 400 event-tickets-not-active without Event Tickets (the reference): a calendar\'s configuration, not the schema, decides.',
    applies: (r) => r.param === 'ticketed',
  },
  {
    name: 'end before start',
    reason: 'An event ending before it starts is 400 naming end_date (a documented deviation, behaviour §10.4): a rule between two fields.',
    applies: (r) => r.param === 'end_date' && /end date/i.test(r.message),
  },
  {
    name: 'impossible dates in a stated form',
    reason: 'A date of a stated form that names no instant PHP accepts (a time in a zone\'s spring-forward gap is read, but the instant 0 is not a time) is refused: the pattern states forms, not the calendar.',
    applies: (r) => DATE_PARAMS.has(r.param) && typeof r.value === 'string' && parsePhpTime(r.value, { now: Date.now(), timeZone: 'UTC' }) === undefined,
  },
  {
    name: 'URLs the URL parser refuses',
    reason: 'A URL of a stated form (scheme, no blank) that the WHATWG URL parser cannot read is refused: the parser\'s grammar is not a JSON Schema pattern.',
    applies: (r) => typeof r.value === 'string' && /url|website/.test(r.param) && !URL.canParse(r.value.trim()),
  },
  {
    name: 'webhook secrets',
    reason: 'A secret of the stated form whose base64 does not decode to 24 to 64 bytes is refused: base64 lengths and padding are beyond a pattern.',
    applies: (r) => r.param === 'secret',
  },
  {
    name: 'series rules',
    reason: 'A recurrence is an RRULE (RFC 5545) or rule data: its grammar and the rule\'s own consistency (COUNT and UNTIL, a first occurrence) are described in the field\'s text.',
    applies: (r) => r.param === 'recurrence',
  },
  {
    name: 'scope of an event that is no occurrence',
    reason: 'scope (this, following, all) chooses what an update or delete of an occurrence of a series reaches; on an event that is not an occurrence, this and following are 400 naming scope: it depends on the stored event, not on the request.',
    applies: (r) => /^events\.(update|patch|delete)/.test(r.operation) && r.param === 'scope' && r.value !== 'all',
  },
  {
    name: 'terms taken',
    reason: 'A term name already used at that level (term_exists) or a slug another term has (duplicate_term_slug), and a category moved under its own descendant, are 400 as for the reference: they depend on the stored terms.',
    applies: (r) => /^(categories|tags)\.(create|update)/.test(r.operation) && ['name', 'slug', 'parent'].includes(r.param),
  },
];

/** Values the document forbids that the server accepts, and why that is right. */
export const ACCEPTANCES: readonly (Exception & { readonly applies: (param: string, value: unknown) => boolean })[] = [
  {
    name: 'free-form dates',
    reason: 'Dates are what PHP\'s strtotime() reads ("tomorrow 8pm", "next monday", month names, @timestamps, compact forms): /doc states the usual forms and says so in the field\'s text.',
    applies: (param, value) => DATE_PARAMS.has(param) && (typeof value === 'string' || typeof value === 'number') && parsePhpTime(value, { now: Date.now(), timeZone: 'UTC' }) !== undefined,
  },
  {
    name: 'zone names',
    reason: 'Zones are the names the zone database knows in any case, its links (US/Eastern) and abbreviations (EST), and offsets: /doc lists the canonical names and states the offsets\' forms, and says so in the text.',
    applies: (param, value) => param === 'timezone' && typeof value === 'string' && (value.trim() === '' || isValidZoneName(value.trim())),
  },
  {
    name: 'PHP numeric texts',
    reason: 'A whole number is also PHP numeric text with an exponent ("1e1" is 10): integral-ness of such texts is beyond a pattern; the schema\'s text says so.',
    applies: (_param, value) => typeof value === 'string' && /[eE]/.test(value) && value.split(',').every((item) => item.trim() === '' || Number.isInteger(Number(item.trim()))),
  },
];

/** How generation bends to rules a schema cannot state (the same reasons as above, applied before sending). */
export const GENERATION: readonly Exception[] = [
  { name: 'references to stored records', reason: 'Parameters naming records take existing ones most of the time (see REFUSALS), so that writes and reads are reached.' },
  { name: 'end before start', reason: 'start_date and end_date sent together are ordered (see REFUSALS).' },
  { name: 'inline venue and organizer data', reason: 'An event write\'s venue or organizer may be the data of a new one, checked by the rules of POST /venues and /organizers, which /doc documents there: the fuzzer sends ids and empties for them.' },
];
