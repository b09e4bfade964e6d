// The pages as a person sees them (issue 33), in headless Chromium: at 390 px (a phone) and
// 1280 px, nothing wider than the screen and every control on screen and clickable; the list
// view of upcoming events with their places, paged; an event page without JavaScript; no
// error in the browser (the icon included); axe-core finds no serious or critical violation
// on `/`, an event page and `/docs`; `/docs` under evcal's name, its operations grouped by
// resource. Screenshots go to packages/cli/test-output/ (gitignored), for people to look at.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, openPage, OUTPUT, useBrowser, type OpenedPage } from './support/browser';
import { createSeries, servePages } from './support/pages-dataset';
import { needBuiltCli } from './support/serve-process';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WIDTHS = [390, 1280] as const;

/** The errors of the page, but for the refused requests to other origins (images of the seeded events). */
function ownErrors({ errors, foreign }: OpenedPage): string[] {
  return errors.filter((e) => !foreign.some((url) => e.includes(url)) && !/ERR_FAILED/.test(e));
}

/** How far the document is wider than the window (0: no horizontal scrolling). */
async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * The controls a person can see that are not on screen or cannot be clicked: each link,
 * button, select and input shown (and enabled) is scrolled to, must lie within the window's
 * width, and must be what a click at its centre reaches (nothing covering it), as a trial
 * click checks; in the page, in one pass (Swagger UI alone has a few hundred).
 */
async function unreachableControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const control of document.querySelectorAll<HTMLElement>('a[href], button, select, input:not([type=hidden]), summary')) {
      const shown = control.getClientRects().length > 0 && getComputedStyle(control).visibility !== 'hidden' && !control.closest('[hidden], dialog:not([open])');
      if (!shown || (control as HTMLButtonElement).disabled) continue;
      control.scrollIntoView({ block: 'center', inline: 'nearest' });
      const box = control.getBoundingClientRect();
      const name = `${control.tagName.toLowerCase()}${control.id ? `#${control.id}` : ''} "${(control.textContent ?? '').trim().slice(0, 40)}"`;
      if (box.width === 0 || box.height === 0) continue;
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5) {
        out.push(`${name}: outside the window (${Math.round(box.left)}…${Math.round(box.right)} of ${window.innerWidth})`);
        continue;
      }
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || !(control === hit || control.contains(hit))) out.push(`${name}: covered by ${hit?.outerHTML.slice(0, 80)}`);
    }
    window.scrollTo(0, 0);
    return out;
  });
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document)).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.join('; ')})`);
}

describe.skipIf(!chromiumAvailable)('the pages in headless Chromium', { timeout: 180_000 }, () => {
  needBuiltCli();
  const browser = useBrowser();

  it.each(WIDTHS)('at %i px: nothing wider than the screen, every control reachable (/, its list view, an event page, /docs)', async (width) => {
    const server = await servePages();
    const viewport = { width, height: 900 };
    const home = await openPage(browser(), server.origin, '/', { viewport });
    await home.page.waitForSelector('.fc-daygrid-event');
    expect(await overflow(home.page), 'the month view overflows').toBe(0);
    expect(await unreachableControls(home.page)).toEqual([]);
    await home.page.screenshot({ path: join(OUTPUT, `pages-month-${width}.png`), fullPage: true });
    await home.page.locator('#view-list').click();
    await home.page.waitForSelector('#upcoming-list li a');
    expect(await overflow(home.page), 'the list view overflows').toBe(0);
    expect(await unreachableControls(home.page)).toEqual([]);
    await home.page.screenshot({ path: join(OUTPUT, `pages-list-${width}.png`), fullPage: true });
    expect(ownErrors(home)).toEqual([]);

    const event = await openPage(browser(), server.origin, '/event/jazz-night/', { viewport });
    expect(await overflow(event.page), 'the event page overflows').toBe(0);
    expect(await unreachableControls(event.page)).toEqual([]);
    await event.page.screenshot({ path: join(OUTPUT, `pages-event-${width}.png`), fullPage: true });
    expect(ownErrors(event)).toEqual([]);

    const docs = await openPage(browser(), server.origin, '/docs', { viewport });
    await docs.page.locator('.opblock-summary').first().waitFor();
    expect(await overflow(docs.page), '/docs overflows').toBe(0);
    expect(await unreachableControls(docs.page)).toEqual([]);
    await docs.page.screenshot({ path: join(OUTPUT, `pages-docs-${width}.png`) });
    expect(ownErrors(docs)).toEqual([]);
  });

  it('lists upcoming events with their places, ten a page, and pages through them', async () => {
    const server = await servePages();
    await createSeries(server.api);
    const { page } = await openPage(browser(), server.origin, '/', { viewport: { width: 390, height: 900 } });
    await page.locator('#view-list').click();
    await page.waitForSelector('#upcoming-list li a');
    const items = () => page.locator('#upcoming-list li').allInnerTexts();
    const first = await items();
    expect(first).toHaveLength(10);
    expect(first[0]).toMatch(/^Jazz Night – Live\nFri, Dec 4, 8:00 PM\nBlue Room, Rome$/);
    expect(first).toContain('Play 1\nSat, Dec 5, 9:00 PM\nOld Barn, Turin');
    expect(first).toContain('Monday Jam\nMon, Dec 7, 7:00 PM\nBlue Room, Rome');
    expect(await page.locator('#upcoming-page').innerText()).toBe('Page 1 of 2');
    expect(await page.locator('#upcoming-previous').isDisabled()).toBe(true);
    await page.locator('#upcoming-next').click();
    await expect.poll(() => page.locator('#upcoming-page').innerText()).toBe('Page 2 of 2');
    const second = await items();
    expect(second.length).toBeGreaterThan(0);
    expect(second.some((text) => first.includes(text))).toBe(false);
    expect(await page.locator('#upcoming-next').isDisabled()).toBe(true);
    // Filtered by venue, from the first page again; protected events (no page) are not listed.
    await page.selectOption('#venue', '100');
    await expect.poll(() => page.locator('#upcoming-page').innerText()).toBe('Page 1 of 1');
    expect((await items()).map((t) => t.split('\n')[0])).toEqual(['Jazz Night – Live', 'Monday Jam', 'Monday Jam', 'Monday Jam', 'Monday Jam']);
    // Each entry links the event's page.
    await page.locator('#upcoming-list a', { hasText: 'Jazz Night' }).click();
    await page.waitForURL(`${server.origin}/event/jazz-night/`);
    expect(await page.locator('h1').innerText()).toBe('Jazz Night – Live');
  });

  it('shows an event page whole without JavaScript', async () => {
    const server = await servePages();
    const { page } = await openPage(browser(), server.origin, '/de/event/jazz-night/', { javaScript: false, viewport: { width: 390, height: 900 } });
    const text = await page.locator('main').innerText();
    for (const part of ['Jazz Night – Live', 'Freitag, 4. Dezember 2026', 'Blue Room', 'Via Roma 1, Rome', 'Ada Jazz Club', '€15', 'Swing & bebop', 'Zum Kalender hinzufügen', 'Abonnieren']) {
      expect(text).toContain(part);
    }
    await page.screenshot({ path: join(OUTPUT, 'pages-event-de-no-js.png'), fullPage: true });
  });

  it.each(['/', '/event/jazz-night/', '/docs'])('axe-core finds no serious or critical violation on %s', async (path) => {
    const server = await servePages();
    const opened = await openPage(browser(), server.origin, path);
    if (path === '/') await opened.page.waitForSelector('.fc-daygrid-event');
    if (path === '/docs') await opened.page.locator('.opblock-summary').first().waitFor();
    expect(await axeViolations(opened.page)).toEqual([]);
    if (path === '/') {
      await opened.page.locator('#view-list').click();
      await opened.page.waitForSelector('#upcoming-list li a');
      expect(await axeViolations(opened.page)).toEqual([]);
    }
  });

  it('shows /docs under evcal\'s name, its operations grouped by resource, the first one at once', async () => {
    const server = await servePages();
    const { page } = await openPage(browser(), server.origin, '/docs');
    // Visible within the default time-out: the operations are listed collapsed (timings: bench/docs-page.mjs).
    await page.locator('.opblock-summary').first().waitFor({ state: 'visible' });
    expect(await page.locator('.swagger-ui .info .title').innerText()).toMatch(/^evcal API/);
    expect(await page.locator('.swagger-ui .info .description').innerText()).toContain('wire-compatible with The Events Calendar REST API v1');
    expect(await page.title()).toBe('The evcal API reference');
    const groups = await page.locator('.opblock-tag-section h3 .nostyle span, .opblock-tag-section h3 span').first().evaluate(() =>
      [...document.querySelectorAll('.opblock-tag-section h3')].map((h) => h.getAttribute('data-tag')));
    expect(groups).toEqual(['events', 'venues', 'organizers', 'categories', 'tags', 'changes', 'webhooks', 'doc']);
    const firstGroup = page.locator('.opblock-tag-section').first();
    expect((await firstGroup.locator('.opblock-summary-path').allInnerTexts()).map((p) => p.replace(/\u200b/g, '')))
      .toEqual(expect.arrayContaining(['/events', '/events/{id}', '/events.ics']));
  });
});
