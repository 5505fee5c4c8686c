// A Chromium page with test/markdown-entry.ts loaded: the Markdown tests render in a real DOM, the
// one the element runs in (the repository has no DOM emulation, and adds none).
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { buildBrowserBundle } from '../../scripts/bundle.mjs';
import { launchChromium } from '../../scripts/chromium.mjs';

export interface Inventory {
  tags: string[];
  attributes: string[];
  hrefs: string[];
  text: string;
  depth: number;
}

export interface MarkdownPage {
  /** Normalised DOM of our renderer and of marked, per source. */
  both(sources: readonly string[]): Promise<{ ours: string; marked: string }[]>;
  inventory(sources: readonly string[]): Promise<Inventory[]>;
  /** The allow-list pass alone on markup the renderer would never make. */
  allowListOnly(html: string): Promise<{ normalised: string; inventory: Inventory }>;
  /** The shortest of `runs` renders of each source, taken in turns (ms, for ratios only), and the nodes each made. */
  measure(sources: readonly string[], runs: number): Promise<{ milliseconds: number; nodes: number }[]>;
  close(): Promise<void>;
}

export async function openMarkdownPage(): Promise<MarkdownPage> {
  const code = await buildBrowserBundle({ write: false, minify: false, entryPoint: fileURLToPath(new URL('../markdown-entry.ts', import.meta.url)) });
  const browser: Browser = await launchChromium();
  const page: Page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: code, type: 'module' });
  await page.waitForFunction(() => 'markdownTest' in globalThis);
  type Api = {
    ours(source: string): string;
    marked(source: string): string;
    inventory(source: string): Inventory;
    allowListOnly(html: string): { normalised: string; inventory: Inventory };
    measure(sources: readonly string[], runs: number): { milliseconds: number; nodes: number }[];
  };
  return {
    both: (sources) =>
      page.evaluate((list) => {
        const api = (globalThis as unknown as { markdownTest: Api }).markdownTest;
        return list.map((source) => ({ ours: api.ours(source), marked: api.marked(source) }));
      }, sources),
    inventory: (sources) =>
      page.evaluate((list) => {
        const api = (globalThis as unknown as { markdownTest: Api }).markdownTest;
        return list.map((source) => api.inventory(source));
      }, sources),
    allowListOnly: (html) => page.evaluate((markup) => (globalThis as unknown as { markdownTest: Api }).markdownTest.allowListOnly(markup), html),
    measure: (sources, runs) =>
      page.evaluate(
        ([list, count]) => {
          return (globalThis as unknown as { markdownTest: Api }).markdownTest.measure(list, count);
        },
        [sources, runs] as const,
      ),
    close: () => browser.close(),
  };
}
