// One question at a time through the browser stage (lib/browser-stage.mjs), timed by the visible
// probe (lib/visible-probe.mjs): through the element, through the plain baseline handler, and the
// first question of a cold page load. The browser section and the probe's test both drive these.
import { seamAnswer, seamQuestions } from './fixtures.mjs';

// The two questions: the first question of the bench batch alone, and the whole batch (a form of
// three). `marker` makes each ask's text unique, so the probe knows which frame and which text.
export const fixtures = {
  single: {
    questions: (marker) => seamQuestions(` ${marker}`).slice(0, 1),
    answer: { answers: [{ id: 'database', selected: ['PostgreSQL (Recommended)'] }] },
  },
  form: { questions: (marker) => seamQuestions(` ${marker}`), answer: seamAnswer() },
};

let asked = 0;
export const nextMarker = () => `q${String(++asked).padStart(6, '0')}z`;

// The screen updates once per frame (about 16.7 ms), so "painted" depends on where in that frame
// the question arrives. Two things would make that differ between variants and runs: an idle page
// lets Chromium stop its frame clock and start it again at once for the next change (so "painted"
// would depend on how long the page sat idle), and a sample ends just after a paint while the steps
// after it take a fixed time per variant (so each variant would meet the clock at its own phase).
// So the measured pages keep the frame clock running (an empty requestAnimationFrame loop), and
// each question waits an offset in [0, one frame) before it is sent, from the golden-ratio sequence
// of its number: any block of questions covers the frame evenly, the same way for every variant.
const frameMs = 1000 / 60;
const goldenRatio = (Math.sqrt(5) - 1) / 2;
const phaseOffsetMs = (marker) => ((Number(marker.slice(1, -1)) * goldenRatio) % 1) * frameMs;

/** Wait the marker's offset to within a few µs (a timer is only good to a millisecond). */
async function phaseDelay(marker) {
  const until = performance.now() + phaseOffsetMs(marker);
  const coarse = until - performance.now() - 2;
  if (coarse > 0) await new Promise((resolve) => setTimeout(resolve, coarse));
  while (performance.now() < until) await new Promise((resolve) => setImmediate(resolve));
}

/** A page of the stage whose element is connected over `transport` ('ws' | 'sse'), its frame clock running. */
export async function openPage(browser, stage, transport) {
  const page = await browser.newPage({ viewport: { width: 760, height: 900 }, colorScheme: 'light', locale: 'en-US' });
  await page.goto(`${stage.origin}/?transport=${transport}`);
  await page.waitForFunction(() => window.__bench !== undefined && customElements.get('askseam-questions') !== undefined);
  await page.evaluate(() => window.__bench.clientOpen());
  await page.evaluate(() => window.__bench.keepFramesComing());
  return page;
}

/** Connect the page's plain baseline handler to the stage's bare `ws` server. */
export async function connectPlain(page, stage) {
  await page.evaluate((url) => window.__bench.plainConnect(url), stage.plainUrl);
}

/** Ask one question through the seam, time it onto the element, answer it from the page. */
export async function throughElement(page, stage, fixture, marker) {
  await page.evaluate((m) => void window.__visible.arm(m, 'element'), marker);
  await phaseDelay(marker);
  const answered = stage.ask(fixture.questions(marker));
  const sample = await page.evaluate(() => window.__visible.take());
  await page.evaluate((answer) => window.__bench.answerShown(answer), fixture.answer);
  await answered;
  return sample;
}

/**
 * One question of `fixture` through the element, and the text of its frame with its marker: what
 * the plain baseline replays, so both get the same bytes.
 */
export async function recordFrame(page, stage, fixture) {
  const marker = nextMarker();
  await throughElement(page, stage, fixture, marker);
  return { marker, text: await page.evaluate(() => window.__visible.lastFrame()) };
}

/** Send `template` (a frame recorded by throughElement, its marker swapped for `marker`) to the plain handler; time it; clear the page. */
export async function throughPlain(page, stage, template, marker) {
  await page.evaluate((m) => void window.__visible.arm(m, 'plain'), marker);
  await phaseDelay(marker);
  stage.sendPlain(template.text.replaceAll(template.marker, marker));
  const sample = await page.evaluate(() => window.__visible.take());
  await page.evaluate(() => window.__bench.plainClear());
  return sample;
}

/** A fresh context (empty cache), the question already pending: navigation start → painted. */
export async function coldLoad(browser, stage) {
  const marker = nextMarker();
  const answered = stage.ask(fixtures.single.questions(marker));
  const context = await browser.newContext({ viewport: { width: 760, height: 900 }, colorScheme: 'light', locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(`${stage.origin}/?transport=ws&cold=${marker}`);
    const sample = await page.evaluate(() => window.__visibleCold);
    await page.evaluate(() => window.__bench.clientOpen());
    await page.evaluate((answer) => window.__bench.answerShown(answer), fixtures.single.answer);
    await answered;
    return sample;
  } finally {
    await context.close();
  }
}
