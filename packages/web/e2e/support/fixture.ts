import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { bundleFromSource, launchBrowser, mountElement, type MountedPage, type MountOptions } from './browser.js';
import { startStage, type Stage } from './stage.js';

export interface BrowserTest {
  readonly stage: Stage;
  /** Open a fresh page with one element on it; closed after the test. */
  mount(options?: MountOptions): Promise<MountedPage>;
  /** The model's side: one `ask_user_question` tool call, resolving to the tool result the model reads. */
  askTool(questions: unknown[]): ReturnType<typeof executeAskUserQuestion>;
  /** An in-process caller's side: `userQuestions.ask` with fields the tool cannot send (detail, intent). */
  ask(questions: AskUserQuestionItem[]): Promise<unknown>;
}

/**
 * Hooks for one browser test file: one Chromium for the file, and per test a fresh stage (HTTP
 * server + host + seam) and fresh pages, all closed after each test.
 */
export function useBrowserTest(): BrowserTest {
  let browser: Browser | undefined;
  let bundle = '';
  let stage: Stage | undefined;
  const pages: MountedPage[] = [];
  const asks: Promise<unknown>[] = [];

  beforeAll(async () => {
    [browser, bundle] = await Promise.all([launchBrowser(), bundleFromSource()]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    stage = await startStage(bundle);
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((mounted) => mounted.page.close()));
    await stage?.close();
    // host.close() rejects whatever a test left pending; those rejections are expected here.
    await Promise.allSettled(asks.splice(0));
  });

  const current = (): Stage => {
    if (!stage) throw new Error('The stage exists only inside a test.');
    return stage;
  };
  return {
    get stage() {
      return current();
    },
    async mount(options) {
      if (!browser) throw new Error('The browser is not running.');
      const mounted = await mountElement(browser, current(), options);
      pages.push(mounted);
      return mounted;
    },
    askTool(questions) {
      const result = executeAskUserQuestion({ questions }, { userQuestions: current().userQuestions, agent: current().agent });
      asks.push(result);
      return result;
    },
    ask(questions) {
      const answer = current().userQuestions.ask({ questions, agent: current().agent });
      asks.push(answer.catch(() => undefined));
      return answer;
    },
  };
}

/** The card of the element on `page` (Playwright's CSS locators pierce open shadow roots). */
export function cardOf(page: Page): Locator {
  return page.locator('askseam-questions .card');
}

/** Wait for the element to show a card with this question heading. */
export async function waitForQuestion(page: Page, question: string | RegExp): Promise<void> {
  await page.getByRole('heading', { name: question }).waitFor();
}

/** The control that has focus inside the element's shadow root, described for assertions. */
export function focused(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const active = document.querySelector('askseam-questions')?.shadowRoot?.activeElement as HTMLElement | null | undefined;
    if (!active) return undefined;
    return active.dataset['focus'] ?? active.tagName.toLowerCase();
  });
}
