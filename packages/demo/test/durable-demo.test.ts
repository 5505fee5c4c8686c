import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoConfigFromEnv, questionIds } from '../src/index.js';
import { Cleanup, connectTo, startTestDemo } from './helpers.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-demo-'));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the demo with a data directory', () => {
  it('reads ASKSEAM_DEMO_DATA_DIR, and keeps questions in memory without it', () => {
    expect(demoConfigFromEnv({ ASKSEAM_DEMO_DATA_DIR: '/var/lib/askseam' }).dataDir).toBe('/var/lib/askseam');
    expect(demoConfigFromEnv({}).dataDir).toBeUndefined();
  });

  it('replays a question left pending by a stopped demo, and prints its answer as a resume', async () => {
    const dataDir = tempDataDir();
    const first = await startTestDemo(cleanup, { dataDir });
    const firstClient = await connectTo(cleanup, first.demo);
    const leftPending = await firstClient.nextQuestion();
    firstClient.client.close();
    await first.demo.close();

    const second = await startTestDemo(cleanup, { dataDir });
    const { client } = await connectTo(cleanup, second.demo);
    // The question from before the restart comes back with its rpcId, beside the new run's first question.
    await expect.poll(() => client.pending.has(leftPending.rpcId)).toBe(true);
    const replayed = client.pending.get(leftPending.rpcId)!;
    await replayed.answer({
      answers: [
        { id: questionIds.framework, selected: ['Astro (Recommended)'] },
        { id: questionIds.features, selected: [] },
      ],
    });
    await expect
      .poll(() => second.lines.find((line) => line.startsWith(`[resume] ${leftPending.rpcId}`)))
      .toBe(`[resume] ${leftPending.rpcId} (asked before a restart) → {"answers":[{"id":"${questionIds.framework}","selected":["Astro (Recommended)"]},{"id":"${questionIds.features}","selected":[]}]}`);
  });

  it('serves the host HTTP API beside the page, behind the same token', async () => {
    const { demo } = await startTestDemo(cleanup, { dataDir: tempDataDir() });
    const { nextQuestion: next } = await connectTo(cleanup, demo);
    const asked = await next();
    const base = `http://127.0.0.1:${demo.port}/askseam/questions`;

    expect((await fetch(base)).status).toBe(401);
    const listed = await fetch(base, { headers: { authorization: `Bearer ${demo.token}` } });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { questions: { rpcId: string }[] };
    expect(body.questions.map((question) => question.rpcId)).toContain(asked.rpcId);
  });
});
