// Every English text a client can read, gathered the way xgettext would: the `msg('…')`
// literals of the packages' sources, and the descriptions, titles and summaries of the
// namespace index and /doc (generated from the operations' declarations).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { namespaceIndex } from '../../src/namespace-index';
import { openApiDocument } from '../../src/openapi';

const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url));

export interface ExtractedTexts {
  /** Message templates, with the files they occur in. */
  readonly messages: ReadonlyMap<string, readonly string[]>;
  /** `msg(` calls whose first argument is not a string literal (they cannot be extracted). */
  readonly dynamic: readonly string[];
  /** Texts of the descriptive documents. */
  readonly descriptions: ReadonlySet<string>;
}

export function extractTexts(): ExtractedTexts {
  const messages = new Map<string, string[]>();
  const dynamic: string[] = [];
  for (const file of sourceFiles()) {
    const source = readFileSync(file, 'utf8');
    for (const call of source.matchAll(/\bmsg\(\s*/g)) {
      const at = call.index + call[0].length;
      const line = source.slice(source.lastIndexOf('\n', call.index) + 1, call.index);
      if (line.includes('//') || /^\s*\*/.test(line)) continue; // in a comment
      const literal = /^'((?:[^'\\\n]|\\.)*)'/.exec(source.slice(at));
      const where = `${file.slice(PACKAGES.length)}:${source.slice(0, at).split('\n').length}`;
      if (!literal) {
        // The declaration of msg itself is not a call.
        if (!/function msg\($/.test(source.slice(Math.max(0, call.index - 9), at).trim())) dynamic.push(where);
        continue;
      }
      const template = unescapeLiteral(literal[1]!);
      messages.set(template, [...(messages.get(template) ?? []), where]);
    }
  }
  const descriptions = new Set<string>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(collect);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'string' && (key === 'description' || key === 'title' || key === 'summary')) descriptions.add(v);
      else collect(v);
    }
  };
  collect(namespaceIndex('cal/events/v1', 'http://cal.test/cal/events/v1', 'http://cal.test'));
  collect(openApiDocument('http://cal.test/cal/events/v1'));
  return { messages, dynamic, descriptions };
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
    }
  };
  for (const pkg of readdirSync(PACKAGES, { withFileTypes: true })) {
    if (pkg.isDirectory()) {
      try {
        walk(join(PACKAGES, pkg.name, 'src'));
      } catch {
        // a package without sources
      }
    }
  }
  return out;
}

/** The value of a single-quoted JS string literal's body. */
function unescapeLiteral(body: string): string {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    if (e.startsWith('u{')) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if (e[0] === 'u' || e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[e] ?? e;
  });
}
