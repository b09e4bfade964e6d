// Redocly's linter (its recommended rules) on the /doc that `evcal serve` serves (issue 32):
// no error. Generated clients and the reference page read this document; the linter's errors
// are what breaks them. One rule is off, for the reference's documented form: its server URL
// ends in a slash (`…/v1/`), which its clients read and the conformance suite checks
// (SwaggerDocumentationCest), though the paths begin with one (no-server-trailing-slash).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { needBuiltCli, REPO, startServe } from './support/serve-process';

needBuiltCli();

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly { readonly ruleId: string; readonly severity: string; readonly message: string; readonly location?: readonly { readonly pointer?: string }[] }[];
}

it('the served /doc passes `redocly lint` with no error', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-doc-lint-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startServe();
  const doc = await (await fetch(`${server.api}/doc`)).text();
  const file = join(dir, 'doc.json');
  writeFileSync(file, doc);
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\nrules:\n  no-server-trailing-slash: off\n');
  const lint = spawnSync(process.execPath, [join(REPO, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--format=json'], {
    cwd: dir, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const report = JSON.parse(lint.stdout) as LintReport;
  const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} at ${p.location?.[0]?.pointer}: ${p.message}`);
  expect(errors).toEqual([]);
  expect(report.totals.errors).toBe(0);
  expect(lint.status).toBe(0);
});
