import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresQuestionStore } from '@askseam/store-postgres';
import { startPostgresServer, type TestPostgresServer } from '@askseam/store-postgres/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_POSTGRES_SCHEMA } from '../src/durable-store.js';
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

describe('the demo with --store postgres://…', () => {
  let postgres: TestPostgresServer | undefined;
  beforeAll(async () => {
    postgres = await startPostgresServer();
  }, 60_000);
  afterAll(async () => {
    await postgres?.destroy();
  });

  it('reads --store (either spelling), and refuses what is not a PostgreSQL URL or comes with a data directory', () => {
    expect(demoConfigFromEnv({}, ['--store', 'postgres://app@db:5432/app']).storeUrl).toBe('postgres://app@db:5432/app');
    expect(demoConfigFromEnv({}, ['--', '--store=postgresql://db/app', '--transport', 'sse'])).toMatchObject({ storeUrl: 'postgresql://db/app', transport: 'sse' });
    expect(() => demoConfigFromEnv({}, ['--store', 'redis://127.0.0.1:6379'])).toThrow(/PostgreSQL connection string/);
    expect(() => demoConfigFromEnv({}, ['--store'])).toThrow(/--store needs a value/);
    expect(() => demoConfigFromEnv({ ASKSEAM_DEMO_DATA_DIR: '/tmp/x' }, ['--store', 'postgres://db/app'])).toThrow(/give one of them/);
  });

  it('keeps a question pending in PostgreSQL across a restart of the demo, and prints its answer as a resume', async () => {
    const storeUrl = postgres!.url;
    const first = await startTestDemo(cleanup, { storeUrl });
    const firstClient = await connectTo(cleanup, first.demo);
    const leftPending = await firstClient.nextQuestion();
    firstClient.client.close();
    await first.demo.close();

    const second = await startTestDemo(cleanup, { storeUrl });
    const { client } = await connectTo(cleanup, second.demo);
    await expect.poll(() => client.pending.has(leftPending.rpcId)).toBe(true);
    await client.pending.get(leftPending.rpcId)!.answer({
      answers: [
        { id: questionIds.framework, selected: ['Astro (Recommended)'] },
        { id: questionIds.features, selected: [] },
      ],
    });
    await expect.poll(() => second.lines.some((line) => line.startsWith(`[resume] ${leftPending.rpcId} (asked before a restart) → {"answers"`))).toBe(true);
    // Kept in the demo's own schema of that database.
    const store = await PostgresQuestionStore.open({ connectionString: storeUrl, schema: DEMO_POSTGRES_SCHEMA });
    try {
      expect(await store.get(leftPending.rpcId)).toMatchObject({ outcome: 'answered', resumedAt: expect.any(String) });
    } finally {
      await store.close();
    }
  });
});
