// Section 7: the element's browser bundle (issue 19 target 5) — what a page downloads. Built in
// memory exactly as `pnpm build` writes dist/browser/askseam-questions.js, minified and gzipped
// at the budget's level. The baseline is the "before" entry of packages/web/size-budget.json (the
// bundle before the browser stopped carrying zod), so the ratio says how much lighter it is; the
// note lists the heaviest parts so the next cut is obvious.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { analyseBrowserBundle } from '../../packages/web/scripts/bundle.mjs';
import { figure } from '../lib/figure.mjs';

const SECTION = 'bundle';
const KiB = 1024;

/** Which part of the bundle a source path belongs to: an npm package, or an askseam package. */
function partOf(path) {
  const npm = /node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path);
  if (npm) return npm[1];
  const own = /packages[\\/]([^\\/]+)[\\/]/.exec(path) ?? /^(?:\.\.[\\/])?([^\\/]+)[\\/]src[\\/]/.exec(path);
  if (own) return `@askseam/${own[1] === 'src' ? 'web' : own[1]}`;
  if (/^src[\\/]/.test(path)) return '@askseam/web';
  return path.startsWith('<') ? 'generated' : path;
}

export async function run() {
  const budget = JSON.parse(readFileSync(new URL('../../packages/web/size-budget.json', import.meta.url), 'utf8'));
  const { code, inputs } = await analyseBrowserBundle();
  const minifiedBytes = Buffer.byteLength(code);
  const gzipBytes = gzipSync(code, { level: budget.gzipLevel }).length;

  const parts = new Map();
  for (const [path, bytes] of Object.entries(inputs)) parts.set(partOf(path), (parts.get(partOf(path)) ?? 0) + bytes);
  const breakdown = [...parts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([part, bytes]) => `${part} ${(bytes / KiB).toFixed(1)} KiB (${Math.round((bytes / minifiedBytes) * 100)}%)`)
    .join(', ');

  return [
    figure({
      section: SECTION,
      name: `Browser bundle, gzip -${budget.gzipLevel}`,
      value: gzipBytes / KiB,
      unit: 'KiB',
      baseline: { name: `before, ${budget.before.commit}: ${budget.before.change}`, value: budget.before.gzipBytes / KiB },
      target: { on: 'value', op: '<=', value: budget.target.gzipBytes / KiB, text: `<= ${budget.target.gzipBytes / KiB} KiB gzip` },
      note: `budget (pnpm test): ${(budget.limit.gzipBytes / KiB).toFixed(1)} KiB gzip${budget.previous ? `; previous figure ${(budget.previous.gzipBytes / KiB).toFixed(1)} KiB (${budget.previous.change})` : ''}`,
    }),
    figure({
      section: SECTION,
      name: 'Browser bundle, minified',
      value: minifiedBytes / KiB,
      unit: 'KiB',
      baseline: { name: `before, ${budget.before.commit}`, value: budget.before.minifiedBytes / KiB },
      note: `minified bytes by part: ${breakdown}`,
    }),
  ];
}
