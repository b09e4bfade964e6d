// `evcal import` and `evcal export`: move a calendar between storages as a dataset.
import { readFile, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { createCalendar, importIcs, isCalendarError, type ImportIcsSummary, type ImportSummary } from '@evcal/core';
import { openStorage } from './storage-url';
import { writeStdout } from './output';

export interface ImportOptions {
  readonly file: string;
  readonly storage: string;
  /** Where progress goes; a terminal gets a bar, anything else one summary line. */
  readonly progress?: NodeJS.WriteStream;
}

/** What `evcal import` read: a dataset, or an iCalendar file. */
export type FileImport = { readonly kind: 'dataset'; readonly summary: ImportSummary } | { readonly kind: 'ical'; readonly summary: ImportIcsSummary };

/**
 * Loads a file into a storage: an iCalendar file (`.ics`, or any file that starts with
 * BEGIN:VCALENDAR) as events, else a JSON dataset.
 */
export async function importAnyFile(options: ImportOptions & { readonly timezone?: string }): Promise<FileImport> {
  const text = await readFile(options.file, 'utf8');
  if (isIcal(options.file, text)) return { kind: 'ical', summary: await importIcsText(text, options) };
  return { kind: 'dataset', summary: await importFile(options, text) };
}

/**
 * Loads a dataset file into a storage (validated like the create routes, ids kept). Into a
 * database, in chunks: writers of the servers sharing it never wait long behind the import,
 * and an import stopped part-way resumes where it stopped when run again (docs/datasets.md).
 * A JSON file, which has one writer and is written whole at each commit, takes it at once.
 */
export async function importFile(options: ImportOptions, text?: string): Promise<ImportSummary> {
  const dataset = JSON.parse(text ?? await readFile(options.file, 'utf8')) as unknown;
  const storage = await openStorage(options.storage);
  try {
    const bar = options.progress?.isTTY ? progressBar(options.progress) : undefined;
    const chunks = options.storage.startsWith('json:') ? {} : { chunks: {} };
    const summary = await createCalendar({ storage }).importDataset(dataset, { ...chunks, ...(bar ? { onProgress: bar } : {}) });
    if (bar) options.progress!.write('\n');
    return summary;
  } finally {
    await storage.close();
  }
}

/** The whole calendar of a storage as dataset JSON. */
export async function exportStorage(storage: string): Promise<string> {
  const opened = await openStorage(storage);
  try {
    return `${JSON.stringify(await createCalendar({ storage: opened }).exportDataset(), null, 2)}\n`;
  } finally {
    await opened.close();
  }
}

export async function writeExport(text: string, output: string | undefined): Promise<void> {
  if (output) await writeFile(output, text);
  else await writeStdout(text);
}

/** The events of an iCalendar text into a storage, in one transaction; errors name the file and line. */
async function importIcsText(text: string, options: ImportOptions & { readonly timezone?: string }): Promise<ImportIcsSummary> {
  const storage = await openStorage(options.storage);
  try {
    return await importIcs(createCalendar({ storage, ...(options.timezone ? { timezone: options.timezone } : {}) }), text);
  } catch (error) {
    if (isCalendarError(error) && error.code === 'invalid_ical') throw new IcalFileError(`${options.file}, ${error.message}`);
    throw error;
  } finally {
    await storage.close();
  }
}

/** A file that could not be imported, named with its line. */
export class IcalFileError extends Error {
  override readonly name = 'IcalFileError';
  readonly code = 'invalid_ical';
}

/** `12 events (10 new, 1 updated, 1 unchanged), 2 new venues, 3 new categories`. */
export function describeIcsSummary(s: ImportIcsSummary): string {
  const events = s.created + s.updated + s.unchanged;
  return `${events} events (${s.created} new, ${s.updated} updated, ${s.unchanged} unchanged), ${s.venues} new venues, ${s.categories} new categories`;
}

/** `; skipped 2 (recurring "Standup" at line 40, cancelled "Gig" at line 61)`, or nothing. */
export function describeSkipped(s: ImportIcsSummary): string {
  const shown = s.skipped.slice(0, 3).map((x) => `${x.reason} "${x.title}" at line ${x.line}`);
  if (s.skipped.length > shown.length) shown.push(`${s.skipped.length - shown.length} more`);
  return s.skipped.length === 0 ? '' : `; skipped ${s.skipped.length} (${shown.join(', ')})`;
}

function isIcal(file: string, text: string): boolean {
  return ['.ics', '.ical', '.icalendar', '.ifb'].includes(extname(file).toLowerCase()) || /^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text.slice(0, 64));
}

export function describeSummary(s: ImportSummary): string {
  return `${s.events} events, ${s.venues} venues, ${s.organizers} organizers, ${s.categories} categories, ${s.tags} tags`;
}

/** A one-line progress bar, redrawn at most every 1%. */
function progressBar(stream: NodeJS.WriteStream): (done: number, total: number) => void {
  let shown = -1;
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (percent === shown) return;
    shown = percent;
    const width = 30;
    const filled = Math.round((percent / 100) * width);
    stream.write(`\rimporting [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${done}/${total}`);
  };
}
