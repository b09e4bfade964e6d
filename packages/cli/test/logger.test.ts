// The logger writes flat lines itself and gathers lines into batches (src/logger.ts): what it
// writes must be what pino writes, and nothing may be lost on the way out.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, flatLine, pinoSettings, type LogFields } from '../src/logger';
import { ensureBuilt, REPO } from './support/processes';

const TIME = Date.parse('2026-11-29T06:30:00.120Z');
const STAMP = `,"time":"${new Date(TIME).toISOString()}"`;

/** The line pino writes for `fields` and `msg`, configured as evcal configures it. */
function pinoLine(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields: LogFields): string {
  let line = '';
  const reference = pino({ ...pinoSettings(() => STAMP), level: 'debug' }, { write: (l: string) => (line = l) });
  reference[level](fields, msg);
  return line;
}

/** What createLogger writes for `fields` and `msg`. */
function evcalLine(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields: LogFields): string {
  const lines: string[] = [];
  createLogger({ level: 'debug', now: () => TIME, write: (l) => lines.push(l) })[level](msg, fields);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

const FLAT: readonly LogFields[] = [
  {},
  {
    request_id: '4c1e7d9a-5b0f-4a57-9d0e-2f0c0a1e9b11', method: 'GET', path: '/cal/events/v1/events?per_page=10&search=caf%C3%A9',
    address: '203.0.113.7', status: 304, duration_ms: 0.1, user_id: null,
  },
  { user_id: 3, status: 201, duration_ms: 12.4, address: undefined },
  { quoted: 'say "hi" \\ back', control: 'tab\there\nnewline\u0001', unicode: 'café ☕ 日本 😀', separators: 'a\u2028b\u2029c' },
  { long: `${'x'.repeat(150)}"${'\\'.repeat(3)}`, empty: '', spaces: '   ' },
  { n: 0, negative: -12.5, big: 1e21, small: 1e-7, negativeZero: -0, max: Number.MAX_SAFE_INTEGER, yes: true, no: false },
  { 'odd "key"': 1, 'ключ': 'значение', '': 'empty key' },
];

describe('the lines the logger writes', () => {
  it.each(FLAT.map((fields, i) => [i, fields] as const))('writes flat fields as pino does (case %i)', (_, fields) => {
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      expect(evcalLine(level, 'request', fields)).toBe(pinoLine(level, 'request', fields));
    }
    expect(JSON.parse(evcalLine('info', 'a "message"\n', fields))).toMatchObject({ level: 'info', msg: 'a "message"\n' });
  });

  it('writes every character of a string as pino does, each alone between plain ones', () => {
    // Every UTF-16 unit but the surrogates, short strings and long ones (pino escapes the two
    // differently), and a surrogate pair.
    const units = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)).filter((c) => c < '\ud800' || c > '\udfff');
    let written = '';
    const reference = pino({ ...pinoSettings(() => STAMP), level: 'info' }, { write: (l: string) => (written = l) });
    const differing: string[] = [];
    for (const unit of [...units, '😀']) {
      for (const value of [`a${unit}b`, `${unit}${'x'.repeat(60)}`]) {
        const fields = { path: value, method: 'GET' };
        reference.info(fields, 'request');
        if (flatLine('{"level":"info"', STAMP, 'request', fields) !== written) differing.push(value);
      }
    }
    expect(differing).toEqual([]);
  });

  it('escapes a lone surrogate, as JSON asks (pino writes it raw in a short string)', () => {
    for (const value of ['a\ud800b', 'a\udfffb', '\udc00']) {
      expect(JSON.parse(flatLine('{"level":"info"', STAMP, 'm', { value })!).value).toBe(value);
      expect(flatLine('{"level":"info"', STAMP, 'm', { value })).toContain(JSON.stringify(value));
    }
  });

  it('declines what is not flat, and pino writes it', () => {
    const prefix = '{"level":"info"';
    for (const fields of [{ nested: { a: 1 } }, { list: [1, 2] }, { nan: Number.NaN }, { infinite: Number.POSITIVE_INFINITY }, { when: new Date(TIME) }]) {
      expect(flatLine(prefix, STAMP, 'm', fields)).toBeUndefined();
      expect(evcalLine('info', 'm', fields)).toBe(pinoLine('info', 'm', fields));
    }
    expect(JSON.parse(evcalLine('info', 'm', { nested: { a: [1, 'two'] } })).nested).toEqual({ a: [1, 'two'] });
    expect(JSON.parse(evcalLine('info', 'm', { nan: Number.NaN })).nan).toBeNull();
  });

  it('writes below its level nothing, and the announcement at every level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'error', now: () => TIME, write: (l) => lines.push(l) });
    logger.info('not written', { a: 1 });
    logger.warn('not written either');
    logger.announce('evcal listening on http://127.0.0.1:1', { storage: 'memory' });
    logger.error('written', { error: 'boom' });
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { level: 'info', time: new Date(TIME).toISOString(), storage: 'memory', msg: 'evcal listening on http://127.0.0.1:1' },
      { level: 'error', time: new Date(TIME).toISOString(), error: 'boom', msg: 'written' },
    ]);
  });
});

/**
 * Runs a process that logs `count` lines of about 250 bytes to its stdout (a pipe read here),
 * in slices of 100 with a turn of the event loop between them, then does `then` (JavaScript, with
 * `logger` in scope). Resolves with what it wrote and how it ended.
 */
function logInChild(count: number, then: string): Promise<{ lines: string[]; code: number | null; signal: NodeJS.Signals | null }> {
  ensureBuilt();
  const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const script = `
    const { createLogger } = await import(${JSON.stringify(entry)});
    const logger = createLogger();
    for (let i = 0; i < ${count}; i += 100) {
      for (let j = i; j < Math.min(i + 100, ${count}); j++) {
        logger.info('request', { n: j, request_id: 'r-' + j, method: 'GET', path: '/cal/events/v1/events?per_page=10&page=' + j, address: '127.0.0.1', status: 200, duration_ms: 1.5, user_id: null, pad: 'é'.repeat(100) });
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    ${then}
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) => child.once('close', (code, signal) => {
    resolve({ lines: Buffer.concat(chunks).toString('utf8').split('\n').slice(0, -1), code, signal });
  }));
}

describe('writing out', { timeout: 60_000 }, () => {
  const COUNT = 20_000;
  const numbered = (lines: readonly string[]) => lines.map((l) => (JSON.parse(l) as { n: number }).n);
  const all = Array.from({ length: COUNT }, (_, i) => i);

  it('has written every line, whole and in order, when flush resolves (the process killed at once after it)', async () => {
    const { lines, signal } = await logInChild(COUNT, "await logger.flush(); process.kill(process.pid, 'SIGKILL');");
    expect(signal).toBe('SIGKILL');
    expect(numbered(lines)).toEqual(all);
  });

  // What exit guarantees: every line not yet being written (the lines gathered, and what
  // sonic-boom holds) is written synchronously. A batch sonic-boom is writing from the thread
  // pool at that moment is not waited for (src/logger.ts, flushSync): here none is, as after a flush.
  it('writes every line gathered since the last write at exit, without a flush', async () => {
    const { lines, code } = await logInChild(COUNT, `
      await logger.flush();
      for (let j = ${COUNT}; j < ${COUNT + 50}; j++) logger.info('request', { n: j, pad: 'é'.repeat(100) });
      process.exit(3);`);
    expect(code).toBe(3);
    expect(numbered(lines)).toEqual(Array.from({ length: COUNT + 50 }, (_, i) => i));
  });

  it('writes lines that come slowly within a tenth of a second, without a flush', async () => {
    const { lines, signal } = await logInChild(3, "await new Promise((resolve) => setTimeout(resolve, 400)); process.kill(process.pid, 'SIGKILL');");
    expect(signal).toBe('SIGKILL');
    expect(numbered(lines)).toEqual([0, 1, 2]);
  });
});
