import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StartPostgresServerOptions {
  /**
   * Where initdb, pg_ctl and postgres live. Default: `ASKSEAM_POSTGRES_BIN_DIR`, else the newest
   * `/usr/lib/postgresql/<major>/bin` (Debian's `postgresql` package; 15 on bookworm).
   */
  binDir?: string;
  /**
   * Flush every commit to disk, as a production server does. Default false: tests do not need to
   * survive a power cut, and a restart (`restart()`, `kill()` + `start()`) keeps every commit either way.
   */
  fsync?: boolean;
}

/** A real PostgreSQL server on 127.0.0.1, owned by one test file (or one bench run). */
export interface TestPostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** Stop it (fast shutdown: open connections are cut, every commit kept). Idempotent; `start()` brings it back. */
  stop(): Promise<void>;
  /** Stop it like a crash (immediate shutdown: no checkpoint, recovery from the WAL at the next start). Idempotent. */
  kill(): Promise<void>;
  /** Start it again on the same port and data directory. */
  start(): Promise<void>;
  /** `stop()` then `start()`. */
  restart(): Promise<void>;
  /** Stop it for good and remove its data directory. Idempotent. */
  destroy(): Promise<void>;
}

/** The newest Debian PostgreSQL install, or the variable that names another. */
function defaultBinDir(): string {
  const fromEnv = process.env.ASKSEAM_POSTGRES_BIN_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return join(root, newest, 'bin');
}
const host = '127.0.0.1';

// Servers still running when the test process ends are stopped and their directories removed, so a
// test that forgot its afterAll (or a worker that crashed) never leaves a postmaster behind.
const running = new Map<string, () => void>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const stopNow of running.values()) stopNow();
  });
}

/**
 * Starts a throwaway PostgreSQL server: `initdb` on a fresh temp directory, then `pg_ctl start` on
 * a free port, listening on 127.0.0.1 only (and a Unix socket inside that directory). As root it
 * runs as the `postgres` user (PostgreSQL refuses to run as root), which then owns the directory.
 * Tests only: call `destroy()` in afterAll.
 */
export async function startPostgresServer(options: StartPostgresServerOptions = {}): Promise<TestPostgresServer> {
  const binDir = options.binDir ?? defaultBinDir();
  if (!existsSync(join(binDir, 'initdb'))) {
    throw new Error(`PostgreSQL was not found in ${binDir}; install it (Debian/Ubuntu: apt-get install -y postgresql) to run the PostgreSQL tests.`);
  }
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), 'askseam-postgres-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const argvOf = (command: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', 'postgres', '--', join(binDir, command), ...args]] : [join(binDir, command), args]);
  // Asynchronous, so that clients in this process see the server go and come back as they would in production.
  const run = (command: string, args: string[]): Promise<{ status: number | null; output: string }> =>
    new Promise((resolve) => {
      const [file, argv] = argvOf(command, args);
      execFile(file, argv, { encoding: 'utf8', cwd: dir }, (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ status, output: `${stdout}${stderr}` });
      });
    });
  // For the exit hook, which cannot wait.
  const runNow = (command: string, args: string[]): void => {
    const [file, argv] = argvOf(command, args);
    spawnSync(file, argv, { cwd: dir });
  };
  const init = await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed:\n${init.output}`);
  }

  let port = 0;
  let up = false;
  const settings = () =>
    [
      `-p ${port}`,
      `-c listen_addresses=${host}`,
      `-k ${dir}`,
      '-c max_connections=300',
      `-c fsync=${options.fsync === true ? 'on' : 'off'}`,
      '-c full_page_writes=off',
      '-c log_min_messages=warning',
    ].join(' ');
  const pgCtl = (args: string[]) => run('pg_ctl', ['-D', data, ...args]);
  const stopWith = async (mode: 'fast' | 'immediate'): Promise<void> => {
    if (!up) return;
    up = false;
    const stopped = await pgCtl(['-m', mode, '-w', '-t', '60', 'stop']);
    if (stopped.status !== 0 && !/not running|No such process/i.test(stopped.output)) throw new Error(`pg_ctl stop failed:\n${stopped.output}`);
  };
  const start = async (): Promise<void> => {
    if (up) return;
    const started = await pgCtl(['-l', log, '-o', settings(), '-w', '-t', '60', 'start']);
    if (started.status !== 0) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-4000) : '';
      throw new PortTakenOrFailed(`pg_ctl start on port ${port} failed:\n${started.output}\n${serverLog}`, /already in use|could not bind/i.test(serverLog));
    }
    up = true;
  };
  const destroyNow = (): void => {
    if (up) runNow('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    up = false;
    running.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
  running.set(dir, destroyNow);

  // The free port found by listening on 0 can be taken by someone else before postgres binds it: try a few.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTakenOrFailed) || !error.portTaken) {
        destroyNow();
        throw error;
      }
    }
  }

  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    port,
    host,
    stop: () => stopWith('fast'),
    kill: () => stopWith('immediate'),
    start,
    async restart() {
      await stopWith('fast');
      await start();
    },
    async destroy() {
      await stopWith('fast');
      if (running.has(dir)) destroyNow();
    },
  };
}

class PortTakenOrFailed extends Error {
  constructor(
    message: string,
    readonly portTaken: boolean,
  ) {
    super(message);
  }
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
