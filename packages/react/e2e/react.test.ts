// @askseam/react in real Chromium: the example panel built by esbuild, hydrated over markup from
// renderToString or rendered fresh, against the real WebSocket host.
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, startApp, type AppStage } from './support/app.js';
import type { AppMode } from './support/entry.js';

const chromiumPath = process.env['ASKSEAM_CHROMIUM'] ?? '/usr/bin/chromium';
const deploy: AskUserQuestionItem = { id: 'deploy', question: 'Deploy to production now?', options: [{ label: 'Yes' }, { label: 'No' }] };

let browser: Browser;
let stage: AppStage;
const withdraw: AbortController[] = [];
const pages: Page[] = [];

beforeAll(async () => {
  let bundle: string;
  [browser, bundle] = await Promise.all([
    chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] }),
    buildApp(),
  ]);
  stage = await startApp(bundle);
});
afterEach(async () => {
  for (const controller of withdraw.splice(0)) controller.abort();
  for (const page of pages.splice(0)) await page.close();
});
afterAll(async () => {
  await stage?.close();
  await browser?.close();
});

/** Open the app; every console error and page error is collected. */
async function open(mode: AppMode): Promise<{ page: Page; errors: string[]; served: string }> {
  const page = await browser.newPage();
  pages.push(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  const response = await page.goto(`${stage.origin}/?mode=${mode}`);
  const served = (await response?.text()) ?? '';
  return { page, errors, served };
}

function ask(questions: AskUserQuestionItem[]) {
  const controller = new AbortController();
  withdraw.push(controller);
  const answer = stage.userQuestions.ask({ questions, agent: stage.agent, signal: controller.signal });
  answer.catch(() => undefined);
  return answer;
}

const summary = (page: Page) => page.getByTestId('summary');

/** The element's client is a property holding the live client, never a `client` attribute. */
const clientIsProperty = (page: Page) =>
  page.evaluate(() => {
    const element = document.querySelector('askseam-questions') as (HTMLElement & { client?: { status: string } }) | null;
    return { defined: customElements.get('askseam-questions') !== undefined, status: element?.client?.status, attribute: element?.hasAttribute('client') };
  });

describe('@askseam/react in Chromium', () => {
  it('hydrates the server-rendered panel without a mismatch, then the element gets the client and its events reach React', async () => {
    const { page, errors, served } = await open('hydrate');
    expect(served).toContain('<askseam-questions lang="en" notify=""></askseam-questions>');
    expect(served).toContain('none<!-- -->: <!-- -->0<!-- --> waiting');
    await summary(page).filter({ hasText: 'open: 0 waiting, 0 answered' }).waitFor();
    expect(await clientIsProperty(page)).toEqual({ defined: true, status: 'open', attribute: false });

    const answer = ask([deploy]);
    await page.getByRole('heading', { name: 'Deploy to production now?' }).waitFor();
    await summary(page).filter({ hasText: 'open: 1 waiting' }).waitFor();
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(answer).resolves.toEqual({ answers: [{ id: 'deploy', selected: ['Yes'] }] });
    // onAnswered ran: hydrateRoot adds no listeners to custom elements, the component's effect did.
    await summary(page).filter({ hasText: 'open: 0 waiting, 1 answered' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('renders fresh before the element is defined and still hands it the client as a property', async () => {
    const { page, errors } = await open('render');
    expect(await page.evaluate(() => (window as unknown as { __definedBeforeReact: boolean }).__definedBeforeReact)).toBe(false);
    await summary(page).filter({ hasText: 'open: 0 waiting, 0 answered' }).waitFor();
    expect(await clientIsProperty(page)).toEqual({ defined: true, status: 'open', attribute: false });

    const answer = ask([deploy]);
    await page.getByRole('radio', { name: 'No' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(answer).resolves.toEqual({ answers: [{ id: 'deploy', selected: ['No'] }] });
    await summary(page).filter({ hasText: 'open: 0 waiting, 1 answered' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('lists the pending requests from useQuestions and dismisses one through the hook', async () => {
    const { page, errors } = await open('hydrate');
    await summary(page).filter({ hasText: 'open: 0 waiting' }).waitFor();
    const answer = ask([{ ...deploy, question: 'Drop the staging database?' }]);
    const item = page.getByRole('listitem').filter({ hasText: 'Drop the staging database?' });
    await item.waitFor();
    await item.getByRole('button', { name: 'Dismiss' }).click();
    await expect(answer).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
    await item.waitFor({ state: 'detached' });
    await summary(page).filter({ hasText: 'open: 0 waiting, 0 answered' }).waitFor();
    // The element heard the same resolution and shows nothing.
    expect(await page.locator('askseam-questions .card').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  // The two cases React 19 alone gets wrong: nothing re-renders after the first render, so the
  // client and the listener must come from the component's effects.
  for (const mode of ['hydrate-given', 'render-given'] as const) {
    it(`${mode}: the element gets a client given at first render and reports answers to the callback`, async () => {
      const { page, errors } = await open(mode);
      expect(await page.evaluate(() => (window as unknown as { __definedBeforeReact: boolean }).__definedBeforeReact)).toBe(false);
      await page.waitForFunction(() => (document.querySelector('askseam-questions') as (HTMLElement & { client?: { status: string } }) | null)?.client?.status === 'open');
      expect(await clientIsProperty(page)).toEqual({ defined: true, status: 'open', attribute: false });
      const answer = ask([deploy]);
      await page.getByRole('radio', { name: 'Yes' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(answer).resolves.toEqual({ answers: [{ id: 'deploy', selected: ['Yes'] }] });
      await page.waitForFunction(() => (window as unknown as { __answered: string[] }).__answered.length === 1);
      expect(errors).toEqual([]);
    });
  }

  it('leaves the client it was given open when the element is removed from the page', async () => {
    const { page } = await open('render');
    await summary(page).filter({ hasText: 'open: 0 waiting' }).waitFor();
    // The element was given its client: removing it must not close that client (the page owns it).
    const status = await page.evaluate(() => {
      const element = document.querySelector('askseam-questions') as HTMLElement & { client?: { status: string } };
      const client = element.client;
      element.remove();
      return new Promise<string | undefined>((resolve) => queueMicrotask(() => queueMicrotask(() => resolve(client?.status))));
    });
    expect(status).toBe('open');
  });
});
