// Run with `--import ./register.mjs`: every askseam package's Node entry points load, and one ask
// goes through the seam and the host to a real socket and back, with @opentelemetry/api unresolvable.
import { readdirSync, readFileSync } from 'node:fs';

const packagesDir = new URL('../../../', import.meta.url);
const result = { blocked: false, imported: [], failed: [], answer: undefined };

try {
  await import('@opentelemetry/api');
} catch (error) {
  result.blocked = error.code === 'ERR_MODULE_NOT_FOUND';
}

for (const dir of readdirSync(packagesDir)) {
  // The store contract suite runs inside vitest only (it calls describe/it when imported).
  if (dir === 'store-testing') continue;
  const manifest = JSON.parse(readFileSync(new URL(`${dir}/package.json`, packagesDir), 'utf8'));
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    // Node entry points only: the browser bundles and JSON files are not modules Node loads.
    const file = typeof target === 'string' ? target : (target.node ?? target.import ?? target.default);
    if (typeof file !== 'string' || !file.endsWith('.js') || subpath === './browser' || subpath.startsWith('./browser/')) continue;
    const name = `${manifest.name}${subpath.slice(1)}`;
    try {
      await import(new URL(`${dir}/${file}`, packagesDir).href);
      result.imported.push(name);
    } catch (error) {
      result.failed.push(`${name}: ${String(error)}`);
    }
  }
}

const { UserQuestions } = await import('@askseam/user-questions');
const { createWebSocketHost } = await import('../../dist/index.js');
const { WebSocket } = await import('ws');
const agent = { id: 'agent-a' };
const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });
const host = await createWebSocketHost({ userQuestions, token: 'secret-token' });
const socket = new WebSocket(`${host.url}?token=secret-token`);
socket.on('message', (data) => {
  const frame = JSON.parse(String(data));
  if (frame.type === 'question/requested') {
    socket.send(JSON.stringify({ type: 'question/respond', id: 'r1', rpcId: frame.rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'go', selected: ['Yes'] }] } } } }));
  }
});
await new Promise((resolve) => socket.once('open', resolve));
result.answer = await userQuestions.ask({ agent, questions: [{ id: 'go', question: 'Go?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
socket.close();
await host.close();
process.stdout.write(JSON.stringify(result));
