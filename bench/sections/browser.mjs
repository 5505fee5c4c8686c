// Section 7: from a `question/requested` frame reaching the page to the question being visible in
// Chromium, measured inside the page on one clock by the probe in lib/visible-probe.mjs (what
// "visible" means is written there). The real element (the built browser bundle) connects to the
// real host by its url/token attributes; the seam asks one question at a time and the page answers
// each through the element's client, so the next one is shown at once. Beside it, in the same
// page and run, the plain baseline: a bare `ws` socket receives the same frame text and a trivial
// handler appends one <div> with the questions' text; the probe waits for it the same way, so
// the ratio is what the client and the element add on the path to the screen.
//
// Variants (alternating blocks): the single-choice question and the three-question form, each
// through the element and through the plain handler. Info rows: the first question on a cold page
// load (fresh browser context, question already pending: navigation start → painted), and the
// single-choice question over HTTP + SSE (the element given an http:// url), measured in its own
// block with the WebSocket page closed.
import { chromiumAvailable, chromiumPath, launchChromium } from '../../packages/web/scripts/chromium.mjs';
import { startBrowserStage } from '../lib/browser-stage.mjs';
import { config } from '../lib/config.mjs';
import { figure, skipped } from '../lib/figure.mjs';
import { seamAnswer, seamQuestions } from '../lib/fixtures.mjs';
import { interleave, quantile } from '../lib/stats.mjs';

const SECTION = 'browser';
const TITLE = 'requested → visible in Chromium';

// The two questions: the first question of the bench batch alone, and the whole batch (a form of
// three). `marker` makes each ask's text unique, so the probe knows which frame and which text.
const fixtures = {
  single: {
    questions: (marker) => seamQuestions(` ${marker}`).slice(0, 1),
    answer: { answers: [{ id: 'database', selected: ['PostgreSQL (Recommended)'] }] },
  },
  form: { questions: (marker) => seamQuestions(` ${marker}`), answer: seamAnswer() },
};

let asked = 0;
const nextMarker = () => `q${String(++asked).padStart(6, '0')}z`;

// The screen updates once per frame (about 16.7 ms), so "painted" depends on where in that frame
// the question arrives. A sample ends just after a paint and the steps after it take a fixed time
// per variant, which would put each variant at its own phase (a bias either way). Each question
// therefore waits one of `phases` evenly spread offsets before it is sent, in the same order for
// every variant, so every variant sees every phase alike.
const phases = 8;
const frameMs = 1000 / 60;
const phaseDelay = (marker) => new Promise((resolve) => setTimeout(resolve, (Number(marker.slice(1, -1)) % phases) * (frameMs / phases)));

export async function run() {
  const { warmup, rounds, perRound, coldLoads, sseQuestions } = config.browser;
  if (!chromiumAvailable()) {
    const reason = `no Chromium at ${chromiumPath} (set ASKSEAM_CHROMIUM, or apt-get install -y chromium)`;
    console.log(`  skipped: ${reason}`);
    return [skipped(SECTION, TITLE, reason)];
  }
  const stage = await startBrowserStage();
  const browser = await launchChromium();
  try {
    const wsPage = await openPage(browser, stage, 'ws');
    await wsPage.evaluate((url) => window.__bench.plainConnect(url), stage.plainUrl);

    // One question of each kind through the element, to record the frame text the plain baseline
    // replays (the same bytes, with the marker swapped).
    const templates = {};
    for (const [name, fixture] of Object.entries(fixtures)) {
      const marker = nextMarker();
      await throughElement(wsPage, stage, fixture, marker);
      templates[name] = { marker, text: await wsPage.evaluate(() => window.__visible.lastFrame()) };
    }

    const variant = (name, measure) => ({
      name,
      async run(count) {
        await wsPage.bringToFront();
        const samples = [];
        for (let i = 0; i < count; i++) samples.push(await measure());
        return samples;
      },
    });
    const samples = await interleave(
      [
        variant('element-single', () => throughElement(wsPage, stage, fixtures.single, nextMarker())),
        variant('plain-single', () => throughPlain(wsPage, stage, templates.single, nextMarker())),
        variant('element-form', () => throughElement(wsPage, stage, fixtures.form, nextMarker())),
        variant('plain-form', () => throughPlain(wsPage, stage, templates.form, nextMarker())),
      ],
      { warmup, rounds, perRound },
    );
    await wsPage.close();

    const cold = [];
    // The first load of a fresh browser also starts its network and GPU processes: not counted.
    for (let i = 0; i <= coldLoads; i++) {
      const sample = await coldLoad(browser, stage);
      if (i > 0) cold.push(sample);
    }

    const ssePage = await openPage(browser, stage, 'sse');
    const sse = [];
    for (let i = 0; i < warmup + sseQuestions; i++) {
      const sample = await throughElement(ssePage, stage, fixtures.single, nextMarker());
      if (i >= warmup) sse.push(sample);
    }
    await ssePage.close();

    return [
      ...rows('single-choice question', samples['element-single'], samples['plain-single']),
      ...rows('three-question form', samples['element-form'], samples['plain-form']),
      figure({
        section: SECTION,
        name: 'cold page load: navigation start → first question painted, p50',
        value: quantile(cold.map((s) => s.paintedAt), 0.5),
        unit: 'ms',
        note:
          `cold load (fresh context, question pending before navigation, ${cold.length} loads): ` +
          `frame → painted p50 ${fmt(quantile(cold.map((s) => s.painted), 0.5))} ms, ` +
          `navigation start → frame p50 ${fmt(quantile(cold.map((s) => s.frameAt), 0.5))} ms`,
      }),
      figure({
        section: SECTION,
        name: 'HTTP + SSE: single-choice frame → painted p50',
        value: quantile(sse.map((s) => s.painted), 0.5),
        unit: 'ms',
        baseline: { name: 'same over WebSocket, same run', value: quantile(samples['element-single'].map((s) => s.painted), 0.5) },
        note: `HTTP + SSE (${sse.length} questions, own block): frame → painted p99 ${fmt(quantile(sse.map((s) => s.painted), 0.99))} ms, frame → laid out p50 ${fmt(quantile(sse.map((s) => s.layout), 0.5))} ms`,
      }),
    ];
  } finally {
    await browser.close();
    await stage.close();
  }
}

/** p50 and p99 of frame → painted beside the plain baseline, and frame → laid out in a note. */
function rows(what, element, plain) {
  const at = (list, key, q) => quantile(list.map((sample) => sample[key]), q);
  const pair = (q, label) =>
    figure({
      section: SECTION,
      name: `${what}: frame → painted ${label}`,
      value: at(element, 'painted', q),
      unit: 'ms',
      baseline: { name: 'plain <div>', value: at(plain, 'painted', q) },
    });
  const hidden = element.filter((sample) => sample.hiddenFrames > 0).length;
  const laidOut = figure({
    section: SECTION,
    name: `${what}: frame → laid out p50`,
    value: at(element, 'layout', 0.5),
    unit: 'ms',
    baseline: { name: 'plain <div>', value: at(plain, 'layout', 0.5) },
    note:
      `${what} (${element.length} questions each): frame → laid out p99 ${fmt(at(element, 'layout', 0.99))} ms (plain ${fmt(at(plain, 'layout', 0.99))} ms); ` +
      `frame → in the DOM p50 ${fmt(at(element, 'dom', 0.5))} ms (plain ${fmt(at(plain, 'dom', 0.5))} ms)` +
      (hidden > 0 ? `; ${hidden} in the DOM but hidden for a frame or more` : ''),
  });
  return [pair(0.5, 'p50'), pair(0.99, 'p99'), laidOut];
}

const fmt = (value) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

async function openPage(browser, stage, transport) {
  const page = await browser.newPage({ viewport: { width: 760, height: 900 }, colorScheme: 'light', locale: 'en-US' });
  await page.goto(`${stage.origin}/?transport=${transport}`);
  await page.waitForFunction(() => window.__bench !== undefined && customElements.get('askseam-questions') !== undefined);
  await page.evaluate(() => window.__bench.clientOpen());
  return page;
}

/** Ask one question through the seam, time it onto the element, answer it from the page. */
async function throughElement(page, stage, fixture, marker) {
  await page.evaluate((m) => void window.__visible.arm(m, 'element'), marker);
  await phaseDelay(marker);
  const answered = stage.ask(fixture.questions(marker));
  const sample = await page.evaluate(() => window.__visible.take());
  await page.evaluate((answer) => window.__bench.answerShown(answer), fixture.answer);
  await answered;
  return sample;
}

/** Send the recorded frame text (new marker) to the plain handler; time it; clear the page. */
async function throughPlain(page, stage, template, marker) {
  await page.evaluate((m) => void window.__visible.arm(m, 'plain'), marker);
  await phaseDelay(marker);
  stage.sendPlain(template.text.replaceAll(template.marker, marker));
  const sample = await page.evaluate(() => window.__visible.take());
  await page.evaluate(() => window.__bench.plainClear());
  return sample;
}

/** A fresh context (empty cache), the question already pending: navigation start → painted. */
async function coldLoad(browser, stage) {
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
