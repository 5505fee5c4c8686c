import v8 from 'node:v8';
import { readFileSync } from 'node:fs';
import { startSessionHost } from './lib/sessions.mjs';
import { seamQuestions } from './lib/fixtures.mjs';
import { waitUntil } from './lib/stats.mjs';
const N = 5000;
const stack = await startSessionHost(500);
const batches = Array.from({ length: N }, (_, i) => JSON.parse(JSON.stringify(seamQuestions(` #${i}`))));
function summarize(file) {
  const snap = JSON.parse(readFileSync(file));
  const f = snap.snapshot.meta.node_fields; const types = snap.snapshot.meta.node_types[0];
  const nf = f.length; const nodes = snap.nodes; const strings = snap.strings;
  const ti = f.indexOf('type'), ni = f.indexOf('name'), si = f.indexOf('self_size');
  const m = new Map();
  for (let i = 0; i < nodes.length; i += nf) {
    const type = types[nodes[i + ti]]; let name = strings[nodes[i + ni]];
    if (type.includes('string')) name = type; else if (type === 'closure') name = 'closure ' + name; else if (type === 'array') name = '(array)'; else name = `${type}:${name.slice(0, 40)}`;
    const e = m.get(name) ?? [0, 0]; e[0]++; e[1] += nodes[i + si]; m.set(name, e);
  }
  return m;
}
gc(); const a = summarize(v8.writeHeapSnapshot('/tmp/prof/a.heapsnapshot'));
const asks = batches.map((q, i) => stack.userQuestions.ask({ questions: q, agent: stack.agents[i % 500] }));
await waitUntil(() => stack.pendingCount() === N);
gc(); const b = summarize(v8.writeHeapSnapshot('/tmp/prof/b.heapsnapshot'));
const diff = []; let tot = 0;
for (const [k, [c, s]] of b) { const [c0, s0] = a.get(k) ?? [0, 0]; if (Math.abs(s - s0) > N * 4) { diff.push([k, (c - c0) / N, (s - s0) / N]); tot += (s - s0) / N; } }
diff.sort((x, y) => y[2] - x[2]);
for (const [k, c, s] of diff) console.log(s.toFixed(0).padStart(6), 'B', c.toFixed(2).padStart(6), 'objs', k);
console.log('total', tot.toFixed(0));
const settled = Promise.allSettled(asks); await stack.host.close(); await settled;
