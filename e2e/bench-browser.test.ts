// The browser bench's in-page probe (bench/lib/visible-probe.mjs), driven the way the bench drives
// it: the element bundled from source, the real host, real Chromium. These tests check what the
// probe reports (one sample per question, in order, from the right frame to the right text), never
// how fast anything is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserStage, type BrowserStage } from '../bench/lib/browser-stage.mjs';
import {
  coldLoad,
  connectPlain,
  fixtures,
  nextMarker,
  openPage,
  recordFrame,
  throughElement,
  throughPlain,
  type RecordedFrame,
  type VisibleSample,
} from '../bench/lib/visible-questions.mjs';
import { buildBrowserBundle } from '../packages/web/scripts/bundle.mjs';
import { launchChromium } from '../packages/web/scripts/chromium.mjs';

type Browser = Awaited<ReturnType<typeof launchChromium>>;
type Page = Awaited<ReturnType<typeof openPage>>;
/** The probe's page API, as the tests reach it through `page.evaluate`. */
type ProbeWindow = { __visible: { arm(marker: string, target: 'element' | 'plain'): Promise<VisibleSample>; take(): Promise<VisibleSample>; taken: VisibleSample[] } };

let browser: Browser;
let stage: BrowserStage;
let page: Page;
let single: RecordedFrame;

beforeAll(async () => {
  let bundle: string;
  [browser, bundle] = await Promise.all([launchChromium(), buildBrowserBundle({ write: false, minify: false })]);
  stage = await startBrowserStage({ bundle });
  page = await openPage(browser, stage, 'ws');
  await connectPlain(page, stage);
  single = await recordFrame(page, stage, fixtures.single);
});
afterAll(async () => {
  await browser?.close();
  await stage?.close();
});

const takenMarkers = (on: Page = page) => on.evaluate(() => (window as unknown as ProbeWindow).__visible.taken.map((sample) => sample.marker));
const arm = (marker: string, target: 'element' | 'plain') => page.evaluate(([m, t]) => void (window as unknown as ProbeWindow).__visible.arm(m, t), [marker, target] as const);
const take = () => page.evaluate(() => (window as unknown as ProbeWindow).__visible.take());

/** Each span starts at the frame and the steps come in order: in the DOM, laid out, painted. */
function expectOrdered(sample: VisibleSample, marker: string): void {
  expect(sample.marker).toBe(marker);
  expect(sample.frameAt).toBeGreaterThan(0);
  expect(sample.dom).toBeGreaterThanOrEqual(0);
  expect(sample.layout).toBeGreaterThanOrEqual(sample.dom);
  expect(sample.painted).toBeGreaterThanOrEqual(sample.layout);
  expect(sample.paintedAt).toBeCloseTo(sample.frameAt + sample.painted, 6);
}

describe('the visible probe', () => {
  it('reports one sample per question through the element, single choice and form alike', async () => {
    const before = await takenMarkers();
    const markers = [nextMarker(), nextMarker(), nextMarker()];
    const samples = [
      await throughElement(page, stage, fixtures.single, markers[0]!),
      await throughElement(page, stage, fixtures.form, markers[1]!),
      await throughElement(page, stage, fixtures.single, markers[2]!),
    ];
    expect(await takenMarkers()).toEqual([...before, ...markers]);
    samples.forEach((sample, index) => {
      expectOrdered(sample, markers[index]!);
      expect(sample.hiddenFrames).toBe(0);
    });
  });

  it('times the plain baseline from the same frame text, one sample per frame it was armed for', async () => {
    const before = await takenMarkers();
    const marker = nextMarker();
    expectOrdered(await throughPlain(page, stage, single, marker), marker);
    expect(await takenMarkers()).toEqual([...before, marker]);
  });

  it('ignores frames without the armed marker, and a second frame of a question it already sampled', async () => {
    const before = await takenMarkers();
    const [other, armed, next] = [nextMarker(), nextMarker(), nextMarker()];
    const frame = (marker: string) => single.text.replaceAll(single.marker, marker);
    await arm(armed, 'plain');
    stage.sendPlain(frame(other));
    await page.waitForFunction((m) => document.getElementById('plain')!.textContent!.includes(m), other);
    const otherShownAt = await page.evaluate(() => performance.now());
    stage.sendPlain(frame(armed));
    const sample = await take();
    expectOrdered(sample, armed);
    // Timed from the armed question's own frame, not from the one before it.
    expect(sample.frameAt).toBeGreaterThan(otherShownAt);
    expect(await page.evaluate(() => (window as unknown as { __visible: { lastFrame(): string } }).__visible.lastFrame())).toContain(armed);
    // A replay of the sampled question, then a fresh one: only the fresh one is sampled.
    stage.sendPlain(frame(armed));
    await arm(next, 'plain');
    stage.sendPlain(frame(next));
    expectOrdered(await take(), next);
    expect(await takenMarkers()).toEqual([...before, armed, next]);
    await page.evaluate(() => document.getElementById('plain')!.replaceChildren());
  });

  it('counts text that is in the DOM but hidden as visible only once it is shown', async () => {
    const marker = nextMarker();
    await page.evaluate(() => {
      document.getElementById('plain')!.style.opacity = '0';
    });
    await arm(marker, 'plain');
    stage.sendPlain(single.text.replaceAll(single.marker, marker));
    await page.waitForFunction((m) => document.getElementById('plain')!.textContent!.includes(m), marker);
    // Two frames with the text in the DOM but transparent, then shown.
    const shownAt = await page.evaluate(async () => {
      for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
      document.getElementById('plain')!.style.opacity = '';
      return performance.now();
    });
    const sample = await take();
    expectOrdered(sample, marker);
    expect(sample.hiddenFrames).toBeGreaterThan(0);
    expect(sample.frameAt + sample.layout).toBeGreaterThanOrEqual(shownAt);
    await page.evaluate(() => document.getElementById('plain')!.replaceChildren());
  });

  it('refuses to arm a second question while the first is not sampled', async () => {
    const [first, second] = [nextMarker(), nextMarker()];
    await arm(first, 'plain');
    await expect(arm(second, 'plain')).rejects.toThrow(/still waiting for q\d+z/);
    stage.sendPlain(single.text.replaceAll(single.marker, first));
    expectOrdered(await take(), first);
    await page.evaluate(() => document.getElementById('plain')!.replaceChildren());
  });

  it('samples the first question of a cold page load from its replayed frame', async () => {
    const sample = await coldLoad(browser, stage);
    expectOrdered(sample, sample.marker);
  });

  it('samples a question over HTTP + SSE (the EventSource is probed too)', async () => {
    const ssePage = await openPage(browser, stage, 'sse');
    try {
      const marker = nextMarker();
      expectOrdered(await throughElement(ssePage, stage, fixtures.single, marker), marker);
      expect(await takenMarkers(ssePage)).toEqual([marker]);
    } finally {
      await ssePage.close();
    }
  });
});
