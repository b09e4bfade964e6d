// Headless Chromium for the tests of the pages: Debian's /usr/bin/chromium (EVCAL_CHROMIUM
// to use another), driven by playwright-core, in a fresh profile each run. A page opened
// here refuses (and records) every request to another origin, and records the errors the
// browser reports (script errors, and resources it could not load) for the test to check.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';

export const CHROMIUM = process.env.EVCAL_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
if (!chromiumAvailable) console.warn(`NOTICE: ${CHROMIUM} is missing (apt-get install chromium): the browser tests of the pages are skipped.`);

/** Where screenshots go (gitignored), looked at by people, not compared. */
export const OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));

/** Launches Chromium before the file's tests and closes it after them. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium is not running');
    return browser;
  };
}

export interface OpenOptions {
  /** @default 'en-US' */
  readonly locale?: string;
  /** @default 1280 × 900 */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** @default true */
  readonly javaScript?: boolean;
}

export interface OpenedPage {
  readonly page: Page;
  /** Requests the page tried to send elsewhere than `origin` (refused). */
  readonly foreign: string[];
  /** Errors the browser reported: script errors, and resources it could not load. */
  readonly errors: string[];
}

/** A page of `origin` in a fresh context, closed when the test ends. */
export async function openPage(browser: Browser, origin: string, path: string, options: OpenOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US', viewport: options.viewport ?? { width: 1280, height: 900 }, javaScriptEnabled: options.javaScript ?? true,
  });
  onTestFinished(() => context.close());
  const foreign: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url}`);
  });
  await page.goto(`${origin}${path}`);
  return { page, foreign, errors };
}
