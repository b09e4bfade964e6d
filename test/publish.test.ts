// Every package publishes as it is: `npm publish --dry-run` takes its package.json without
// correcting anything (npm drops what it corrects, such as a `bin` it calls invalid), and the
// tarball holds the build, the types, the executable, a README and the licence.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './docs/blocks';
import { PUBLISHED, run } from './docs/packed-app';

describe.each(PUBLISHED)('@evcal/%s', (name) => {
  const dir = join(REPO, 'packages', name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;

  it('npm publish --dry-run warns of nothing but the missing login', async () => {
    const result = await run('npm', ['publish', '--dry-run'], { cwd: dir });
    expect(result.code).toBe(0);
    const warnings = result.stderr.split('\n').filter((l) => /\bwarn\b/i.test(l) && !/requires you to be logged in/.test(l));
    expect(warnings).toEqual([]);
  });

  it('packs its build, types, README and licence, and declares the Node it needs', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json'], { cwd: dir });
    const files = (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts']));
    expect(manifest).toMatchObject({ license: 'MIT', engines: { node: '>=20.19' }, publishConfig: { access: 'public' } });
    for (const bin of Object.values((manifest.bin ?? {}) as Record<string, string>)) expect(files).toContain(bin);
  });
});
