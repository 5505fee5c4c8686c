import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, redAnswer, startHost } from '../test/fixture.js';

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
});
