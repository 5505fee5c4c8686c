import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { connectQuestions, type PendingQuestion } from '@askseam/client';
import { createWebSocketHost } from '@askseam/host-ws';
import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { WebSocket } from 'ws';
import { launchBrowser } from '../e2e/support/browser.js';
import { buildBrowserBundle, buildConsoleBundle } from '../scripts/bundle.mjs';
import { askReleaseSettings } from './ask-a-form.js';
import { mountQuestions } from './mount-with-client.js';
import { servePage, type ServedPage } from './serve-page.js';
import { startHostWithConsole } from './serve-console.js';

const dropInHtml = readFileSync(new URL('./drop-in.html', import.meta.url), 'utf8');
const token = 'example-token';
const agent: AgentRef = { id: 'example-agent' };

let browser: Browser;
let served: ServedPage | undefined;
let page: Page | undefined;

beforeAll(async () => {
  // servePage reads the bundle from dist/, where `pnpm -F @askseam/web build` puts it.
  [browser] = await Promise.all([launchBrowser(), buildBrowserBundle({ write: true }), buildConsoleBundle({ write: true })]);
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await page?.close();
  await served?.close();
});

function seam(): UserQuestions {
  return new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
}

describe('README examples', () => {

  it('serves the drop-in page, whose element answers a real question', async () => {
    const userQuestions = seam();
    served = await servePage({ userQuestions, token, pageHtml: dropInHtml.replace('YOUR-TOKEN', token) });
    page = await browser.newPage();
    await page.goto(served.url);
    const result = executeAskUserQuestion(
      { questions: [{ id: 'go', question: 'Ship it?', options: [{ label: 'Yes (Recommended)' }, { label: 'Not yet' }] }] },
      { userQuestions, agent },
    );
    await page.getByRole('radio', { name: /Yes/ }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    expect(await result).toEqual({ isError: false, text: '{"answers":[{"id":"go","selected":["Yes (Recommended)"]}]}' });
  });

  it('mounts the element with a client of your own and reports the waiting count', async () => {
    expectTypeOf(mountQuestions).returns.toHaveProperty('client');
    const userQuestions = seam();
    served = await servePage({ userQuestions, token, pageHtml: '<!doctype html><meta charset="utf-8"><body></body>' });
    page = await browser.newPage();
    await page.goto(served.url);
    const code = await buildBrowserBundle({ write: false, entryPoint: fileURLToPath(new URL('./mount-with-client.ts', import.meta.url)) });
    const wsUrl = `${served.url.replace('http:', 'ws:')}askseam`;
    // A string, so that no test transform rewrites the page's dynamic import().
    await page.evaluate(`(async () => {
      const moduleUrl = URL.createObjectURL(new Blob([${JSON.stringify(code)}], { type: 'text/javascript' }));
      const { mountQuestions } = await import(moduleUrl);
      window.counts = [];
      mountQuestions(document.body, ${JSON.stringify(wsUrl)}, ${JSON.stringify(token)}, (count) => window.counts.push(count));
    })()`);
    const answer = userQuestions.ask({ questions: [{ id: 'name', question: 'Project name?' }], agent });
    await page.getByRole('textbox', { name: 'Your answer' }).fill('askseam');
    await page.keyboard.press('Enter');
    expect(await answer).toEqual({ answers: [{ id: 'name', selected: [], custom: 'askseam' }] });
    await expect.poll(() => page!.evaluate(() => (window as unknown as { counts: number[] }).counts), { timeout: 10_000 }).toEqual([1, 0]);
  });

  it('asks an urgent release form through the host and reads the answer back as typed values', async () => {
    const userQuestions = seam();
    const host = await createWebSocketHost({ userQuestions, port: 0, token });
    const client = connectQuestions({ url: host.url, token, WebSocket });
    try {
      const requested = new Promise<PendingQuestion>((resolve) => client.on('requested', resolve));
      const settings = askReleaseSettings(userQuestions, agent);
      const pending = await requested;
      expect(pending.urgency).toBe('high');
      expect(pending.questions.map((question) => question.input?.kind)).toEqual(['text', 'textarea', 'number', 'select', 'multi_select', 'checkbox', 'date']);
      await pending.answer({
        answers: [
          { id: 'version', selected: [], custom: 'v1.5.0' },
          { id: 'notes', selected: [] },
          { id: 'canary', selected: [], custom: '25' },
          { id: 'channel', selected: ['stable (Recommended)'] },
          { id: 'regions', selected: ['eu-west', 'us-east'] },
          { id: 'migrate', selected: [], custom: 'false' },
          { id: 'day', selected: [], custom: '2026-04-01' },
        ],
      });
      expect(await settings).toEqual({
        version: 'v1.5.0',
        notes: undefined,
        canaryPercent: 25,
        channel: 'stable (Recommended)',
        regions: ['eu-west', 'us-east'],
        migrate: false,
        day: '2026-04-01',
      });
    } finally {
      client.close();
      await host.close();
    }
  });
});

describe('the console example', () => {
  it('serves the console page to an operator (token or cookie) and 403 to a signed-in user', async () => {
    const host = await startHostWithConsole(seam(), 'example-operator-token');
    try {
      const base = host.url.replace(/^ws:/, 'http:');
      const page = await fetch(`${base}/console?token=example-operator-token`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<askseam-console');
      expect((await fetch(`${base}/console/api/pending`, { headers: { cookie: 'demo-user=ops' } })).status).toBe(200);
      expect((await fetch(`${base}/console/api/pending`, { headers: { cookie: 'demo-user=alex' } })).status).toBe(403);
      const bundle = await fetch(`${base}/console/askseam-console.js`);
      expect(bundle.status).toBe(200);
      expect(await bundle.text()).toContain('askseam-console');
    } finally {
      await host.close();
    }
  });
});
