// The operator console in real Chromium: an operator sees every session's waiting questions,
// withdraws one (its asker gets a typed error), reads the history and a session's timeline; a
// session's user and a one-question link holder get 403; hostile question text stays inert.
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebSocketHost, type Principal, type WebSocketHost } from '@askseam/host-ws';
import { UserQuestions, hasUserQuestionErrorCode, type AgentRef, type AskUserQuestionAnswer } from '@askseam/user-questions';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildConsoleBundle } from '../scripts/bundle.mjs';
import { artifactsDir, launchBrowser, readmeImagesDir, updateReadmeScreenshots } from './support/browser.js';

const OPERATOR_TOKEN = 'operator-e2e-token-0123456789';
const LINK_SECRET = 'a-link-secret-of-at-least-32-bytes!!';
const HOSTILE = '<img src=x onerror="window.__pwned = true"><script>window.__pwned = true</script>';

/** A session's user signs in with a cookie `user=<session>` and sees that session only. */
function authenticate(req: IncomingMessage): Principal | undefined {
  const session = /(?:^|;\s*)user=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
  return session === undefined ? undefined : { id: `user-of-${session}`, canSee: (id) => id === session };
}

let browser: Browser;
let host: WebSocketHost;
let userQuestions: UserQuestions;
let page: Page;
let base: string;
const agents = new Map<string, AgentRef>(['deployer', 'reviewer'].map((id) => [id, { id }]));

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'askseam-console-e2e-'));
  const script = join(dir, 'askseam-console.js');
  await writeFile(script, await buildConsoleBundle({ write: false }));
  userQuestions = new UserQuestions({ agents: { get: (id) => agents.get(id), roots: () => agents.values() } });
  host = await createWebSocketHost({
    userQuestions,
    port: 0,
    authenticate,
    operatorToken: OPERATOR_TOKEN,
    consoleScript: script,
    linkSecret: LINK_SECRET,
    linkBaseUrl: 'https://app.example/answer',
  });
  base = host.url.replace(/^ws:/, 'http:');
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

afterEach(async () => {
  await page?.context().close();
});

async function newPage(cookie?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 }, colorScheme: 'light', locale: 'en-US' });
  if (cookie !== undefined) await context.addCookies([{ name: 'user', value: cookie, url: base }]);
  page = await context.newPage();
  return page;
}

function ask(agent: string, question: string): Promise<AskUserQuestionAnswer> & { settled: Promise<unknown> } {
  const promise = userQuestions.ask({ agent: agents.get(agent)!, questions: [{ id: 'q', header: 'Check', question, options: [{ label: 'Yes' }, { label: 'No' }] }], urgency: 'high' });
  const settled = promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  return Object.assign(promise, { settled });
}

async function savedCount(count: number): Promise<void> {
  await expect.poll(async () => (await host.store.listPending('all')).length).toBe(count);
}

describe('the operator console in Chromium', () => {
  it('lists what waits across sessions, withdraws one, shows the history and the session timeline, and keeps hostile text inert', async () => {
    const deploy = ask('deployer', 'Deploy v2 to production?');
    await savedCount(1);
    const hostile = ask('reviewer', HOSTILE);
    await savedCount(2);

    const page = await newPage();
    await page.goto(`${base}/console?token=${OPERATOR_TOKEN}`);
    const rows = page.locator('askseam-console section[aria-labelledby="pending-title"] tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // The token left the address bar once the element took it.
    expect(new URL(page.url()).searchParams.get('token')).toBeNull();
    const deployRow = page.locator('askseam-console section[aria-labelledby="pending-title"] tr', { hasText: 'Deploy v2 to production?' });
    expect(await deployRow.locator('td').first().textContent()).toBe('deployer');
    expect(await deployRow.locator('td[data-urgency]').textContent()).toBe('high');

    // Hostile text is shown as the characters it is, and nothing of it ran or loaded.
    const hostileRow = page.locator('askseam-console section[aria-labelledby="pending-title"] tr', { hasText: 'onerror' });
    expect(await hostileRow.locator('td.question').textContent()).toBe(`Check: ${HOSTILE}`);
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(await page.locator('askseam-console img').count()).toBe(0);

    await deployRow.getByRole('button', { name: 'Withdraw' }).click();
    await deployRow.getByRole('textbox', { name: 'Reason for withdrawing' }).fill('wrong environment');
    await deployRow.getByRole('button', { name: 'Confirm withdraw' }).click();
    const error = await deploy.settled;
    expect(hasUserQuestionErrorCode(error, 'ASK_ABORTED')).toBe(true);
    expect((error as Error).message).toContain('wrong environment');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.locator('askseam-console .status').textContent()).toMatch(/^Withdrew question /);

    const historyRow = page.locator('askseam-console section[aria-labelledby="history-title"] tbody tr', { hasText: 'Deploy v2 to production?' });
    await historyRow.waitFor();
    expect(await historyRow.locator('td[data-outcome]').textContent()).toBe('aborted');

    await historyRow.getByRole('button', { name: 'deployer' }).click();
    const timeline = page.getByRole('list', { name: 'Timeline of session deployer' });
    await timeline.waitFor();
    expect(await timeline.locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-type')))).toEqual(['human_input_requested', 'aborted']);
    expect(await timeline.locator('li[data-type="aborted"] pre').textContent()).toContain('"principalId": "operator-token"');

    await page.locator('askseam-console figure').first().waitFor();
    await page.screenshot({ path: join(artifactsDir, 'console.png'), fullPage: true });
    if (updateReadmeScreenshots) await page.screenshot({ path: join(readmeImagesDir, 'console.png'), fullPage: true });

    await host.withdraw(host.pending()[0]!.rpcId, { by: 'test-cleanup' });
    await hostile.settled;
  });

  it('gives a session\'s own user and a one-question link holder 403, and a stranger 401, with nothing shown', async () => {
    const asking = ask('deployer', 'Rotate the key?');
    await savedCount(1);
    const rpcId = host.pending()[0]!.rpcId;

    const userPage = await newPage('deployer');
    const asUser = await userPage.goto(`${base}/console`);
    expect(asUser?.status()).toBe(403);
    expect(await userPage.locator('askseam-console').count()).toBe(0);
    // The same user may still use the ordinary API for their own session: the 403 is the console's alone.
    expect((await userPage.request.get(`${base}/questions`)).status()).toBe(200);

    const link = new URL(host.linkFor(rpcId)).searchParams.get('link')!;
    const linkPage = await newPage();
    expect((await linkPage.goto(`${base}/console?link=${encodeURIComponent(link)}`))?.status()).toBe(403);
    expect((await linkPage.goto(`${base}/console`))?.status()).toBe(401);
    expect((await linkPage.request.post(`${base}/console/api/questions/${rpcId}/withdraw?link=${encodeURIComponent(link)}`, { data: {} })).status()).toBe(403);
    expect(host.pending().map((question) => question.rpcId)).toEqual([rpcId]);

    await host.withdraw(rpcId);
    await asking.settled;
  });
});
