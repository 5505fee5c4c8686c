// Review of the performance work (sealed batches, per-tick corking, batched event log): each test
// here names a behaviour a user relied on before that work. Each was written failing against the
// first per-tick corking (its comment names the bug) and passes since the fix.
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, startHost, type Asking } from './fixture.js';

afterEach(cleanup);

/** A question whose frame is about `size` bytes (a plan in `detail`, as plan-mode sends). */
function sizedQuestion(id: string, size: number): AskUserQuestionItem {
  return { id, question: `Approve ${id}?`, detail: 'p'.repeat(size), options: [{ label: 'Yes' }, { label: 'No' }] };
}

describe('per-tick corking and slow-consumer detection', () => {
  // Was a bug (connection.ts #holdWritesForThisTick): while the socket is corked for the tick, every frame
  // written stays in the stream's buffer, and ws's bufferedAmount counts it. A burst of frames in
  // one tick to a client that reads everything therefore looks like a slow consumer, and the
  // client is closed 1008 'slow consumer' although nothing is left unread between ticks.
  it('delivers a burst of questions asked in one tick to a client that reads everything, without closing it as a slow consumer', async () => {
    const { connect, ask } = await startHost({ maxBufferedBytes: 8 * 1024 });
    const client = await connect();
    await client.next('hello');
    // 20 frames of ~1 KiB each, asked in one tick: 20 KiB, far below any kernel socket buffer, so
    // without the tick's cork each write leaves at once and bufferedAmount stays near 0.
    const asks: Asking[] = [];
    for (let index = 0; index < 20; index++) asks.push(ask('agent-a', [sizedQuestion(`q${index}`, 1024)]));
    const outcome = await Promise.race([
      client.closed.then((info) => `closed ${info.code} ${info.reason}`),
      (async () => {
        for (let index = 0; index < 20; index++) await client.next('question/requested');
        return 'all delivered';
      })(),
    ]);
    expect(outcome).toBe('all delivered');
  });

  // Same bug, answering side: a client that answers many questions in one write gets one receipt
  // (and one question/resolved) per answer within a single tick of the host, all corked; the
  // receipts add up past maxBufferedBytes and the answering client is cut off mid-batch.
  it('accepts many answers sent in one write and sends every receipt, without closing the client as a slow consumer', async () => {
    const { connect, ask } = await startHost({ maxBufferedBytes: 4 * 1024 });
    const client = await connect();
    await client.next('hello');
    const count = 60;
    const asks: Asking[] = [];
    for (let index = 0; index < count; index++) {
      asks.push(ask('agent-a', [{ id: `q${index}`, question: `Q${index}?`, options: [{ label: 'Yes' }, { label: 'No' }] }]));
      // One ask per tick, so that the deliveries themselves never trip the check.
      await client.next('question/requested');
    }
    const rpcIds = client.all('question/requested').map((frame) => ({ rpcId: frame.rpcId, id: frame.questions[0]!.id }));
    // Every respond frame in one TCP write (cork the client's socket around the sends).
    const tcp = (client.socket as unknown as { _socket: import('node:net').Socket })._socket;
    tcp.cork();
    rpcIds.forEach(({ rpcId, id }, index) =>
      client.send({ type: 'question/respond', id: `r${index}`, rpcId, result: { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id, selected: ['Yes'] }] } } } }),
    );
    tcp.uncork();
    const outcome = await Promise.race([
      client.closed.then((info) => `closed ${info.code} ${info.reason}`),
      (async () => {
        for (let index = 0; index < count; index++) await client.next('receipt', (receipt) => receipt.id === `r${index}`);
        return 'every receipt';
      })(),
    ]);
    expect(outcome).toBe('every receipt');
    for (const asking of asks) expect((await asking.settled).ok).toBe(true);
  });
});
