import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, colourQuestion, redAnswer, startHost } from '../test/fixture.js';
import type { HostLogger } from './index.js';

afterEach(cleanup);

describe('heartbeat', () => {
  it('terminates a socket that stops answering protocol pings, keeping its question pending', async () => {
    const { host, connect, ask, event } = await startHost({ heartbeatMs: 40 });
    const silent = await connect({ autoPong: false });
    void ask('agent-a').settled;
    await silent.next('question/requested');
    // Terminated, not closed: there is no one left to do a closing handshake with.
    expect((await silent.closed).code).toBe(1006);
    expect(await event('disconnected')).toMatchObject({ code: 1006 });
    expect(host.pending()).toHaveLength(1);
  });

  it('keeps a socket that answers pings, across several heartbeat ticks', async () => {
    // 100 ms, not less: on a loaded machine a pong that is merely late must not look like a dead peer.
    const { connect, ask } = await startHost({ heartbeatMs: 100 });
    const client = await connect();
    let pings = 0;
    await new Promise<void>((resolve) =>
      client.socket.on('ping', () => {
        if (++pings === 3) resolve();
      }),
    );
    const asking = ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    await client.answer(rpcId, 'agent-a', redAnswer);
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('closes with 1008 "not reading" a client that stops reading but keeps sending unsolicited pongs, and lets go of it', async () => {
    const warned = warnings();
    // closeTimeoutMs far beyond the test: the client sees the close code only once it reads again.
    const { host, connect, ask, event } = await startHost({ heartbeatMs: 40, closeTimeoutMs: 30_000, logger: warned.logger });
    void ask('agent-a', [{ ...colourQuestion, detail: 'x'.repeat(64 * 1024) }]).settled;
    const client = await connect();
    await client.next('question/requested');
    const tcp = (client.socket as unknown as { _socket: import('node:net').Socket })._socket;
    tcp.pause();
    // Unsolicited pongs: the peer looks alive to anything that counts every pong.
    client.socket.pong(Buffer.from('still here'));
    const pongs = setInterval(() => client.socket.pong(Buffer.from('still here')), 10);
    try {
      await warned.until('closing a connection that does not read what it is sent');
    } finally {
      clearInterval(pongs);
    }
    tcp.resume();
    expect(await client.closed).toEqual({ code: 1008, reason: 'not reading' });
    expect(await event('disconnected')).toMatchObject({ code: 1008, reason: 'not reading' });
    // The host's bookkeeping is back to no connection; the question waits for the next one.
    expect(host.connections()).toEqual([]);
    expect(host.pending()).toHaveLength(1);
  });
});

/** A logger that records warnings, and waits (5 s at most) for one. */
function warnings() {
  const seen: string[] = [];
  const waiting = new Set<() => void>();
  const logger: HostLogger = {
    debug() {},
    info() {},
    warn: (message) => {
      seen.push(message);
      for (const wake of waiting) wake();
    },
    error() {},
  };
  return {
    logger,
    until: (message: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(wake);
          reject(new Error(`no warning "${message}" within 5 s; got ${JSON.stringify(seen)}`));
        }, 5_000);
        const wake = () => {
          if (!seen.includes(message)) return;
          waiting.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        waiting.add(wake);
        wake();
      }),
  };
}
