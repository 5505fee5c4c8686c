// Types for the probe's test (e2e/bench-browser.test.ts); the bench itself is plain JavaScript.
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';
import type { launchChromium } from '../../packages/web/scripts/chromium.mjs';
import type { BrowserStage } from './browser-stage.mjs';

type Browser = Awaited<ReturnType<typeof launchChromium>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

/** What the probe reports for one question (milliseconds; see visible-probe.mjs). */
export interface VisibleSample {
  marker: string;
  /** When the frame reached the page, on the page's clock (0 = navigation start). */
  frameAt: number;
  dom: number;
  layout: number;
  painted: number;
  paintedAt: number;
  hiddenFrames: number;
}

export interface VisibleFixture {
  questions(marker: string): AskUserQuestionItem[];
  answer: AskUserQuestionAnswer;
}

export interface RecordedFrame {
  marker: string;
  text: string;
}

export declare const fixtures: { single: VisibleFixture; form: VisibleFixture };
export declare function nextMarker(): string;
export declare function openPage(browser: Browser, stage: BrowserStage, transport: 'ws' | 'sse'): Promise<Page>;
export declare function connectPlain(page: Page, stage: BrowserStage): Promise<void>;
export declare function throughElement(page: Page, stage: BrowserStage, fixture: VisibleFixture, marker: string): Promise<VisibleSample>;
export declare function recordFrame(page: Page, stage: BrowserStage, fixture: VisibleFixture): Promise<RecordedFrame>;
export declare function throughPlain(page: Page, stage: BrowserStage, template: RecordedFrame, marker: string): Promise<VisibleSample>;
export declare function coldLoad(browser: Browser, stage: BrowserStage): Promise<VisibleSample>;
