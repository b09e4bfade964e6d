// The fenced code blocks of the README, docs/ and the packages' READMEs, and what the docs
// tests do with each, from its info string (CONTRIBUTING.md, "Code blocks in the docs"):
//
//   ```ts               compiled as its own module in an app that installed the packed packages
//   ```ts fragment      compiled too, with the names the text around it sets up (context.d.ts)
//   ```ts run           compiled, then run against `evcal serve --demo`; it must exit 0
//   ```ts serves        compiled, then started as a server and asked for what it serves
//   ```sh               run by bash against `evcal serve --demo` (curl fails on an HTTP error)
//   ```sh install       its `npm i` commands install the app (the packed @evcal packages)
//   ```json             parsed
//   ```toml             parsed and checked as an `evcal serve --config` file
//   ```sql postgres     run on PostgreSQL by the test that names it (the database role's
//                       script: packages/cli/test/pgbouncer.test.ts)
//   ```<lang> skip      shown only: a sketch, values from elsewhere, or what needs a server
//                       the tests do not have (PostgreSQL, a WordPress site)
//   ```text, http, html, nginx, ini: shown only (not code the tests can run)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export type BlockUse = 'compile' | 'fragment' | 'run' | 'serves' | 'shell' | 'install' | 'json' | 'toml' | 'postgres' | 'shown';

export interface DocBlock {
  /** The file, relative to the repository. */
  readonly file: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  readonly lang: string;
  readonly attributes: readonly string[];
  readonly code: string;
  readonly use: BlockUse;
}

/** Languages that are not code the tests run: configuration for other programs, HTTP, prose. */
const SHOWN = new Set(['text', 'http', 'html', 'nginx', 'ini']);

/** The markdown files whose blocks are checked. */
export function docFiles(): string[] {
  const docs = readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(REPO, 'docs', f));
  const packages = readdirSync(join(REPO, 'packages')).map((p) => join(REPO, 'packages', p, 'README.md')).filter((f) => existsSync(f));
  return [join(REPO, 'README.md'), ...docs.sort(), ...packages.sort()];
}

/** Every fenced block of `file`, with its use; a block whose info string says nothing known is an error. */
export function blocksOf(file: string): DocBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const end = lines.findIndex((l, j) => j > i && l.trimStart().startsWith(fence) && l.trim() === fence);
    if (end < 0) throw new Error(`${relative(REPO, file)}:${i + 1}: a code block that is not closed`);
    const [lang = '', ...attributes] = info.trim().split(/\s+/).filter(Boolean);
    const code = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join('\n');
    const where = `${relative(REPO, file)}:${i + 1}`;
    blocks.push({ file: relative(REPO, file), line: i + 1, lang, attributes, code, use: useOf(where, lang, attributes) });
    i = end;
  }
  return blocks;
}

/** Every block of every checked file. */
export function allBlocks(): DocBlock[] {
  return docFiles().flatMap(blocksOf);
}

function useOf(where: string, lang: string, attributes: readonly string[]): BlockUse {
  const [attribute, ...more] = attributes;
  if (more.length) throw new Error(`${where}: one attribute at most, got "${attributes.join(' ')}"`);
  if (attribute === 'skip' || SHOWN.has(lang)) {
    if (SHOWN.has(lang) && attribute !== undefined) throw new Error(`${where}: a ${lang} block is shown only; drop "${attribute}"`);
    return 'shown';
  }
  const uses: Record<string, Partial<Record<string, BlockUse>>> = {
    ts: { '': 'compile', fragment: 'fragment', run: 'run', serves: 'serves' },
    sh: { '': 'shell', install: 'install' },
    json: { '': 'json' },
    toml: { '': 'toml' },
    sql: { postgres: 'postgres' },
  };
  const use = uses[lang]?.[attribute ?? ''];
  if (use === undefined) {
    throw new Error(`${where}: a block the docs tests cannot place ("${lang}${attribute ? ` ${attribute}` : ''}"): `
      + 'give it a language they run (ts, sh, json, toml, sql postgres) or show (text, http, html, nginx, ini), or mark it "skip"');
  }
  return use;
}

/** A name for a block's file in the app: where it comes from, so compiler errors point at it. */
export function blockName(block: DocBlock): string {
  return `${block.file.replace(/[^A-Za-z0-9]+/g, '_')}_L${block.line}`;
}
