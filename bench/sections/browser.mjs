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
import { readFile } from 'node:fs/promises';
import { browserBundleUrl } from '@askseam/web/server';
import { chromiumAvailable, chromiumPath, launchChromium } from '../../packages/web/scripts/chromium.mjs';
import { startBrowserStage } from '../lib/browser-stage.mjs';
import { config } from '../lib/config.mjs';
import { figure, skipped } from '../lib/figure.mjs';
import { interleave, quantile } from '../lib/stats.mjs';
import { coldLoad, connectPlain, fixtures, nextMarker, openPage, recordFrame, throughElement, throughPlain } from '../lib/visible-questions.mjs';

const SECTION = 'browser';
const TITLE = 'requested → visible in Chromium';

export async function run() {
  const { warmup, rounds, perRound, coldLoads, sseQuestions } = config.browser;
  if (!chromiumAvailable()) {
    const reason = `no Chromium at ${chromiumPath} (set ASKSEAM_CHROMIUM, or apt-get install -y chromium)`;
    console.log(`  skipped: ${reason}`);
    return [skipped(SECTION, TITLE, reason)];
  }
  const stage = await startBrowserStage({ bundle: await builtBundle() });
  const browser = await launchChromium();
  try {
    const wsPage = await openPage(browser, stage, 'ws');
    await connectPlain(wsPage, stage);

    // One question of each kind through the element, to record the frame text the plain baseline
    // replays (the same bytes, with the marker swapped).
    const templates = { single: await recordFrame(wsPage, stage, fixtures.single), form: await recordFrame(wsPage, stage, fixtures.form) };

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

/** The element's bundle as `pnpm build` wrote it: what a page serving the package would load. */
async function builtBundle() {
  const url = browserBundleUrl();
  try {
    return await readFile(url, 'utf8');
  } catch (error) {
    throw new Error(`The element's browser bundle is missing at ${url.pathname}: run \`pnpm build\` first.`, { cause: error });
  }
}

/**
 * Frame → laid out (what the client and the element cost, to a few µs) and frame → painted (what a
 * person sees: the next 60 Hz frame after that), p50 and p99, each beside the plain baseline.
 */
function rows(what, element, plain) {
  const at = (list, key, q) => quantile(list.map((sample) => sample[key]), q);
  const row = (key, label, q) =>
    figure({
      section: SECTION,
      name: `${what}: frame → ${label} p${Math.round(q * 100)}`,
      value: at(element, key, q),
      unit: 'ms',
      baseline: { name: 'plain <div>', value: at(plain, key, q) },
    });
  const hidden = element.filter((sample) => sample.hiddenFrames > 0).length;
  const rows = [row('layout', 'laid out', 0.5), row('layout', 'laid out', 0.99), row('painted', 'painted', 0.5), row('painted', 'painted', 0.99)];
  rows[0].note =
    `${what} (${element.length} questions each): frame → in the DOM p50 ${fmt(at(element, 'dom', 0.5))} ms (plain ${fmt(at(plain, 'dom', 0.5))} ms); ` +
    'painted waits for the next frame of the 60 Hz clock, so its ratio stays near 1 unless the element costs a frame' +
    (hidden > 0 ? `; ${hidden} in the DOM but hidden for a frame or more` : '');
  return rows;
}

const fmt = (value) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
