// The restart test, for real: a child process with questions pending on a SQLite file is
// killed with SIGKILL (no close(), no flush), and a new host on the same file replays them, takes
// their answers from a reconnecting client and over HTTP, and resumes each exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { api, cleanupDurable, openSqlite, resumeRecorder, tempDbFile } from './durable-fixture.js';
import { cleanup, startHost, TOKEN } from './fixture.js';

const children: ChildProcess[] = [];
const bundleDirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await cleanup();
  await cleanupDurable();
  for (const dir of bundleDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const packagesDir = fileURLToPath(new URL('../../', import.meta.url));

/** Bundle kill-child.ts with the workspace sources; better-sqlite3 (native) stays a require of the installed copy. */
async function bundleChild(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-kill-'));
  bundleDirs.push(dir);
  const outfile = join(dir, 'child.cjs');
  const sqlite = createRequire(join(packagesDir, 'store-sqlite/package.json')).resolve('better-sqlite3');
  await build({
    entryPoints: [fileURLToPath(new URL('./kill-child.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
    alias: Object.fromEntries(['host-ws', 'store', 'store-sqlite', 'user-questions', 'protocol'].map((name) => [`@askseam/${name}`, join(packagesDir, name, 'src/index.ts')])),
    // ws's optional native helpers are not installed; it falls back to JavaScript without them.
    external: ['bufferutil', 'utf-8-validate'],
    plugins: [{ name: 'native-sqlite', setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true })) }],
  });
  return outfile;
}

/** Start the child and wait for its one line: where it listens and the rpcIds it has pending. */
function startChild(script: string, file: string): Promise<{ child: ChildProcess; url: string; blocking: string; detached: string }> {
  const child = spawn(process.execPath, [script, file, TOKEN], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) resolve({ child, ...(JSON.parse(line) as { url: string; blocking: string; detached: string }) });
    });
    child.once('exit', (code, signal) => reject(new Error(`the child exited (${code ?? signal}) before it was ready: ${err}`)));
  });
}

function killed(child: ChildProcess): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    if (child.signalCode !== null || child.exitCode !== null) return resolve(child.signalCode);
    child.once('exit', (_code, signal) => resolve(signal));
    child.kill('SIGKILL');
  });
}

describe('a host killed with SIGKILL while questions are pending', () => {
  it('loses nothing: the next host replays both questions and resumes each answer exactly once', async () => {
    const file = tempDbFile();
    const script = await bundleChild();
    const { child, blocking, detached } = await startChild(script, file);
    expect(await killed(child)).toBe('SIGKILL');

    const resumed = resumeRecorder();
    const { host, connect } = await startHost({ store: openSqlite(file), onResume: resumed.onResume });
    const client = await connect();
    expect(await client.next('hello')).toMatchObject({ pending: [blocking, detached] });
    expect((await client.next('question/requested')).rpcId).toBe(blocking);
    expect((await client.next('question/requested')).rpcId).toBe(detached);

    const red = { answers: [{ id: 'colour', selected: ['Red'] }] };
    const blue = { answers: [{ id: 'colour', selected: ['Blue'] }] };
    expect(await client.answer(blocking, 'agent-a', red)).toMatchObject({ accepted: true });
    expect(await api(host, 'POST', `/questions/${detached}/answer`, { body: { sessionId: 'agent-b', answer: blue } })).toMatchObject({ status: 200 });
    const records = [await resumed.next(), await resumed.next()];
    expect(records).toEqual([
      expect.objectContaining({ rpcId: blocking, mode: 'blocking', outcome: 'answered', answer: red }),
      expect.objectContaining({ rpcId: detached, mode: 'detached', outcome: 'answered', answer: blue, state: { resumeAt: 'step-7' } }),
    ]);
    expect(await client.answer(blocking, 'agent-a', red)).toMatchObject({ accepted: false, reason: 'not-pending' });
    await host.close();
    expect(resumed.records).toHaveLength(2);
    expect(await host.store.listAwaitingResume()).toEqual([]);
  });
});
