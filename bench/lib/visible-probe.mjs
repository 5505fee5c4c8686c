// The in-page probe of the browser section: times one question from the moment its frame reaches
// the page to the moment its text is on screen, on the page's own clock (performance.now(), whose
// zero is the navigation start). It is installed by a classic <script> in <head>, before the
// element's module loads, and wraps the page's WebSocket and EventSource so its `message` listener
// is registered before the client's: the frame is stamped before any product code sees it.
//
// One sample per armed question:
//   frameAt    the first frame (WebSocket message or SSE event) whose text contains the marker
//   dom        the MutationObserver callback that finds a text node containing the marker under
//              the watched root (the element's shadow root, or the plain baseline's container)
//   layout     that text has a non-empty layout box (a Range around it, which forces style and
//              layout) and its element passes checkVisibility() with opacity and visibility
//   painted    the first task after the next animation frame, i.e. after the rendering update
//              (style, layout, paint) that first included the laid-out text
// All but frameAt are milliseconds after frameAt. Frames without the marker (hello, receipts,
// resolved, a replay of a question already sampled) change nothing.

/**
 * Installs `window.__visible` on the page. Serialised into the page with `String(...)`, so it must
 * not close over anything outside itself.
 * @param {Window & typeof globalThis} window
 */
export function installVisibleProbe(window) {
  const { document, performance } = window;
  const now = () => performance.now();
  /** The question being waited for: { marker, target, frameAt?, resolve, reject, ... }. */
  let armed;
  /** The last question armed, still there once its sample is taken (take() may come late). */
  let latest;
  let lastFrame;
  const taken = [];

  // After a rendering update: a task posted from a requestAnimationFrame callback runs once that
  // frame's paint is done.
  const afterPaint = new window.MessageChannel();
  let paintedCallback;
  afterPaint.port1.onmessage = () => {
    const callback = paintedCallback;
    paintedCallback = undefined;
    callback?.();
  };

  function frameArrived(event) {
    const at = now();
    if (armed === undefined || armed.frameAt !== undefined) return;
    if (typeof event.data !== 'string' || !event.data.includes(armed.marker)) return;
    armed.frameAt = at;
    lastFrame = event.data;
    watch(armed);
  }

  function rootOf(target) {
    if (target === 'plain') return document.getElementById('plain');
    return document.querySelector('askseam-questions')?.shadowRoot ?? null;
  }

  /** The first text node containing `marker` that these mutation records put in the tree. */
  function foundText(records, marker) {
    for (const record of records) {
      if (record.type === 'characterData') {
        if (record.target.data.includes(marker)) return record.target;
        continue;
      }
      for (const node of record.addedNodes) {
        if (node.nodeType === 3) {
          if (node.data.includes(marker)) return node;
        } else if (node.nodeType === 1 && node.textContent.includes(marker)) {
          const walker = document.createTreeWalker(node, 4 /* NodeFilter.SHOW_TEXT */);
          for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) if (text.data.includes(marker)) return text;
        }
      }
    }
    return undefined;
  }

  /** Whether `text` is laid out with a visible box; reading its box forces style and layout. */
  function laidOutAndVisible(text) {
    if (!text.isConnected || text.parentElement === null) return false;
    const range = document.createRange();
    range.selectNodeContents(text);
    const box = range.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && text.parentElement.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  }

  function watch(sample) {
    const root = rootOf(sample.target);
    if (root === null) {
      sample.reject(new Error(`visible probe: no ${sample.target} root on the page when the frame of ${sample.marker} arrived`));
      return;
    }
    const observer = new window.MutationObserver((records) => {
      const text = foundText(records, sample.marker);
      if (text === undefined) return;
      observer.disconnect();
      sample.domAt = now();
      untilVisible(sample, text, 0);
    });
    observer.observe(root, { childList: true, subtree: true, characterData: true });
  }

  // Text in the DOM but hidden (no box yet, opacity 0): look again at each animation frame.
  function untilVisible(sample, text, hiddenFrames) {
    if (laidOutAndVisible(text)) {
      sample.layoutAt = now();
      sample.hiddenFrames = hiddenFrames;
      window.requestAnimationFrame(() => {
        paintedCallback = () => finish(sample, now());
        afterPaint.port2.postMessage(null);
      });
      return;
    }
    if (hiddenFrames >= 600) {
      sample.reject(new Error(`visible probe: the text of ${sample.marker} stayed hidden for 600 frames`));
      return;
    }
    window.requestAnimationFrame(() => untilVisible(sample, text, hiddenFrames + 1));
  }

  function finish(sample, paintedAt) {
    if (armed === sample) armed = undefined;
    const result = {
      marker: sample.marker,
      frameAt: sample.frameAt,
      dom: sample.domAt - sample.frameAt,
      layout: sample.layoutAt - sample.frameAt,
      painted: paintedAt - sample.frameAt,
      paintedAt,
      hiddenFrames: sample.hiddenFrames,
    };
    taken.push(result);
    sample.resolve(result);
  }

  /** Wait for the question whose frame contains `marker`, shown under `target` ('element' | 'plain'). */
  function arm(marker, target = 'element') {
    if (armed !== undefined) throw new Error(`visible probe: still waiting for ${armed.marker}; take() it before arming ${marker}`);
    const sample = { marker, target };
    sample.done = new Promise((resolve, reject) => {
      sample.resolve = resolve;
      sample.reject = (error) => {
        if (armed === sample) armed = undefined;
        reject(error);
      };
    });
    // Never an unhandled rejection: take() hands the failure to whoever waits.
    sample.done.catch(() => undefined);
    armed = sample;
    latest = sample;
    return sample.done;
  }

  // Wrapped before any other script runs, so every socket and stream of the page is probed and
  // this listener is the first one on each.
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class ProbedWebSocket extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', frameArrived);
    }
  };
  const NativeEventSource = window.EventSource;
  if (NativeEventSource !== undefined) {
    window.EventSource = class ProbedEventSource extends NativeEventSource {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', frameArrived);
      }
    };
  }

  window.__visible = {
    arm,
    /** The sample of the armed question, once it is painted. */
    take: () => (latest === undefined ? Promise.reject(new Error('visible probe: nothing armed')) : latest.done),
    /** Every sample taken on this page, oldest first. */
    taken,
    /** The text of the last frame a sample started from (the plain baseline replays it). */
    lastFrame: () => lastFrame,
  };
  // A page opened as /?cold=<marker> waits for that question from its first line.
  const cold = new window.URLSearchParams(window.location.search).get('cold');
  if (cold) window.__visibleCold = arm(cold, 'element');
}

/** The probe as a classic inline script for <head>. */
export const visibleProbeScript = `(${installVisibleProbe.toString()})(window);`;
