// Reading an iCalendar text into ical.js components while remembering where each component
// and property starts, so that every error can name its line. ical.js parses each content
// line (its own line parser: names, parameters, value types, escapes); only the unfolding of
// lines and the BEGIN/END nesting are followed here, to count lines.
import ICAL from 'ical.js';
import { CalendarError } from '../domain/errors';
import { verbatim } from '../domain/messages';

/** The components of a text, and the line each component and property starts on. */
export interface ParsedIcs {
  /** The top-level components (VCALENDAR objects), in order. */
  readonly calendars: readonly ICAL.Component[];
  /** The 1-based line where a component or property starts. */
  lineOf(item: ICAL.Component | ICAL.Property): number;
}

/** Parses an iCalendar text. Throws `invalid_ical` naming the line for anything that is not iCalendar. */
export function parseIcs(text: string): ParsedIcs {
  const lines = new WeakMap<object, number>();
  const roots: unknown[][] = [];
  const stack: { name: string; jcal: unknown[]; line: number }[] = [];
  const logical = unfold(text);
  if (logical.length === 0) throw icsError(1, 'the file is empty, not iCalendar');
  const head = logical[0]!;
  if (!/^BEGIN:VCALENDAR$/i.test(head.text.trim())) {
    throw icsError(head.line, `not an iCalendar file: it must start with BEGIN:VCALENDAR, not "${preview(head.text)}"`);
  }
  for (const { line, text: content } of logical) {
    const edge = /^(BEGIN|END):([A-Za-z0-9-]+)\s*$/i.exec(content);
    if (edge) {
      const name = edge[2]!.toLowerCase();
      if (edge[1]!.toUpperCase() === 'BEGIN') {
        const jcal: unknown[] = [name, [], []];
        lines.set(jcal, line);
        if (stack.length) (stack[stack.length - 1]!.jcal[2] as unknown[][]).push(jcal);
        else if (name === 'vcalendar') roots.push(jcal);
        else throw icsError(line, `BEGIN:${edge[2]} outside of a VCALENDAR`);
        stack.push({ name, jcal, line });
        continue;
      }
      const open = stack.pop();
      if (!open) throw icsError(line, `END:${edge[2]} without a matching BEGIN`);
      if (open.name !== name) throw icsError(line, `END:${edge[2]} where END:${open.name.toUpperCase()} (begun on line ${open.line}) was expected`);
      continue;
    }
    if (!stack.length) throw icsError(line, `"${preview(content)}" outside of a VCALENDAR`);
    let property: unknown[];
    try {
      property = ICAL.parse.property(content) as unknown[];
    } catch (e) {
      throw icsError(line, `not an iCalendar content line (${(e as Error).message})`);
    }
    lines.set(property, line);
    (stack[stack.length - 1]!.jcal[1] as unknown[][]).push(property);
  }
  const unclosed = stack.pop();
  if (unclosed) throw icsError(unclosed.line, `BEGIN:${unclosed.name.toUpperCase()} is never ended`);
  return {
    calendars: roots.map((jcal) => new ICAL.Component(jcal as never)),
    lineOf: (item) => lines.get(item.jCal as object) ?? 0,
  };
}

/** The `invalid_ical` error of a line. */
export function icsError(line: number, message: string): CalendarError {
  return new CalendarError('invalid_ical', verbatim(`line ${line}: ${message}`), { details: { line, message } });
}

// ---- helpers ----

interface LogicalLine {
  readonly line: number;
  readonly text: string;
}

/** Content lines with folding undone (a line break followed by a space or tab continues the line). */
function unfold(text: string): LogicalLine[] {
  const physical = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const out: { line: number; text: string }[] = [];
  physical.forEach((raw, i) => {
    if (raw.startsWith(' ') || raw.startsWith('\t')) {
      const last = out[out.length - 1];
      if (!last) throw icsError(i + 1, 'a continuation line (starting with a space) with no line before it');
      last.text += raw.slice(1);
    } else if (raw.trim() !== '') {
      out.push({ line: i + 1, text: raw });
    }
  });
  return out;
}

function preview(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
