// `evcal migrate`: a live site running The Events Calendar into a storage, with progress per
// kind of record (a bar on a terminal, plain lines otherwise) and a report at the end.
import { progress as progressBar } from '@clack/prompts';
import { createCalendar } from '@evcal/core';
import { isMigrationError, migrateFromReference, type MigrationKind, type MigrationProgress, type MigrationReport } from '@evcal/migrate';
import { openStorage, redact } from './storage-url';
import { writeStdout } from './output';

export interface MigrateCommandOptions {
  readonly from: string;
  readonly storage: string;
  readonly user?: string;
  readonly password?: string;
  readonly newIds: boolean;
  readonly dryRun: boolean;
  readonly findHidden: boolean;
  readonly concurrency?: number;
  readonly timezone?: string;
  /** Print the report as JSON on stdout instead of text. */
  readonly json: boolean;
}

/** Runs the migration; resolves with the exit code (0: everything carried and verified). */
export async function migrateCommand(options: MigrateCommandOptions, stderr: NodeJS.WriteStream = process.stderr): Promise<number> {
  const storage = await openStorage(options.storage);
  const controller = new AbortController();
  const interrupt = () => controller.abort(new DOMException('interrupted', 'AbortError'));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const display = stderr.isTTY ? terminalProgress(stderr) : lineProgress(stderr);
  try {
    const calendar = createCalendar({ storage, ...(options.timezone ? { timezone: options.timezone } : {}) });
    stderr.write(`${options.dryRun ? 'dry run: ' : ''}migrating ${options.from} into ${redact(options.storage)}${options.user ? ` as ${options.user}` : ' anonymously (published records only)'}\n`);
    const report = await migrateFromReference(calendar, {
      from: options.from,
      ...(options.user !== undefined ? { credentials: { user: options.user, password: options.password ?? '' } } : {}),
      newIds: options.newIds,
      dryRun: options.dryRun,
      findHidden: options.findHidden,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      signal: controller.signal,
      onProgress: display.update,
    });
    display.finish();
    await writeStdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : describeReport(report));
    return report.failed.length > 0 || report.verification?.ok === false ? 1 : 0;
  } catch (error) {
    display.finish();
    if (controller.signal.aborted) {
      stderr.write('evcal migrate: interrupted; what was written is kept, and running the same command again resumes\n');
      return 130;
    }
    if (isMigrationError(error)) {
      stderr.write(`evcal migrate: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await storage.close();
  }
}

/** The report as text: counts per kind, then what was skipped, failed or changed, then the verification. */
export function describeReport(report: MigrationReport): string {
  const lines: string[] = [];
  const kinds = Object.entries(report.kinds) as [MigrationKind, MigrationReport['kinds'][MigrationKind]][];
  const verb = report.dryRun ? 'would create' : 'created';
  lines.push(`${report.dryRun ? 'Dry run (nothing written)' : 'Migrated'} from ${report.from}${report.newIds ? ' with new ids' : ''}:`);
  for (const [kind, c] of kinds) {
    const parts = [`${c.read} read${c.sourceTotal !== undefined ? ` (source lists ${c.sourceTotal}${c.found ? `, ${c.found} found elsewhere` : ''})` : ''}`,
      `${c.created} ${verb}`, `${c.updated} ${report.dryRun ? 'would update' : 'updated'}`, `${c.unchanged} unchanged`];
    if (c.skipped) parts.push(`${c.skipped} skipped`);
    if (c.failed) parts.push(`${c.failed} failed`);
    lines.push(`  ${kind.padEnd(11)} ${parts.join(', ')}`);
  }
  const list = (title: string, issues: MigrationReport['failed']) => {
    if (issues.length === 0) return;
    lines.push(`${title}:`);
    for (const i of issues) lines.push(`  ${i.kind} ${i.sourceId}${i.name ? ` "${i.name}"` : ''}: ${i.reason}`);
  };
  list('Failed (not stored)', report.failed);
  list('Skipped', report.skipped);
  list('Notes', report.notes);
  if (report.verification) {
    lines.push(report.verification.ok
      ? `Verified: ${kinds.map(([k, c]) => `${c.inTarget} ${k}`).join(', ')} in the target, as the source lists them.`
      : `Verification FAILED:\n${report.verification.problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return `${lines.join('\n')}\n`;
}

interface ProgressDisplay {
  update(p: MigrationProgress): void;
  finish(): void;
}

/** A bar per kind (count, rate, time left), redrawn in place. */
function terminalProgress(stream: NodeJS.WriteStream): ProgressDisplay {
  let current: { kind: MigrationKind; bar: ReturnType<typeof progressBar>; shown: number; started: number } | undefined;
  const stop = () => {
    if (current) current.bar.stop(`${current.kind}: ${current.shown}`);
    current = undefined;
  };
  return {
    update(p) {
      if (current?.kind !== p.kind) {
        stop();
        const bar = progressBar({ max: Math.max(p.total ?? 0, 1), output: stream, style: 'heavy' });
        bar.start(p.kind);
        current = { kind: p.kind, bar, shown: 0, started: Date.now() };
      }
      const step = p.done - current.shown;
      if (step > 0) {
        current.shown = p.done;
        current.bar.advance(step, `${p.kind}: ${describeRate(p, current.started)}`);
      }
    },
    finish: stop,
  };
}

/** Plain lines, one per page of records and one per kind, for logs. */
function lineProgress(stream: NodeJS.WriteStream): ProgressDisplay {
  let current: { kind: MigrationKind; started: number; last: MigrationProgress } | undefined;
  const flush = () => {
    if (current && current.last.done > 0) stream.write(`${current.kind}: ${describeRate(current.last, current.started)} done\n`);
  };
  return {
    update(p) {
      if (current?.kind !== p.kind) {
        flush();
        current = { kind: p.kind, started: Date.now(), last: p };
      }
      current.last = p;
      if (p.done > 0 && p.done % 50 === 0 && p.done !== p.total) stream.write(`${p.kind}: ${describeRate(p, current.started)}\n`);
    },
    finish: () => {
      flush();
      current = undefined;
    },
  };
}

/** `120/400, 35/s, about 8 s left` */
function describeRate(p: MigrationProgress, started: number): string {
  const seconds = (Date.now() - started) / 1000;
  const rate = seconds > 0 ? p.done / seconds : 0;
  const count = p.total !== undefined ? `${p.done}/${p.total}` : String(p.done);
  const left = p.total !== undefined && rate > 0 && p.done < p.total ? `, about ${Math.ceil((p.total - p.done) / rate)} s left` : '';
  return `${count}${rate > 0 ? `, ${rate < 10 ? rate.toFixed(1) : Math.round(rate)}/s` : ''}${left}`;
}
