// The structured data of the event pages (issue 33), validated by a real validator
// (@adobe/structured-data-validator over what @marbec/web-auto-extractor finds in the page,
// with Google's event rich-result rules: support/structured-data.ts): no error, and every
// recommended property present where the calendar has the data. The same validator finds the
// faults of the API's own json_ld (the reference's form), so it is not passing everything.
import { describe, expect, it } from 'vitest';
import { createSeries, servePages } from './support/pages-dataset';
import { needBuiltCli } from './support/serve-process';
import { extract, validate, type StructuredDataIssue } from './support/structured-data';

const summary = (issues: readonly StructuredDataIssue[]) => issues.map((i) => `${i.severity} ${i.path.map((p) => p.property ?? p.type).join('.')}: ${i.issueMessage}`);

describe('the JSON-LD of the event pages', { timeout: 60_000 }, () => {
  needBuiltCli();

  it('meets Google\'s event rich-result rules: no error, nothing recommended missing where the data exists', async () => {
    const server = await servePages();
    const html = await (await fetch(`${server.origin}/event/jazz-night/`)).text();
    const extracted = extract(html);
    expect(Object.keys(extracted.jsonld)).toEqual(['Event']);
    // Nothing missing but a performer, which the calendar does not record.
    expect(summary(await validate(extracted))).toEqual(['WARNING Event: Missing field "performer" (optional)']);
  });

  it('holds for events with less (no description, image, cost or organizer): an all-day event, an occurrence, a page in German', async () => {
    const server = await servePages();
    await createSeries(server.api);
    for (const path of ['/event/winter-fair/', '/event/monday-jam/2026-12-14/', '/de/event/play-1/']) {
      const extracted = extract(await (await fetch(`${server.origin}${path}`)).text());
      expect(extracted.jsonld.Event, path).toHaveLength(1);
      const issues = await validate(extracted);
      expect(summary(issues.filter((i) => i.severity === 'ERROR')), path).toEqual([]);
      // What is missing is what the event has not: a description, an image, a cost, an organizer, a performer.
      expect(issues.flatMap((i) => i.fieldNames).sort(), path).toEqual(['description', 'image', 'offers', 'organizer', 'performer']);
    }
  });

  it('finds what the API\'s own json_ld (the reference\'s form) gets wrong for rich results', async () => {
    const server = await servePages();
    const { json_ld: ld } = await (await fetch(`${server.api}/events/300`)).json() as { json_ld: Record<string, unknown> };
    const page = `<!doctype html><html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`;
    const fields = (await validate(extract(page))).map((i) => `${i.severity} ${i.path.map((p) => p.property ?? p.type).join('.')} ${i.fieldNames.join()}`);
    // "inStock" is no schema.org availability; the literal "Organization" is no performer.
    expect(fields).toEqual(expect.arrayContaining(['WARNING Event.offers availability', 'WARNING Event performer']));
  });
});
