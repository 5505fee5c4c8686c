import { mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildBrowserBundle } from '../../web/scripts/bundle.mjs';
import { startDemo, type Demo, type StartDemoOptions } from '../src/index.js';
import { toolResults } from '../test/helpers.js';

// The demo as a newcomer meets it: the printed URL opened in a real Chromium, the questions
// answered by clicking, and the transcript checked for what the model received.

const chromiumPath = process.env['ASKSEAM_CHROMIUM'] ?? '/usr/bin/chromium';
/** Screenshots that are test artifacts only (gitignored). */
const artifactsDir = fileURLToPath(new URL('../test-results/', import.meta.url));
/** The screenshot kept for the README; rewritten only with ASKSEAM_UPDATE_SCREENSHOTS=1. */
const docsImagesDir = fileURLToPath(new URL('../docs/images/', import.meta.url));

let browser: Browser;
/** One page for the file (opening a page is the slow part); each test navigates it to its own demo. */
let page: Page;
let bundleDir: string;
let bundlePath: string;
let pageErrors: string[] = [];
let running: Demo | undefined;

beforeAll(async () => {
  mkdirSync(artifactsDir, { recursive: true });
  const [launched, code] = await Promise.all([
    chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'] }),
    // From source and in memory: a clean clone has no dist/ bundle until `pnpm build`.
    buildBrowserBundle({ write: false, minify: false }),
  ]);
  browser = launched;
  page = await browser.newPage({ viewport: { width: 900, height: 1000 }, colorScheme: 'light' });
  // A CSP violation or a failed script shows up here, so a page that silently breaks fails the test.
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  bundleDir = await mkdtemp(join(tmpdir(), 'askseam-demo-e2e-'));
  bundlePath = join(bundleDir, 'askseam-questions.js');
  await writeFile(bundlePath, code);
});

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await rm(bundleDir, { recursive: true, force: true });
});

afterEach(async () => {
  // Leave the demo's page first, so its socket is gone before the host closes.
  await page.goto('about:blank');
  await running?.close();
  running = undefined;
  pageErrors = [];
});

async function openDemo(options: StartDemoOptions = {}, address?: (demo: Demo) => string): Promise<{ demo: Demo; lines: string[] }> {
  const lines: string[] = [];
  const demo = await startDemo({ port: 0, bundlePath, print: (line) => lines.push(line), ...options });
  running = demo;
  // The URL exactly as the terminal printed it.
  const printed = lines.find((line) => line.trim().startsWith('http://'))?.trim() ?? '';
  await page.goto(address ? address(demo) : printed);
  return { demo, lines };
}

function waitForQuestion(question: string): Promise<void> {
  return page.getByRole('heading', { name: question }).waitFor();
}

describe('pnpm demo in a browser', () => {
  it('takes a person from the printed URL through the questions to an approved plan (screenshot)', async () => {
    const { demo, lines } = await openDemo();
    expect(lines.some((line) => line.trim() === demo.url)).toBe(true);

    await waitForQuestion('Which framework should the new website use?');
    await page.screenshot({ path: `${artifactsDir}demo-page.png` });
    if (process.env['ASKSEAM_UPDATE_SCREENSHOTS'] === '1') {
      mkdirSync(docsImagesDir, { recursive: true });
      await page.locator('main').screenshot({ path: `${docsImagesDir}demo-page.png` });
    }
    await page.getByRole('radio', { name: /Astro/ }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('checkbox', { name: /Blog with Markdown posts/ }).check();
    await page.getByRole('checkbox', { name: /Dark mode/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();

    await waitForQuestion('What should the project be called? It becomes the folder name and the site title.');
    await page.getByRole('textbox', { name: 'Your answer' }).fill('Pebble Notes');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radio', { name: /Static hosting/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();

    await waitForQuestion('Approve this plan and start implementing?');
    const plan = page.getByRole('region', { name: 'Plan' });
    expect(await plan.getByRole('heading', { name: 'Plan: set up "Pebble Notes"' }).isVisible()).toBe(true);
    await page.locator('askseam-questions .card').screenshot({ path: `${artifactsDir}demo-plan-review.png` });
    await page.getByRole('button', { name: 'Approve' }).click();

    expect(await demo.done).toMatchObject({ status: 'approved' });
    expect(toolResults(lines, 'ask_user_question')).toEqual([
      '{"answers":[{"id":"framework","selected":["Astro (Recommended)"]},{"id":"features","selected":["Blog with Markdown posts","Dark mode"]}]}',
      '{"answers":[{"id":"project-name","selected":[],"custom":"Pebble Notes"},{"id":"hosting","selected":["Static hosting (Recommended)"]}]}',
    ]);
    expect(toolResults(lines, 'exit_plan_mode')).toEqual([expect.stringMatching(/approved/)]);
    expect(pageErrors).toEqual([]);
  });

  it('runs the same questions over HTTP + Server-Sent Events with --transport sse', async () => {
    const webSockets: string[] = [];
    const streams: string[] = [];
    const onSocket = (socket: { url(): string }) => webSockets.push(socket.url());
    const onRequest = (request: { url(): string }) => {
      if (new URL(request.url()).pathname === '/askseam/events') streams.push(request.url());
    };
    page.on('websocket', onSocket);
    page.on('request', onRequest);
    try {
      const { demo, lines } = await openDemo({ transport: 'sse' });
      await waitForQuestion('Which framework should the new website use?');
      await page.getByRole('radio', { name: /Astro/ }).check();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('checkbox', { name: /Dark mode/ }).check();
      await page.getByRole('button', { name: 'Submit' }).click();

      await waitForQuestion('What should the project be called? It becomes the folder name and the site title.');
      await page.getByRole('textbox', { name: 'Your answer' }).fill('Pebble Notes');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('radio', { name: /Static hosting/ }).check();
      await page.getByRole('button', { name: 'Submit' }).click();

      await waitForQuestion('Approve this plan and start implementing?');
      await page.getByRole('button', { name: 'Approve' }).click();

      expect(await demo.done).toMatchObject({ status: 'approved' });
      expect(toolResults(lines, 'ask_user_question')).toEqual([
        '{"answers":[{"id":"framework","selected":["Astro (Recommended)"]},{"id":"features","selected":["Dark mode"]}]}',
        '{"answers":[{"id":"project-name","selected":[],"custom":"Pebble Notes"},{"id":"hosting","selected":["Static hosting (Recommended)"]}]}',
      ]);
      // Over SSE only: the page's element opened the event stream with the token and never dialled a socket.
      expect(webSockets).toEqual([]);
      expect(streams.length).toBeGreaterThan(0);
      expect(new URL(streams[0] ?? '').searchParams.get('token')).toBe(demo.token);
      expect(pageErrors).toEqual([]);
    } finally {
      page.off('websocket', onSocket);
      page.off('request', onRequest);
    }
  });

  it('sends the feedback typed on the plan card back to the agent, which revises the plan', async () => {
    const { lines } = await openDemo();
    await waitForQuestion('Which framework should the new website use?');
    await page.getByRole('button', { name: 'Dismiss' }).waitFor();
    // Skip straight through both batches: every question may be skipped.
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Skip this question' }).click();
      await page.getByRole('button', { name: 'Skip this question' }).click();
      await page.getByRole('button', { name: 'Submit' }).click();
      if (i === 0) await waitForQuestion('What should the project be called? It becomes the folder name and the site title.');
    }

    await waitForQuestion('Approve this plan and start implementing?');
    await page.getByRole('textbox', { name: 'Or tell the agent what to change' }).fill('Add a newsletter signup.');
    await page.getByRole('button', { name: 'Send feedback' }).click();

    await page.getByRole('region', { name: 'Plan' }).getByRole('heading', { name: 'Changes after review 1' }).waitFor();
    expect(toolResults(lines, 'exit_plan_mode')[0]).toContain('Add a newsletter signup.');
    expect(pageErrors).toEqual([]);
  });

  it('speaks Chinese with ?lang=zh, on the page and in the element', async () => {
    await openDemo({ lang: 'zh' }, (demo) => `${demo.url}&lang=zh`);
    await waitForQuestion('新网站用哪个框架？');

    expect(await page.getByRole('heading', { name: 'askseam 演示' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: '下一题' }).isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('tells the person to open the printed URL when the address has no token', async () => {
    await openDemo({}, (demo) => `http://127.0.0.1:${demo.port}/`);

    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Open the exact URL printed in the terminal');
  });
});
