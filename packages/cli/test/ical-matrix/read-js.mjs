// Reads iCalendar files with the JavaScript parsers of the matrix (ical.js, node-ical) and
// prints, for each file and parser, the occurrences it expands in a window as JSON:
// { FILE: { "ical.js": [[start, summary], …], "node-ical": … } }, a start being
// "YYYY-MM-DDTHH:MM:SSZ" (a timed event's instant) or "YYYY-MM-DD" (an all-day event's date).
// A parser that throws on a file gives { "error": message } instead.
// Usage: node read-js.mjs FROM TO FILE… (FROM and TO instants "YYYY-MM-DDTHH:MM:SSZ").
import { readFileSync } from 'node:fs';
import ICAL from 'ical.js';
import nodeIcal from 'node-ical';

const [fromText, toText, ...files] = process.argv.slice(2);
const from = new Date(fromText);
const to = new Date(toText);

const iso = (d) => `${d.toISOString().slice(0, 19)}Z`;
const pad = (n) => String(n).padStart(2, '0');
const sorted = (list) => list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));

/** ical.js as Thunderbird uses it: each master with its exceptions, expanded by its iterator. */
function readIcalJs(text) {
  const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
  const out = [];
  const take = (time, summary) => {
    if (time.isDate) {
      const day = time.toString();
      if (day >= fromText.slice(0, 10) && day < toText.slice(0, 10)) out.push([day, summary]);
    } else {
      const at = time.toJSDate();
      if (at >= from && at < to) out.push([iso(at), summary]);
    }
  };
  for (const master of vevents.filter((v) => !v.hasProperty('recurrence-id'))) {
    const uid = master.getFirstPropertyValue('uid');
    const exceptions = vevents.filter((v) => v.hasProperty('recurrence-id') && v.getFirstPropertyValue('uid') === uid);
    const event = new ICAL.Event(master, { exceptions });
    if (!event.isRecurring()) {
      take(event.startDate, event.summary);
      continue;
    }
    const it = event.iterator();
    for (let next = it.next(); next; next = it.next()) {
      if (next.toJSDate() >= to) break;
      const d = event.getOccurrenceDetails(next);
      take(d.startDate, d.item.summary);
    }
  }
  // Exceptions whose master is not in the feed are events of their own.
  const masters = new Set(vevents.filter((v) => !v.hasProperty('recurrence-id')).map((v) => v.getFirstPropertyValue('uid')));
  for (const v of vevents.filter((x) => x.hasProperty('recurrence-id') && !masters.has(x.getFirstPropertyValue('uid')))) {
    const event = new ICAL.Event(v);
    take(event.startDate, event.summary);
  }
  return sorted(out);
}

/** node-ical: every VEVENT of the parse, expanded by its expandRecurringEvent (overrides and EXDATEs applied). */
function readNodeIcal(text) {
  const data = nodeIcal.sync.parseICS(text);
  const out = [];
  for (const event of Object.values(data)) {
    if (event.type !== 'VEVENT') continue;
    for (const instance of nodeIcal.expandRecurringEvent(event, { from, to })) {
      const start = instance.isFullDay
        ? `${instance.start.getFullYear()}-${pad(instance.start.getMonth() + 1)}-${pad(instance.start.getDate())}`
        : iso(instance.start);
      if (instance.isFullDay ? start >= fromText.slice(0, 10) && start < toText.slice(0, 10) : instance.start < to) out.push([start, instance.summary]);
    }
  }
  return sorted(out);
}

const result = {};
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  result[file] = {};
  for (const [name, read] of [['ical.js', readIcalJs], ['node-ical', readNodeIcal]]) {
    try {
      result[file][name] = read(text);
    } catch (error) {
      result[file][name] = { error: String(error?.message ?? error) };
    }
  }
}
process.stdout.write(JSON.stringify(result));
