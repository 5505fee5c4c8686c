import { executeAskUserQuestion } from '@askseam/tool-ask-user';
import type { AskUserQuestionAnswer, AskUserQuestionItem, AskUserQuestionRequest } from '@askseam/user-questions';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { bundleFromSource, launchBrowser, mountElement, openTestPage, type MountOptions, type TestPage } from './browser.js';
import type { WebSocketHostOptions } from '@askseam/host-ws';
import { startStage, type Stage, type Transport } from './stage.js';

export interface BrowserTest {
  readonly stage: Stage;
  readonly page: Page;
  /** Every URL the page asked for during this test. */
  readonly requests: readonly string[];
  readonly pageErrors: readonly string[];
  /** Put one fresh element on the page (replacing the previous test's). */
  mount(options?: MountOptions): Promise<Page>;
  /** The model's side: one `ask_user_question` tool call, resolving to the tool result the model reads. */
  askTool(questions: unknown[]): ReturnType<typeof executeAskUserQuestion>;
  /**
   * An in-process caller's side: `userQuestions.ask`, with the fields the tool cannot send (detail,
   * intent, typed inputs) and, in `options`, the request's urgency.
   */
  ask(questions: AskUserQuestionItem[], options?: Pick<AskUserQuestionRequest, 'urgency'>): Promise<AskUserQuestionAnswer>;
  /** Aborted after the test: pass it to any other asking call, and hand that call's promise to `track`. */
  readonly signal: AbortSignal;
  /** Settle `promise` (whatever its outcome) before the next test starts. */
  track<T>(promise: Promise<T>): Promise<T>;
}

/**
 * Hooks for one browser test file (or one `describe` of it): one Chromium, one stage (HTTP server
 * + host + seam) reached over `transport`, and one page; each test mounts a fresh element, and
 * whatever it left pending is withdrawn after it, so tests never see each other's questions.
 */
export function useBrowserTest(transport: Transport = 'ws', hostOptions: Partial<WebSocketHostOptions> = {}): BrowserTest {
  let browser: Browser | undefined;
  let stage: Stage | undefined;
  let testPage: TestPage | undefined;
  let withdraw = new AbortController();
  const asks: Promise<unknown>[] = [];

  beforeAll(async () => {
    let bundle: string;
    [browser, bundle] = await Promise.all([launchBrowser(), bundleFromSource()]);
    stage = await startStage(bundle, transport, hostOptions);
    testPage = await openTestPage(browser, stage);
  });
  afterAll(async () => {
    await testPage?.page.close();
    await stage?.close();
    await browser?.close();
  });
  beforeEach(() => {
    withdraw = new AbortController();
    testPage?.resetRecords();
    stage?.events.splice(0);
  });
  afterEach(async () => {
    withdraw.abort();
    await Promise.allSettled(asks.splice(0));
    stage?.refuseConnections(false);
    await testPage?.page.evaluate(() => {
      for (const element of document.querySelectorAll('askseam-questions')) element.remove();
    });
  });

  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The browser stage exists only inside a test.');
    return value;
  };
  return {
    get stage() {
      return current(stage);
    },
    get page() {
      return current(testPage).page;
    },
    get requests() {
      return current(testPage).requests;
    },
    get pageErrors() {
      return current(testPage).pageErrors;
    },
    async mount(options) {
      await mountElement(current(testPage).page, current(stage), options);
      return current(testPage).page;
    },
    askTool(questions) {
      const { userQuestions, agent } = current(stage);
      const result = executeAskUserQuestion({ questions }, { userQuestions, agent, signal: withdraw.signal });
      asks.push(result);
      return result;
    },
    get signal() {
      return withdraw.signal;
    },
    track(promise) {
      asks.push(promise.catch(() => undefined));
      return promise;
    },
    ask(questions, options = {}) {
      const { userQuestions, agent } = current(stage);
      const answer = userQuestions.ask({ ...options, questions, agent, signal: withdraw.signal });
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

/** The `data-focus` key (or tag name) of the control focused inside the element's shadow root. */
export function focused(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const active = document.querySelector('askseam-questions')?.shadowRoot?.activeElement as HTMLElement | null | undefined;
    if (!active) return undefined;
    return active.dataset['focus'] ?? active.tagName.toLowerCase();
  });
}

/**
 * Hold the page's next outgoing frames and rewrite its next answer to name another session, as a
 * stale tab would, so the host refuses it with bad-response once `releaseSends` lets it go.
 * Needs a page mounted with `mode: 'client'`.
 */
export async function holdNextAnswerAsStale(page: Page): Promise<void> {
  await page.evaluate(() => {
    const sends = (window as unknown as { __sends: { hold: boolean; rewriteNextAnswer: (frame: any) => void } }).__sends;
    sends.hold = true;
    sends.rewriteNextAnswer = (frame) => {
      frame.result.value.sessionId = 'a-stale-session';
    };
  });
}

/** Let the frames held by `holdNextAnswerAsStale` go. */
export async function releaseSends(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __releaseSends(): void }).__releaseSends());
}

export interface CountChecksOptions {
  /**
   * Question ids whose text input the card is shown without its `maxLength`: the card then lets a
   * long value through, and only the client's own check, against the questions it holds, finds it.
   */
  hideMaxLengthOf?: string[];
}

/**
 * Hand the element (mounted with `mode: 'client'`) its own client again, seen through a thin view
 * that counts every `PendingQuestion.check` the element calls. `answer` and `cancel` stay the real
 * client's, which check the answer against the questions the client holds. Read the count with
 * `elementChecks`.
 */
export async function countElementChecks(page: Page, options: CountChecksOptions = {}): Promise<void> {
  await page.evaluate((hidden) => {
    type Question = { id: string; input?: { kind: string; maxLength?: number } };
    type Pending = { rpcId: string; questions: Question[]; check(answer: unknown): unknown };
    type Client = { pending: Map<string, Pending>; status: string; on(...args: unknown[]): () => void; answer(...args: unknown[]): unknown; cancel(...args: unknown[]): unknown; close(): void };
    const element = document.querySelector('askseam-questions') as unknown as { client: Client };
    const real = element.client;
    const counter = window as unknown as { __elementChecks: number };
    counter.__elementChecks = 0;
    // One view object per rpcId: the element tells requests apart by object as well as by rpcId.
    const views = new Map<string, Pending>();
    const viewOf = (question: Pending): Pending => {
      let view = views.get(question.rpcId);
      if (!view) {
        const questions = question.questions.map((each) => {
          if (!hidden.includes(each.id) || each.input === undefined) return each;
          const { maxLength: _hidden, ...input } = each.input;
          return { ...each, input };
        });
        view = Object.freeze({
          ...question,
          questions,
          check: (answer: unknown) => {
            counter.__elementChecks += 1;
            return question.check(answer);
          },
        });
        views.set(question.rpcId, view);
      }
      return view;
    };
    element.client = {
      get pending() {
        return new Map([...real.pending].map(([rpcId, question]) => [rpcId, viewOf(question)]));
      },
      get status() {
        return real.status;
      },
      on: (...args) => real.on(...args),
      answer: (...args) => real.answer(...args),
      cancel: (...args) => real.cancel(...args),
      close: () => real.close(),
    };
  }, options.hideMaxLengthOf ?? []);
}

/** How many times the element called `PendingQuestion.check` since `countElementChecks`. */
export function elementChecks(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __elementChecks: number }).__elementChecks);
}
