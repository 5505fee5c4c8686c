import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RawClient } from '../test/raw-client.js';
import { startApp, type App } from './app-server.js';
import { quickStart } from './quick-start.js';
import { answerWithFirstOptions } from './raw-protocol.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('quick start (README)', () => {
  it('serves the question to a client with the token and resolves with its answer', async () => {
    const lines: string[] = [];
    const { host, answer } = await quickStart('readme-token', (line) => lines.push(line));
    closers.push(() => host.close());
    expect(lines).toEqual([`Connect a UI to ${host.url} with token readme-token`]);

    const ui = await RawClient.connect(`${host.url}?token=readme-token`);
    closers.push(() => ui.close());
    const { rpcId, sessionId } = await ui.next('question/requested');
    await ui.answer(rpcId, sessionId, { answers: [{ id: 'db', selected: ['SQLite'] }] });
    await expect(answer).resolves.toEqual({ answers: [{ id: 'db', selected: ['SQLite'] }] });
  });
});

describe('speaking the raw protocol', () => {
  it('answers each question with its first option and logs the receipt (its own answer gets no question/resolved)', async () => {
    const lines: string[] = [];
    const { host, answer } = await quickStart('raw-token', () => {});
    closers.push(() => host.close());
    const socket = answerWithFirstOptions(host.url, 'raw-token', (line) => lines.push(line));
    closers.push(() => socket.terminate());
    await expect(answer).resolves.toEqual({ answers: [{ id: 'db', selected: ['Postgres (Recommended)'] }] });
    await expect.poll(() => lines.some((line) => line.endsWith(': accepted'))).toBe(true);
    expect(lines[0]).toBe('connected (protocol 2), 1 question(s) to replay');
    expect(lines.some((line) => line.endsWith(': answered'))).toBe(false);
  });
});

describe('a browser UI wired to the host (docs/protocol.md)', () => {
  const agent: AgentRef = { id: 'agent-1' };
  const newSeam = () => new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });

  async function start(): Promise<{ app: App; userQuestions: UserQuestions; origin: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'askseam-element-'));
    const script = join(dir, 'element.js');
    writeFileSync(script, '// the element bundle\n');
    closers.push(() => rmSync(dir, { recursive: true, force: true }));
    const userQuestions = newSeam();
    const app = await startApp(userQuestions, script);
    closers.push(() => app.close());
    return { app, userQuestions, origin: new URL(app.pageUrl).origin };
  }

  it('serves a page whose element points at the host with a token, and the element script', async () => {
    const { app } = await start();
    const html = await (await fetch(app.pageUrl)).text();
    expect(html).toContain(`<askseam-questions url="${app.host.url}" token="`);
    expect(html).toContain('lang="en"');
    const script = await fetch(new URL('/askseam-questions.js', app.pageUrl));
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toBe('// the element bundle\n');
  });

  it('lets the page (its origin, its token) answer a question', async () => {
    const { app, userQuestions, origin } = await start();
    const html = await (await fetch(app.pageUrl)).text();
    const url = /url="([^"]+)"/.exec(html)?.[1];
    const token = /token="([^"]+)"/.exec(html)?.[1];
    const asking = userQuestions.ask({ agent, questions: [{ id: 'go', question: 'Go ahead?', options: [{ label: 'Yes' }, { label: 'No' }] }] });

    const pageSocket = await RawClient.connect(`${url}?token=${token}`, { origin });
    closers.push(() => pageSocket.close());
    const { rpcId } = await pageSocket.next('question/requested');
    await pageSocket.answer(rpcId, 'agent-1', { answers: [{ id: 'go', selected: ['Yes'] }] });
    await expect(asking).resolves.toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] });
  });

  it('refuses a page from another origin even with the right token', async () => {
    const { app, origin } = await start();
    const html = await (await fetch(app.pageUrl)).text();
    const token = /token="([^"]+)"/.exec(html)?.[1];
    expect(await RawClient.refusal(`${app.host.url}?token=${token}`, { origin: 'http://evil.example' })).toBe(403);
    expect(origin).not.toBe('http://evil.example');
  });

  it('closes the app server and the host together', async () => {
    const { app } = await start();
    await app.close();
    const socket = new WebSocket(app.host.url);
    const failure = await new Promise<Error>((resolve) => socket.once('error', resolve));
    expect(failure.message).toMatch(/ECONNREFUSED/);
  });
});
