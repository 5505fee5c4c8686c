import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { buildBrowserBundle } from '../../scripts/bundle.mjs';
import { launchChromium } from '../../scripts/chromium.mjs';
import type { Stage } from './stage.js';

/** Debian's Chromium, driven through playwright-core (no browser download). */
export { chromiumPath } from '../../scripts/chromium.mjs';

/** Screenshots that are test artifacts only (gitignored). */
export const artifactsDir = fileURLToPath(new URL('../../test-results/', import.meta.url));
/** The screenshot committed for the README; rewritten only with ASKSEAM_UPDATE_SCREENSHOTS=1. */
export const readmeImagesDir = fileURLToPath(new URL('../../docs/images/', import.meta.url));
export const updateReadmeScreenshots = process.env['ASKSEAM_UPDATE_SCREENSHOTS'] === '1';

export function launchBrowser(): Promise<Browser> {
  mkdirSync(artifactsDir, { recursive: true });
  return launchChromium();
}

/** The element bundled from src, in memory (nothing written to dist/). */
export function bundleFromSource(): Promise<string> {
  return buildBrowserBundle({ write: false, minify: false });
}

export interface MountOptions {
  lang?: string;
  /**
   * 'attributes': `<askseam-questions url token>` makes its own client.
   * 'client': the page makes a client with connectQuestions and sets the `client` property; its
   * socket (or, over SSE, its fetch) can hold outgoing answers and rewrite the next one (see
   * `holdNextAnswerAsStale`).
   */
  mode?: 'attributes' | 'client';
  /** Reconnect delays for mode 'client'. */
  reconnectDelayMs?: number;
  reconnectMaxDelayMs?: number;
}

export interface TestPage {
  page: Page;
  /** Every URL the page asked for since the last `resetRecords()`. */
  requests: string[];
  /** Console errors and uncaught page errors since the last `resetRecords()`. */
  pageErrors: string[];
  resetRecords(): void;
}

/** Open the test page once; tests then mount and unmount elements on it. */
export async function openTestPage(browser: Browser, stage: Stage): Promise<TestPage> {
  // en-US fixes the date input's field order (mm/dd/yyyy), which keyboard tests type into.
  const page = await browser.newPage({ viewport: { width: 760, height: 900 }, colorScheme: 'light', locale: 'en-US' });
  const records: TestPage = {
    page,
    requests: [],
    pageErrors: [],
    resetRecords() {
      records.requests.length = 0;
      records.pageErrors.length = 0;
    },
  };
  page.on('request', (request) => records.requests.push(request.url()));
  page.on('pageerror', (error) => records.pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') records.pageErrors.push(message.text());
  });
  await page.goto(`${stage.origin}/`);
  await page.waitForFunction(() => 'mountAskseam' in window);
  return records;
}

/** Replace whatever element is on the page with one fresh `<askseam-questions>` wired to the stage's host. */
export async function mountElement(page: Page, stage: Stage, options: MountOptions = {}): Promise<void> {
  const settings = { url: stage.url, token: stage.token, lang: options.lang ?? null, mode: options.mode ?? 'attributes', reconnectDelayMs: options.reconnectDelayMs ?? 250, reconnectMaxDelayMs: options.reconnectMaxDelayMs ?? 10_000 };
  await page.evaluate((values) => (window as unknown as { mountAskseam(settings: typeof values): void }).mountAskseam(values), settings);
}
