import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { RedisQuestionBus } from '../src/redis-bus.js';

const packageDir = fileURLToPath(new URL('../', import.meta.url));
let server: TestRedisServer;
let bundleDir: string;
let childScript: string;
const children: ChildProcess[] = [];
const buses: RedisQuestionBus[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  // The child runs our TypeScript sources, bundled; ioredis stays a require of the installed copy.
  bundleDir = mkdtempSync(join(tmpdir(), 'askseam-bus-child-'));
  childScript = join(bundleDir, 'bus-child.mjs');
  const ioredis = createRequire(join(packageDir, 'package.json')).resolve('ioredis');
  await build({
    entryPoints: [join(packageDir, 'test/bus-child.ts')],
    outfile: childScript,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    alias: {
      '@askseam/bus-redis': join(packageDir, 'src/index.ts'),
      '@askseam/store': join(packageDir, '../store/src/index.ts'),
      '@askseam/user-questions': join(packageDir, '../user-questions/src/index.ts'),
    },
    plugins: [{ name: 'installed-ioredis', setup: (b) => b.onResolve({ filter: /^ioredis$/ }, () => ({ path: ioredis, external: true })) }],
  });
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const bus of buses.splice(0)) await bus.close();
});

afterAll(async () => {
  await server?.stop();
  if (bundleDir !== undefined) rmSync(bundleDir, { recursive: true, force: true });
});

/** Start the child node and wait for its "on the bus" line. */
function startChildNode(keyPrefix: string, nodeId: string): Promise<{ child: ChildProcess; exited: Promise<NodeJS.Signals | null> }> {
  const child = spawn(process.execPath, [childScript, server.url, keyPrefix, nodeId], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve({ child, exited });
    });
    void exited.then((signal) => reject(new Error(`The child node exited (${signal}) before it was on the bus: ${stderr}`)));
  });
}

it('reports a node whose process was killed with SIGKILL as not alive', async () => {
  const keyPrefix = `test-${Math.random().toString(36).slice(2)}:`;
  const watcher = new RedisQuestionBus({ url: server.url, keyPrefix });
  buses.push(watcher);
  const { child, exited } = await startChildNode(keyPrefix, 'doomed-node');
  expect(await watcher.isNodeAlive('doomed-node')).toBe(true);

  // No close(), no QUIT: the kernel closes its sockets, and its liveness key (1 s in the child) is no longer refreshed.
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  const deadline = Date.now() + 10_000;
  while ((await watcher.isNodeAlive('doomed-node')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await watcher.isNodeAlive('doomed-node')).toBe(false);
});
