// `pnpm bench`: runs every section in its own child process, prints one Markdown table of
// figures (each beside a baseline measured in the same run) and writes bench/results.json.
// Targets are informational: a missed target never fails the run; only a crash does.
import { fork, execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { config } from './lib/config.mjs';
import { skipped } from './lib/figure.mjs';
import { formatTable } from './lib/table.mjs';

const sections = [
  { name: 'roundtrip', title: '1. Round trip over loopback', budgetMs: config.roundTrip.budgetMs },
  { name: 'telemetry', title: '1b. Round trip with OpenTelemetry recording vs none', budgetMs: config.telemetry.budgetMs },
  { name: 'mcp', title: '2. Peer: MCP SDK elicitation over Streamable HTTP', budgetMs: config.mcp.budgetMs },
  { name: 'scale', title: '3a. Scale: answers/s across many connected sessions', budgetMs: config.scale.budgetMs },
  { name: 'replay', title: '3b. Scale: reconnect replay cost', budgetMs: config.scale.replayBudgetMs },
  { name: 'memory', title: '3c. Scale: heap per pending question and per idle connection', budgetMs: config.scale.memoryBudgetMs },
  { name: 'micro', title: '4. Validators on one core', budgetMs: config.micro.budgetMs },
  { name: 'durable', title: '5. Durable stores (SQLite, PostgreSQL)', budgetMs: config.durable.budgetMs },
  { name: 'crossnode', title: '6. Cross-node round trip (Redis, PostgreSQL: store and bus)', budgetMs: config.crossnode.budgetMs },
  { name: 'share', title: '13. Scale out: each node holds its own share (holds \'share\', Redis)', budgetMs: config.share.budgetMs },
  { name: 'bundle', title: '7. Page weight: the element\'s browser bundle', budgetMs: config.bundle.budgetMs },
  { name: 'browser', title: '8. Requested → visible in Chromium (the element)', budgetMs: config.browser.budgetMs },
  { name: 'routing', title: '9. Routing: ask → delivered with a 3-tier route', budgetMs: config.routing.budgetMs },
  { name: 'email', title: '10. E-mail reply received → ask resolved', budgetMs: config.email.budgetMs },
  { name: 'chat', title: '11. A click in Slack (Chat SDK channel)', budgetMs: config.chat.budgetMs },
  { name: 'console', title: '12. Operator console: history and stats at 10,000 settled questions', budgetMs: config.console.budgetMs },
];

const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const childScript = fileURLToPath(new URL('./lib/child.mjs', import.meta.url));

/** Run one section in a child with --expose-gc; resolve with its figures or a skipped row. */
function runSection(section) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = fork(childScript, [section.name], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, seconds: (Date.now() - started) / 1000 });
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ crashed: true, figures: [skipped(section.name, section.title, `over its ${Math.round(section.budgetMs / 1000)} s budget; killed`)] });
    }, section.budgetMs);
    child.on('message', (message) => {
      if (message.ok) finish({ crashed: false, figures: message.figures });
      else finish({ crashed: true, figures: [skipped(section.name, section.title, `crashed: ${message.error.split('\n')[0]}`)], error: message.error });
    });
    child.on('exit', (code, signal) => {
      finish({ crashed: true, figures: [skipped(section.name, section.title, `exited (${signal ?? code}) before reporting`)] });
    });
  });
}

function machine() {
  const cpuinfo = (() => { try { return readFileSync('/proc/cpuinfo', 'utf8'); } catch { return ''; } })();
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const fdLimit = (() => { try { return execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim(); } catch { return 'unknown'; } })();
  return {
    cpus: os.availableParallelism(),
    cpuModel: model,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    fdLimit,
    // The machine is shared: a load above the CPU count means every figure ran beside other work.
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
    date: new Date().toISOString(),
    quick: config.quick,
  };
}

const info = machine();
console.log(
  `askseam bench — ${info.cpus} CPU(s) ${info.cpuModel}, Node ${info.node}, load average ${info.loadAverage.join(' ')}, ` +
    `ulimit -n ${info.fdLimit}, ${info.date}${info.quick ? ' (BENCH_QUICK=1: smoke sizes)' : ''}`,
);

const results = [];
let crashed = false;
const totalStart = Date.now();
for (const section of sections) {
  if (only && !only.includes(section.name)) continue;
  const left = config.totalBudgetMs - (Date.now() - totalStart);
  if (left < 5_000) {
    results.push({ section: section.name, title: section.title, seconds: 0, figures: [skipped(section.name, section.title, 'not run: the total time budget was spent')] });
    crashed = true;
    continue;
  }
  const budgetMs = Math.min(section.budgetMs, left);
  console.log(`\n▶ ${section.title} (budget ${Math.round(budgetMs / 1000)} s)`);
  const result = await runSection({ ...section, budgetMs });
  if (result.error) console.error(result.error);
  crashed ||= result.crashed;
  console.log(`  done in ${result.seconds.toFixed(1)} s`);
  results.push({ section: section.name, title: section.title, seconds: result.seconds, figures: result.figures });
}
const totalSeconds = (Date.now() - totalStart) / 1000;
info.loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100);

console.log(`\n${formatTable(results)}\n`);
console.log(`Total ${totalSeconds.toFixed(1)} s, load average at the end ${info.loadAverageAtEnd.join(' ')}. Targets are informational; see docs/performance.md for what limits each figure.`);

const outFile = fileURLToPath(new URL('./results.json', import.meta.url));
writeFileSync(outFile, `${JSON.stringify({ machine: info, config, totalSeconds, sections: results }, null, 2)}\n`);
console.log(`Wrote ${outFile}`);
process.exitCode = crashed ? 1 : 0;
