// `evcal import` and `evcal export`: move a calendar between storages as a dataset.
import { readFile, writeFile } from 'node:fs/promises';
import { createCalendar, type ImportSummary } from '@evcal/core';
import { openStorage } from './storage-url';

export interface ImportOptions {
  readonly file: string;
  readonly storage: string;
  /** Where progress goes; a terminal gets a bar, anything else one summary line. */
  readonly progress?: NodeJS.WriteStream;
}

/** Loads a dataset file into a storage (validated like the create routes, ids kept). */
export async function importFile(options: ImportOptions): Promise<ImportSummary> {
  const dataset = JSON.parse(await readFile(options.file, 'utf8')) as unknown;
  const storage = await openStorage(options.storage);
  try {
    const bar = options.progress?.isTTY ? progressBar(options.progress) : undefined;
    const summary = await createCalendar({ storage }).importDataset(dataset, { ...(bar ? { onProgress: bar } : {}) });
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
  else process.stdout.write(text);
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
