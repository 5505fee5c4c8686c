// Types for the probe's test (e2e/bench-browser.test.ts); the bench itself is plain JavaScript.
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';

export interface BrowserStage {
  /** http://127.0.0.1:<port>: `/?transport=ws|sse[&cold=<marker>]` is the page. */
  readonly origin: string;
  /** The bare `ws` server of the plain baseline. */
  readonly plainUrl: string;
  ask(questions: AskUserQuestionItem[]): Promise<AskUserQuestionAnswer>;
  sendPlain(text: string): void;
  close(): Promise<void>;
}

export declare function startBrowserStage(options: { bundle: string }): Promise<BrowserStage>;
