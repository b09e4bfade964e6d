// A node:test reporter that writes one JSON line per finished test (not suite):
// {"file","name","ok","error"}. scripts/conformance.mjs reads it.
import { basename } from 'node:path';

export default async function* reporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite') continue;
    const ok = event.type === 'test:pass';
    const cause = ok ? undefined : data.details?.error?.cause ?? data.details?.error;
    yield `${JSON.stringify({
      file: data.file ? basename(data.file) : '',
      name: data.name,
      ok,
      ...(cause ? { error: String(cause.message ?? cause).split('\n').slice(0, 6).join('\n') } : {}),
    })}\n`;
  }
}
