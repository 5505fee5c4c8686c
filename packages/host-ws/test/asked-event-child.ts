// The process the asked-event test kills: a host on a SQLite file asks detached questions and
// SIGKILLs itself synchronously in the callback of one askDetached that has just resolved (no
// close(), no flush, not even another microtask). Arguments: <sqlite file> <token> <count>
// <"one-by-one" | "burst"> <index of the ask after which to die (one-by-one)>.
import { createWebSocketHost } from '@askseam/host-ws';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { UserQuestions } from '@askseam/user-questions';

async function main(): Promise<void> {
  const [file, token, countText, mode, killAtText] = process.argv.slice(2);
  if (file === undefined || token === undefined || countText === undefined || (mode !== 'one-by-one' && mode !== 'burst')) {
    throw new Error('usage: asked-event-child <sqlite file> <token> <count> <one-by-one|burst> [kill at]');
  }
  const count = Number(countText);
  const killAt = Number(killAtText ?? count - 1);
  const store = new SqliteQuestionStore(file);
  const host = await createWebSocketHost({ userQuestions: new UserQuestions(), token, store });
  process.stdout.write(`${JSON.stringify({ url: host.url })}\n`);
  const ask = (i: number) =>
    host.askDetached({ sessionId: `session-${i % 3}`, questions: [{ id: 'colour', question: `Which colour (${i})?`, options: [{ label: 'Red' }, { label: 'Blue' }] }], state: { step: i } });
  const die = (): never => {
    process.kill(process.pid, 'SIGKILL');
    throw new Error('still alive after SIGKILL');
  };
  if (mode === 'burst') {
    // One burst, as an agent fanning out: every save shares a group commit; die at the last resolve.
    let resolved = 0;
    for (let i = 0; i < count; i++) void ask(i).then(() => (++resolved === count ? die() : undefined));
    return;
  }
  for (let i = 0; i < count; i++) await ask(i).then(() => (i === killAt ? die() : undefined));
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
