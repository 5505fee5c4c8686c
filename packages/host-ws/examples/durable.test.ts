import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { JsonValue } from '@askseam/store';
import { UserQuestions } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeAnswer, requestClarification, type FieldQuestions } from './clarification-resume.js';
import { startDurableApp, type DurableApp } from './durable-app.js';
import { startAppWithApi } from './shared-server.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-durable-app-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const fields: FieldQuestions = {
  version: { question: 'Which version should be deployed?' },
  environment: { question: 'Where to?', options: ['staging', 'production'] },
};

async function start(dir: string, calls: { tool: string; args: Record<string, JsonValue> }[] = [], lines: string[] = []): Promise<DurableApp> {
  const app = await startDurableApp({ dataDir: dir, token: 'app-token', runTool: async (tool, args) => void calls.push({ tool, args }), tell: (line) => lines.push(line) });
  closers.push(() => app.close());
  return app;
}

function httpBase(app: DurableApp): string {
  return app.host.url.replace(/^ws:/, 'http:');
}

describe('a pending tool call resumed after a restart (seed 001 on seed 002)', () => {
  it('merges the answer given over HTTP to a restarted host into the saved call and runs it', async () => {
    const dir = dataDir();
    const first = await start(dir);
    const rpcId = await requestClarification(first.host, 'deploy-bot', { tool: 'deploy', args: { service: 'api' }, missing: ['version', 'environment'] }, fields);
    // The agent loop is over; the process goes away.
    await first.close();

    const calls: { tool: string; args: Record<string, JsonValue> }[] = [];
    const second = await start(dir, calls);
    const response = await fetch(`${httpBase(second)}/questions/${rpcId}/answer`, {
      method: 'POST',
      headers: { authorization: 'Bearer app-token', 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionId: 'deploy-bot',
        answer: { answers: [{ id: 'version', selected: [], custom: '1.2.3' }, { id: 'environment', selected: ['production'] }] },
      }),
    });
    expect(response.status).toBe(200);
    await expect.poll(() => calls).toEqual([{ tool: 'deploy', args: { service: 'api', version: '1.2.3', environment: 'production' } }]);
  });

  it('does not run the call when the person dismissed the question or skipped a field', () => {
    const base = {
      rpcId: 'r1',
      sessionId: 's',
      askedBy: 's',
      askedAt: '2026-01-01T00:00:00.000Z',
      mode: 'detached' as const,
      questions: [{ id: 'version', question: 'Which version?' }],
      state: { kind: 'pending-tool-call', tool: 'deploy', args: {}, missing: ['version'] },
    };
    expect(mergeAnswer({ ...base, outcome: 'cancelled' })).toEqual({ ok: false, reason: 'the person dismissed the question about deploy' });
    expect(mergeAnswer({ ...base, outcome: 'answered', answer: { answers: [{ id: 'version', selected: [] }] } })).toEqual({
      ok: false,
      reason: '"version" was skipped, so deploy still cannot run',
    });
  });
});

const hasCurlAndJq = ['curl', 'jq'].every((tool) => spawnSync(tool, ['--version']).status === 0);

describe('the curl walk-through (examples/http-api.sh)', () => {
  it.skipIf(!hasCurlAndJq)('lists, answers, is refused a second time, cancels, and reads the event log', async () => {
    const dir = dataDir();
    const lines: string[] = [];
    const calls: { tool: string; args: Record<string, JsonValue> }[] = [];
    const app = await start(dir, calls, lines);
    const first = await requestClarification(app.host, 'deploy-bot', { tool: 'deploy', args: { service: 'api' }, missing: ['version', 'environment'] }, fields);
    const second = await requestClarification(app.host, 'deploy-bot', { tool: 'rollback', args: {}, missing: ['version'] }, fields);

    // Asynchronously: the host answering curl lives in this very process.
    const run = await promisify(execFile)('sh', [new URL('./http-api.sh', import.meta.url).pathname], {
      env: { ...process.env, ASKSEAM: httpBase(app), TOKEN: 'app-token', SESSION: 'deploy-bot' },
      timeout: 15_000,
    });
    expect(run.stderr).toBe('');
    const [listed, answered, secondStatus, cancelled, ...eventTypes] = run.stdout.trim().split('\n');
    expect((JSON.parse(listed!) as { questions: { rpcId: string }[] }).questions.map((question) => question.rpcId)).toEqual([first, second]);
    expect(JSON.parse(answered!)).toEqual({ type: 'receipt', rpcId: first, accepted: true });
    expect(secondStatus).toBe('409');
    expect(JSON.parse(cancelled!)).toEqual({ type: 'receipt', rpcId: second, accepted: true });
    expect(eventTypes).toEqual(['human_input_requested', 'human_input_requested', 'response_from_human', 'response_rejected', 'cancelled']);
    await expect.poll(() => calls).toEqual([{ tool: 'deploy', args: { service: 'api', version: '1.2.3', environment: 'production' } }]);
    await expect.poll(() => lines).toContain('not resuming: the person dismissed the question about rollback');
  });
});

describe('the HTTP API on an app\'s own server (examples/shared-server.ts)', () => {
  it('serves the host\'s path through handleRequest and leaves the rest to the app', async () => {
    const app = await startAppWithApi(new UserQuestions(), 'shared-token');
    closers.push(() => app.close());
    const { rpcId } = await app.host.askDetached({ sessionId: 'ops', questions: [{ id: 'ok', question: 'Restart the cache?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
    const listed = await fetch(`${app.base}/askseam/questions`, { headers: { authorization: 'Bearer shared-token' } });
    expect(((await listed.json()) as { questions: { rpcId: string }[] }).questions.map((question) => question.rpcId)).toEqual([rpcId]);
    expect((await fetch(`${app.base}/askseam`)).status).toBe(426);
    expect(await (await fetch(`${app.base}/status`)).text()).toBe('your app answers /status');
  });
});
