// A host alone in its process, for tests that must see whether the process survives what a peer
// does. `own`: the host's own listener; `attached`: an http.Server whose only upgrade listener is
// the host. Prints one JSON line ({ url }) once it listens, then serves until it is killed.
import { createServer } from 'node:http';
import { createWebSocketHost } from '@askseam/host-ws';
import { UserQuestions } from '@askseam/user-questions';

async function main(): Promise<void> {
  const [mode, token] = process.argv.slice(2);
  if ((mode !== 'own' && mode !== 'attached') || token === undefined) throw new Error('usage: serve-child own|attached <token>');
  const userQuestions = new UserQuestions();
  if (mode === 'own') {
    const host = await createWebSocketHost({ userQuestions, token });
    process.stdout.write(`${JSON.stringify({ url: host.url })}\n`);
    return;
  }
  const server = createServer((_req, res) => res.end('app page'));
  const host = await createWebSocketHost({ userQuestions, token, server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`${JSON.stringify({ url: host.url })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
