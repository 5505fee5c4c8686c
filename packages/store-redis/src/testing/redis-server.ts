import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StartRedisServerOptions {
  /** Keep data across `kill()`/`stop()` + `restart()`: AOF with `appendfsync always`. Default false (nothing on disk). */
  persistent?: boolean;
  /** The redis-server binary. Default `/usr/bin/redis-server`. */
  binary?: string;
  /** More redis-server arguments (e.g. `--cluster-enabled yes`), after the ones it always passes. */
  extraArgs?: readonly string[];
}

/** A real redis-server on 127.0.0.1, owned by one test file. */
export interface TestRedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** Graceful shutdown (SIGTERM: the AOF is flushed). Idempotent. The data dir stays until the process exits, so `restart()` still works. */
  stop(): Promise<void>;
  /** SIGKILL, like a crash. Idempotent. */
  kill(): Promise<void>;
  /** Start again on the same port and data dir (stopping the running server gracefully first). */
  restart(): Promise<void>;
  /** FLUSHALL on the running server. */
  flushAll(): Promise<void>;
}

const defaultBinary = '/usr/bin/redis-server';
const host = '127.0.0.1';
const readyTimeoutMs = 10_000;
const exitTimeoutMs = 10_000;

// Servers and dirs still alive when the test process ends are killed and removed, so a test that
// forgot its afterAll (or a worker that crashed) never leaves a redis-server running.
const liveChildren = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of liveChildren) child.kill('SIGKILL');
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/**
 * Starts a throwaway redis-server on 127.0.0.1 and a free port, with its own temp dir. Tests only:
 * call `stop()` (or `kill()`) in afterAll/afterEach.
 */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<TestRedisServer> {
  const binary = options.binary ?? defaultBinary;
  if (!existsSync(binary)) {
    throw new Error(`redis-server was not found at ${binary}; install it (Debian/Ubuntu: apt-get install -y redis-server) to run the Redis tests.`);
  }
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), 'askseam-redis-'));
  tempDirs.add(dir);
  const persistence = options.persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  const extra = [...(options.extraArgs ?? [])];

  let port = 0;
  let child: ChildProcess | undefined;
  // The free port found by listening on 0 can be taken by someone else before redis binds it: try a few.
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(binary, [...baseArgs(port, dir), ...persistence, ...extra], port);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTakenError)) {
        rmSync(dir, { recursive: true, force: true });
        tempDirs.delete(dir);
        throw error;
      }
    }
  }

  const args = [...baseArgs(port, dir), ...persistence, ...extra];
  const stopWith = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    child = undefined;
    if (running) await terminate(running, signal);
  };

  return {
    url: `redis://${host}:${port}`,
    port,
    host,
    stop: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
    async restart() {
      await stopWith('SIGTERM');
      child = await launch(binary, args, port);
    },
    async flushAll() {
      if (!child) throw new Error(`The test redis-server on port ${port} is not running; restart() it before flushAll().`);
      const reply = await sendCommand(port, 'FLUSHALL');
      if (!reply.startsWith('+OK')) throw new Error(`FLUSHALL on port ${port} answered ${JSON.stringify(reply)}`);
    },
  };
}

function baseArgs(port: number, dir: string): string[] {
  return [
    '--port', String(port),
    '--bind', host,
    '--protected-mode', 'no',
    '--daemonize', 'no',
    '--dir', dir,
    '--save', '',
    '--logfile', '',
  ];
}

class PortTakenError extends Error {}

/** Spawns redis-server and resolves once it answers PING; rejects with its log if it exits first. */
async function launch(binary: string, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  let log = '';
  const collect = (chunk: Buffer): void => {
    log = (log + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('exit', () => liveChildren.delete(child));

  let exited = false;
  const exitedEarly = new Promise<never>((_, reject) => {
    const fail = (reason: string): void => {
      exited = true;
      const message = `redis-server on port ${port} ${reason} before it was ready:\n${log}`;
      reject(/address already in use/i.test(log) ? new PortTakenError(message) : new Error(message));
    };
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code})`));
    child.once('error', (error) => fail(`failed to start (${error.message})`));
  });
  exitedEarly.catch(() => {});

  const ready = (async () => {
    const deadline = Date.now() + readyTimeoutMs;
    while (!exited) {
      if ((await sendCommand(port, 'PING').catch(() => '')).startsWith('+PONG')) return;
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within ${readyTimeoutMs} ms:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await exitedEarly;
  })();

  try {
    await Promise.race([ready, exitedEarly]);
    return child;
  } catch (error) {
    await terminate(child, 'SIGKILL');
    throw error;
  }
}

async function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), exitTimeoutMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** One inline command over a raw socket (no client library, so no reconnect loop to clean up). */
function sendCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host, port });
    let reply = '';
    const timer = setTimeout(() => socket.destroy(new Error(`no reply to ${command} from port ${port}`)), 2_000);
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) socket.end();
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(reply);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
