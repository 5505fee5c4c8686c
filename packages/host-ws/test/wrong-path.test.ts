// Upgrades to a path the host does not serve, from peers that reset the connection at once: the
// refusal must never be written to a socket that has no 'error' listener, or one ECONNRESET ends
// the whole process. Run in a child process, because a crash is what is being looked for.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild, killChildren, removeBundles, startChild, type StartedChild } from '@askseam/test-support';
import { TOKEN } from './fixture.js';
import { sendUpgrade, statusOf, tcpConnect, upgradeRequest } from './hardening/wire.js';
import { RawClient } from './raw-client.js';

let script: string;
beforeAll(async () => {
  script = await bundleChild(new URL('./serve-child.ts', import.meta.url));
});
afterEach(killChildren);
afterAll(removeBundles);

/** 200 upgrades to /wrong, each reset (RST) by the peer right after its request has left. */
async function resetStorm(wrong: string): Promise<void> {
  await Promise.all(
    Array.from({ length: 200 }, async () => {
      const { socket, closed } = await tcpConnect(wrong);
      socket.write(upgradeRequest(wrong), () => setImmediate(() => socket.resetAndDestroy()));
      await closed;
    }),
  );
}

/** 'running', or how the child ended and what it said (a crash is seen within a second). */
async function stateOf(started: StartedChild<unknown>): Promise<unknown> {
  const stillRunning = new Promise<string>((resolve) => setTimeout(() => resolve('running'), 1_000));
  return Promise.race([started.exited.then((how) => ({ ...how, stderr: started.stderr() })), stillRunning]);
}

describe.each(['own', 'attached'] as const)('a host on its %s listener', (mode) => {
  it('survives 200 wrong-path upgrades reset by their peers, and keeps serving', async () => {
    const started = await startChild<{ url: string }>(script, [mode, TOKEN]);
    const url = started.ready.url;
    // A crash mid-storm shows as a refused or reset connection; the child's state says why.
    await resetStorm(url.replace(/\/askseam$/, '/wrong')).catch(() => undefined);
    expect(await stateOf(started)).toBe('running');
    const client = await RawClient.connect(`${url}?token=${TOKEN}`);
    expect((await client.next('hello')).type).toBe('hello');
    await client.close();
  });

  it('refuses an upgrade on another path with 404 and hangs up when nobody else listens for upgrades', async () => {
    const { ready } = await startChild<{ url: string }>(script, [mode, TOKEN]);
    const wrong = ready.url.replace(/\/askseam$/, '/wrong');
    // A hang guard, not a timing check: a host that leaves the socket alone never answers.
    const refused = await Promise.race([sendUpgrade(wrong, upgradeRequest(wrong)), new Promise<undefined>((resolve) => setTimeout(resolve, 5_000))]);
    expect(refused && statusOf(refused.head), 'no answer within 5 s').toBe(404);
    await refused?.closed;
  });
});
