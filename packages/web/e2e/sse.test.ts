// <askseam-questions url="http(s)://…"> over HTTP + Server-Sent Events, in real Chromium, against
// the real host: `createWebSocketHost` with its `fetchHandler()` on a Node http server (the client
// package's sse-stage.ts) that serves this page too, so the stream and the POSTs are same-origin.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSseStage, type SseStage } from '../../client/test/sse-stage.js';
import { bundleFromSource, launchBrowser } from './support/browser.js';
import { cardOf, waitForQuestion } from './support/fixture.js';

const token = 'sse-e2e-token';
const questions = [
  {
    id: 'db',
    question: 'Which database should the service use?',
    options: [{ label: 'PostgreSQL (Recommended)' }, { label: 'SQLite' }],
  },
];

// The element reads its url and token attributes: nothing on the page builds a client by hand.
const page = (url: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>askseam over SSE</title>
<script type="module" src="/askseam-questions.js"></script></head>
<body><askseam-questions url="${url}" token="${token}" lang="en"></askseam-questions></body>
</html>`;

let browser: Browser | undefined;
let host: SseStage | undefined;

beforeAll(async () => {
  let bundle: string;
  [browser, bundle] = await Promise.all([launchBrowser(), bundleFromSource()]);
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`${current(host).url}`));
    else if (path === '/askseam-questions.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    else res.writeHead(404).end();
  };
  host = await startSseStage({ token, fallback: serve });
});
afterAll(async () => {
  await host?.close();
  await browser?.close();
});

function current<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('The SSE stage exists only inside a test.');
  return value;
}

/** How many `GET <base>/events` the host has seen so far. */
function eventStreams(): number {
  return current(host).requests.filter((url) => url.pathname === '/askseam/events').length;
}

async function openPage(): Promise<{ page: Page; webSockets: string[] }> {
  const opened = await current(browser).newPage({ locale: 'en-US' });
  const webSockets: string[] = [];
  opened.on('websocket', (socket) => webSockets.push(socket.url()));
  const streamsBefore = eventStreams();
  await opened.goto(`${current(host).origin}/`);
  // The element's own client has its stream open once the host has seen the request.
  await expect.poll(eventStreams).toBeGreaterThan(streamsBefore);
  return { page: opened, webSockets };
}

describe('<askseam-questions> over SSE', () => {
  it('answers over SSE when its url attribute is an http:// URL', async () => {
    const sse = current(host);
    const { page, webSockets } = await openPage();
    try {
      const rpcId = await sse.ask(questions);
      await waitForQuestion(page, 'Which database should the service use?');
      await page.getByRole('radio', { name: /PostgreSQL/ }).check();
      await page.getByRole('button', { name: 'Submit' }).click();

      const { frame, receipt } = await sse.nextRespond();
      expect(frame).toMatchObject({ rpcId, result: { ok: true, value: { answer: { answers: [{ id: 'db', selected: ['PostgreSQL (Recommended)'] }] } } } });
      expect(receipt).toMatchObject({ accepted: true });
      await expect.poll(() => cardOf(page).count(), { timeout: 10_000 }).toBe(0);
      expect(sse.pending).toEqual([]);
      expect(webSockets).toEqual([]);
      const stream = sse.requests.find((url) => url.pathname === '/askseam/events');
      expect(stream?.searchParams.get('token')).toBe(token);
    } finally {
      await page.close();
    }
  });

  it('keeps a draft through a dropped stream and sends it after the reconnect', async () => {
    const sse = current(host);
    const { page } = await openPage();
    try {
      const rpcId = await sse.ask(questions);
      await waitForQuestion(page, 'Which database should the service use?');
      await page.getByRole('radio', { name: 'SQLite' }).check();

      const streamsBefore = eventStreams();
      sse.dropStreams();
      // The element's own client dials a fresh stream (hello + replay of the same rpcId); its
      // status line is empty again once the host said hello.
      await expect.poll(eventStreams, { timeout: 15_000 }).toBeGreaterThan(streamsBefore);
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: 15_000 }).toBe('');
      expect(await page.getByRole('radio', { name: 'SQLite' }).isChecked()).toBe(true);

      await page.getByRole('button', { name: 'Submit' }).click();
      const { frame, receipt } = await sse.nextRespond();
      expect(frame).toMatchObject({ rpcId, result: { ok: true, value: { answer: { answers: [{ id: 'db', selected: ['SQLite'] }] } } } });
      expect(receipt).toMatchObject({ accepted: true });
    } finally {
      await page.close();
    }
  });

  it("keeps a bare path meaning the WebSocket host on the page's own server", async () => {
    const { page, webSockets } = await openPage();
    try {
      await page.evaluate(() => document.querySelector('askseam-questions')!.setAttribute('url', '/askseam'));
      await expect.poll(() => webSockets.length).toBeGreaterThan(0);
      const dialed = new URL(webSockets[0] ?? '');
      expect(`${dialed.protocol}//${dialed.host}${dialed.pathname}`).toBe(`${current(host).origin.replace('http:', 'ws:')}/askseam`);
      expect(dialed.searchParams.get('token')).toBe(token);
    } finally {
      await page.close();
    }
  });
});
