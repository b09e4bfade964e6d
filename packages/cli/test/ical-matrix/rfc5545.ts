// RFC 5545's grammar for the content lines a feed of evcal carries (and RFC 7986's NAME and
// REFRESH-INTERVAL): folding at 75 octets, the content line (name, parameters, value), each
// property's value type, and what a recurrence's parts must agree with (an UNTIL of DTSTART's
// type, in UTC when DTSTART has a zone). A line of a property not listed here is a problem too:
// every property the writer emits must be checked.

const DATE = /^(\d{4})(\d{2})(\d{2})$/;
const DATE_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;
const WEEKDAY = '(?:SU|MO|TU|WE|TH|FR|SA)';
const INT = (min: number, max: number, signed = false) => (v: string) => {
  const m = (signed ? /^[+-]?\d{1,3}$/ : /^\d{1,3}$/).exec(v);
  const n = Math.abs(Number(v));
  return m !== null && n >= min && n <= max;
};
const RECUR_PARTS: Record<string, (v: string) => boolean> = {
  FREQ: (v) => /^(SECONDLY|MINUTELY|HOURLY|DAILY|WEEKLY|MONTHLY|YEARLY)$/.test(v),
  UNTIL: (v) => isDate(v) || isDateTime(v),
  COUNT: (v) => /^\d+$/.test(v),
  INTERVAL: (v) => /^[1-9]\d*$/.test(v),
  BYSECOND: list(INT(0, 60)),
  BYMINUTE: list(INT(0, 59)),
  BYHOUR: list(INT(0, 23)),
  BYDAY: list((v) => new RegExp(`^(?:[+-]?(?:[1-9]|[1-4]\\d|5[0-3]))?${WEEKDAY}$`).test(v)),
  BYMONTHDAY: list(INT(1, 31, true)),
  BYYEARDAY: list(INT(1, 366, true)),
  BYWEEKNO: list(INT(1, 53, true)),
  BYMONTH: list(INT(1, 12)),
  BYSETPOS: list(INT(1, 366, true)),
  WKST: (v) => new RegExp(`^${WEEKDAY}$`).test(v),
};

type Check = (value: string, params: ReadonlyMap<string, string>) => string | undefined;

const text: Check = (v) => (/\\[^\\;,nN]|\\$/.test(v) ? 'a backslash that escapes nothing' : /(?<!\\)[;,]/.test(v) ? 'an unescaped ; or , in TEXT' : undefined);
const textList: Check = (v) => (/\\[^\\;,nN]|\\$/.test(v) ? 'a backslash that escapes nothing' : /(?<!\\);/.test(v) ? 'an unescaped ; in TEXT' : undefined);
const utc: Check = (v) => (isDateTime(v) && v.endsWith('Z') ? undefined : 'not a DATE-TIME in UTC');
const when: Check = (v, p) => {
  const values = v.split(',');
  if (p.get('VALUE') === 'DATE') return values.every(isDate) && !p.has('TZID') ? undefined : 'not a list of DATE values (and no TZID)';
  if (p.has('VALUE') && p.get('VALUE') !== 'DATE-TIME') return `VALUE=${p.get('VALUE')} is not written by evcal`;
  if (!values.every(isDateTime)) return 'not a DATE-TIME';
  if (p.has('TZID') && values.some((x) => x.endsWith('Z'))) return 'a UTC time with a TZID';
  return undefined;
};
const single = (check: Check): Check => (v, p) => (v.includes(',') ? 'one value only' : check(v, p));
const recur: Check = (v) => {
  const seen = new Set<string>();
  for (const part of v.split(';')) {
    const [name, value, extra] = part.split('=');
    if (!name || value === undefined || extra !== undefined) return `"${part}" is not a recur-rule-part`;
    if (seen.has(name)) return `${name} twice`;
    seen.add(name);
    const ok = RECUR_PARTS[name];
    if (!ok) return `${name} is not a recur-rule-part`;
    if (!ok(value)) return `${name}=${value} is not valid`;
  }
  if (!seen.has('FREQ')) return 'no FREQ';
  if (seen.has('COUNT') && seen.has('UNTIL')) return 'COUNT and UNTIL';
  return undefined;
};
const PROPERTIES: Record<string, Check> = {
  VERSION: (v) => (v === '2.0' ? undefined : 'not 2.0'),
  PRODID: text,
  CALSCALE: (v) => (v === 'GREGORIAN' ? undefined : 'not GREGORIAN'),
  METHOD: (v) => (/^[A-Z-]+$/.test(v) ? undefined : 'not a method'),
  NAME: text,
  'REFRESH-INTERVAL': (v, p) => (p.get('VALUE') === 'DURATION' && isDuration(v) ? undefined : 'not VALUE=DURATION and a duration'),
  UID: text,
  SEQUENCE: (v) => (/^\d+$/.test(v) ? undefined : 'not an integer'),
  DTSTAMP: utc,
  CREATED: utc,
  'LAST-MODIFIED': utc,
  DTSTART: single(when),
  DTEND: single(when),
  'RECURRENCE-ID': single(when),
  RRULE: recur,
  RDATE: when,
  EXDATE: when,
  SUMMARY: text,
  DESCRIPTION: text,
  LOCATION: text,
  CATEGORIES: textList,
  GEO: (v) => (/^[+-]?\d+(\.\d+)?;[+-]?\d+(\.\d+)?$/.test(v) ? undefined : 'not float;float'),
  ORGANIZER: (v) => (/^mailto:[^\s]+@[^\s]+$/i.test(v) ? undefined : 'not a mailto: address'),
  URL: (v) => (/^[a-z][a-z0-9+.-]*:\S+$/i.test(v) ? undefined : 'not a URI'),
  STATUS: (v) => (/^(TENTATIVE|CONFIRMED|CANCELLED)$/.test(v) ? undefined : 'not a VEVENT status'),
  TRANSP: (v) => (/^(OPAQUE|TRANSPARENT)$/.test(v) ? undefined : 'not OPAQUE or TRANSPARENT'),
  TZID: text,
  TZURL: (v) => (/^[a-z][a-z0-9+.-]*:\S+$/i.test(v) ? undefined : 'not a URI'),
  TZNAME: text,
  TZOFFSETFROM: (v) => (/^[+-]\d{4}(\d{2})?$/.test(v) && v !== '-0000' ? undefined : 'not a UTC offset'),
  TZOFFSETTO: (v) => (/^[+-]\d{4}(\d{2})?$/.test(v) && v !== '-0000' ? undefined : 'not a UTC offset'),
};
const COMPONENTS = new Set(['VCALENDAR', 'VEVENT', 'VTIMEZONE', 'STANDARD', 'DAYLIGHT']);

/** The grammar problems of an iCalendar text, each as "line N: …"; none for a valid one. */
export function grammarProblems(ics: string): string[] {
  const problems: string[] = [];
  if (!ics.endsWith('\r\n')) problems.push('the text does not end with CRLF');
  const physical = ics.split('\r\n').slice(0, -1);
  const logical: { line: number; text: string }[] = [];
  physical.forEach((raw, i) => {
    if (Buffer.byteLength(raw) > 75) problems.push(`line ${i + 1}: longer than 75 octets`);
    if (/[\r\n]/.test(raw)) problems.push(`line ${i + 1}: a bare CR or LF`);
    if (raw.startsWith(' ') || raw.startsWith('\t')) logical.at(-1)!.text += raw.slice(1);
    else logical.push({ line: i + 1, text: raw });
  });
  const stack: { name: string; dtstart?: { value: string; params: ReadonlyMap<string, string> }; rrules: { line: number; value: string }[] }[] = [];
  for (const { line, text: content } of logical) {
    const parsed = contentLine(content);
    if (typeof parsed === 'string') {
      problems.push(`line ${line}: ${parsed}: ${content}`);
      continue;
    }
    const { name, params, value } = parsed;
    if (name === 'BEGIN') {
      if (!COMPONENTS.has(value)) problems.push(`line ${line}: unknown component ${value}`);
      stack.push({ name: value, rrules: [] });
      continue;
    }
    if (name === 'END') {
      const open = stack.pop();
      if (open?.name !== value) problems.push(`line ${line}: END:${value} closes ${open?.name ?? 'nothing'}`);
      else problems.push(...untilProblems(open));
      continue;
    }
    if (stack.length === 0) problems.push(`line ${line}: a property outside of a component`);
    const check = name.startsWith('X-') ? () => undefined : PROPERTIES[name];
    const problem = check ? check(value, params) : `${name} is not a property evcal's feeds may carry`;
    if (problem) problems.push(`line ${line}: ${problem}: ${content}`);
    const top = stack.at(-1);
    if (top && name === 'DTSTART') top.dtstart = { value, params };
    if (top && name === 'RRULE') top.rrules.push({ line, value });
  }
  if (stack.length) problems.push(`BEGIN:${stack.at(-1)!.name} is never ended`);
  return problems;
}

// ---- helpers ----

/** name *(";" param) ":" value, with param-values quoted or not as RFC 5545 §3.1 allows. */
function contentLine(line: string): { name: string; params: Map<string, string>; value: string } | string {
  const m = /^([A-Za-z0-9-]+)/.exec(line);
  if (!m) return 'no property name';
  const name = m[1]!.toUpperCase();
  const params = new Map<string, string>();
  let rest = line.slice(m[0].length);
  while (rest.startsWith(';')) {
    const p = /^;([A-Za-z0-9-]+)=((?:"[^"\x00-\x08\x0a-\x1f\x7f]*"|[^";:,\x00-\x08\x0a-\x1f\x7f]*)(?:,(?:"[^"\x00-\x08\x0a-\x1f\x7f]*"|[^";:,\x00-\x08\x0a-\x1f\x7f]*))*)/.exec(rest);
    if (!p) return 'a parameter that is not param-name=param-value';
    params.set(p[1]!.toUpperCase(), p[2]!);
    rest = rest.slice(p[0].length);
  }
  if (!rest.startsWith(':')) return 'no ":" after the name and parameters';
  const value = rest.slice(1);
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(value)) return 'a control character in the value';
  return { name, params, value };
}

/** RFC 5545 §3.3.10: UNTIL has DTSTART's value type, and is in UTC when DTSTART is a zoned or UTC time. */
function untilProblems(component: { name: string; dtstart?: { value: string; params: ReadonlyMap<string, string> }; rrules: { line: number; value: string }[] }): string[] {
  const out: string[] = [];
  for (const rule of component.rrules) {
    const until = /(?:^|;)UNTIL=([^;]+)/.exec(rule.value)?.[1];
    if (!until || !component.dtstart) continue;
    const dateStart = component.dtstart.params.get('VALUE') === 'DATE';
    if (dateStart && !isDate(until)) out.push(`line ${rule.line}: UNTIL must be a DATE when DTSTART is one`);
    if (!dateStart && !(isDateTime(until) && until.endsWith('Z'))) out.push(`line ${rule.line}: UNTIL must be a UTC DATE-TIME when DTSTART is a zoned or UTC time`);
  }
  return out;
}

function list(check: (v: string) => boolean): (v: string) => boolean {
  return (v) => v.split(',').every(check);
}

function isDate(v: string): boolean {
  const m = DATE.exec(v);
  return m !== null && realDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isDateTime(v: string): boolean {
  const m = DATE_TIME.exec(v);
  return m !== null && realDate(Number(m[1]), Number(m[2]), Number(m[3])) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) <= 60;
}

function realDate(y: number, mo: number, d: number): boolean {
  return mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

function isDuration(v: string): boolean {
  return /^[+-]?P(?:\d+W|(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+S)?)?)$/.test(v) && !/T$/.test(v) && v !== 'P';
}
