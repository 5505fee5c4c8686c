// The behaviour every QuestionBus must have, as a vitest suite a bus author runs against their own
// implementation: `describeQuestionBusContract('redis', (count) => connectNodes(count))`.
import { afterEach, describe, expect, it } from 'vitest';
import { QuestionStoreError, type QuestionBus } from '@askseam/store';
import { sampleQuestionRecord } from './contract.js';
import { questionStoreErrorCode } from './error-code.js';
import { askedMessage, recordingListener, type RecordingListener } from './bus-recording.js';
import { describeFollowContract } from './follow-contract.js';

export interface QuestionBusContractOptions {
  /** Release a bus made by `makeNodes` after each test. Default: `bus.close()`. */
  dispose?: (bus: QuestionBus) => void | Promise<void>;
  /**
   * Cut `bus` off from the others (drop its connection). Given together with `restore`, the suite
   * checks that a bus tells its listener to resync once it is back. An implementation whose only
   * way to do this cuts off every node (stopping a server) may do that.
   */
  interrupt?: (bus: QuestionBus) => void | Promise<void>;
  /** Undo `interrupt` (reconnect; restart the server). */
  restore?: (bus: QuestionBus) => void | Promise<void>;
  /** How long to wait for a message, a resync or a lease expiry before failing. Default 5000 ms. */
  waitMs?: number;
}

function randomName(label: string): string {
  return `${label}-${Math.random().toString(36).slice(2)}`;
}


/** Register the QuestionBus contract tests for the nodes `makeNodes(count)` returns (fresh, unsubscribed, on one shared bus). */
export function describeQuestionBusContract(
  name: string,
  makeNodes: (count: number) => Promise<QuestionBus[]>,
  options: QuestionBusContractOptions = {},
): void {
  const waitMs = options.waitMs ?? 5000;

  async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = waitMs): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`Gave up after ${timeoutMs} ms waiting for ${what}.`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  describe(`QuestionBus contract: ${name}`, () => {
    const made: QuestionBus[] = [];
    afterEach(async () => {
      for (const bus of made.splice(0)) await (options.dispose ?? ((node: QuestionBus) => node.close()))(bus);
    });
    async function nodes(count: number): Promise<QuestionBus[]> {
      const buses = await makeNodes(count);
      made.push(...buses);
      return buses;
    }
    async function subscribed(count: number): Promise<{ buses: QuestionBus[]; listeners: RecordingListener[] }> {
      const buses = await nodes(count);
      const listeners = buses.map(() => recordingListener());
      for (const [index, bus] of buses.entries()) await bus.subscribe(listeners[index]!);
      return { buses, listeners };
    }

    describe('publish and subscribe', () => {
      it('gives every node its own id', async () => {
        const buses = await nodes(3);
        expect(new Set(buses.map((bus) => bus.nodeId)).size).toBe(3);
        for (const bus of buses) expect(bus.nodeId).not.toBe('');
      });

      it('delivers a published message to every other subscribed node and never back to its sender', async () => {
        const { buses, listeners } = await subscribed(3);
        const [a, b] = buses as [QuestionBus, QuestionBus, QuestionBus];
        const [heardByA, heardByB, heardByC] = listeners as [RecordingListener, RecordingListener, RecordingListener];
        const fromA = askedMessage(a.nodeId);
        await a.publish(fromA);
        await waitFor('B and C to receive the message from A', () => heardByB.messages.length === 1 && heardByC.messages.length === 1);
        expect(heardByB.messages).toEqual([fromA]);
        expect(heardByC.messages).toEqual([fromA]);
        // A marker from B that A must receive: A's own message, had it come back, would have come first.
        const marker = askedMessage(b.nodeId);
        await b.publish(marker);
        await waitFor('A to receive the marker from B', () => heardByA.messages.length > 0);
        expect(heardByA.messages).toEqual([marker]);
      });

      it('delivers the messages of one sender in the order they were published', async () => {
        const { buses, listeners } = await subscribed(2);
        const [a] = buses as [QuestionBus, QuestionBus];
        const heardByB = listeners[1]!;
        const sent = Array.from({ length: 25 }, (_, index) =>
          index % 2 === 0
            ? askedMessage(a.nodeId)
            : ({ type: 'settled', from: a.nodeId, record: { ...sampleQuestionRecord(), outcome: 'cancelled', settledAt: '2026-01-02T03:04:06.000Z' }, message: `dismissed ${index}` } as const),
        );
        // Published back to back without waiting in between: the order of the calls is the order of arrival.
        await Promise.all(sent.map((message) => a.publish(message)));
        await waitFor('B to receive all 25 messages', () => heardByB.messages.length >= sent.length);
        expect(heardByB.messages).toEqual(sent);
      });

      it('sends a copy: changing a message after publish changes nothing received, and each receiver has its own', async () => {
        const { buses, listeners } = await subscribed(3);
        const [a] = buses as [QuestionBus, QuestionBus, QuestionBus];
        const [, heardByB, heardByC] = listeners as [RecordingListener, RecordingListener, RecordingListener];
        const message = askedMessage(a.nodeId, { state: { list: [1] } });
        const original = structuredClone(message);
        const published = a.publish(message);
        message.record.questions[0]!.question = 'changed after publish';
        (message.record.state as { list: number[] }).list.push(2);
        await published;
        await waitFor('B and C to receive the message', () => heardByB.messages.length === 1 && heardByC.messages.length === 1);
        expect(heardByB.messages[0]).toEqual(original);
        heardByB.messages[0]!.record.questions[0]!.question = 'changed by B';
        expect(heardByC.messages[0]).toEqual(original);
      });

      it('refuses a message that does not match questionBusMessageSchema, and sends nothing', async () => {
        const { buses, listeners } = await subscribed(2);
        const [a] = buses as [QuestionBus, QuestionBus];
        const heardByB = listeners[1]!;
        await expect(a.publish({ type: 'guessed', from: a.nodeId, record: sampleQuestionRecord() } as never)).rejects.toThrow();
        await expect(a.publish({ type: 'asked', from: a.nodeId, record: { ...sampleQuestionRecord(), questions: [] } })).rejects.toThrow();
        const marker = askedMessage(a.nodeId);
        await a.publish(marker);
        await waitFor('B to receive the valid message', () => heardByB.messages.length > 0);
        expect(heardByB.messages).toEqual([marker]);
      });

      it('refuses a second listener on the same bus', async () => {
        const [bus] = (await nodes(1)) as [QuestionBus];
        await bus.subscribe(recordingListener());
        expect(await questionStoreErrorCode(bus.subscribe(recordingListener()))).toBe('INVALID_INPUT');
      });
    });

    describe('isNodeAlive', () => {
      it('reports a subscribed node alive, itself included', async () => {
        const { buses } = await subscribed(2);
        const [a, b] = buses as [QuestionBus, QuestionBus];
        expect(await a.isNodeAlive(b.nodeId)).toBe(true);
        expect(await b.isNodeAlive(a.nodeId)).toBe(true);
        expect(await a.isNodeAlive(a.nodeId)).toBe(true);
      });

      it('reports an unknown id, a node that has not subscribed and a closed node as not alive', async () => {
        const [a, b, c] = (await nodes(3)) as [QuestionBus, QuestionBus, QuestionBus];
        await a.subscribe(recordingListener());
        await b.subscribe(recordingListener());
        expect(await a.isNodeAlive(randomName('unknown-node'))).toBe(false);
        expect(await a.isNodeAlive(c.nodeId)).toBe(false);
        await b.close();
        expect(await a.isNodeAlive(b.nodeId)).toBe(false);
      });
    });

    describe('acquireLease', () => {
      it('grants a lease to exactly one of many concurrent callers across nodes', async () => {
        const buses = await nodes(3);
        const key = randomName('lease');
        const results = await Promise.all(Array.from({ length: 24 }, (_, index) => buses[index % buses.length]!.acquireLease(key, 60_000)));
        expect(results.filter(Boolean)).toHaveLength(1);
        // Another key is a lease of its own.
        expect(await buses[0]!.acquireLease(randomName('lease'), 60_000)).toBe(true);
      });

      it('grants the lease again once its ttl has passed', async () => {
        const [a, b] = (await nodes(2)) as [QuestionBus, QuestionBus];
        const key = randomName('lease');
        expect(await a.acquireLease(key, 50)).toBe(true);
        expect(await b.acquireLease(key, 50)).toBe(false);
        await waitFor('the 50 ms lease to expire', () => b.acquireLease(key, 60_000));
        expect(await a.acquireLease(key, 60_000)).toBe(false);
      });
    });

    describe('close', () => {
      it('can be called twice, and a closed bus refuses publish and subscribe with STORE_CLOSED', async () => {
        const [a, b] = (await nodes(2)) as [QuestionBus, QuestionBus];
        await a.subscribe(recordingListener());
        await a.close();
        await a.close();
        await b.close();
        expect(await questionStoreErrorCode(a.publish(askedMessage(a.nodeId)))).toBe('STORE_CLOSED');
        expect(await questionStoreErrorCode(b.subscribe(recordingListener()))).toBe('STORE_CLOSED');
      });
    });

    const { interrupt, restore } = options;
    describeFollowContract({ nodes, waitFor, interrupt, restore });

    if (interrupt !== undefined && restore !== undefined) {
      describe('after a dropped connection', () => {
        it('tells the listener to resync once the bus is back, and delivers messages again', async () => {
          const { buses, listeners } = await subscribed(2);
          const [a, b] = buses as [QuestionBus, QuestionBus];
          const heardByB = listeners[1]!;
          await interrupt(b);
          expect(heardByB.resyncs).toBe(0);
          await restore(b);
          await waitFor('B to be told to resync', () => heardByB.resyncs > 0);
          // The sender may need a moment of its own to reconnect: retry until one message gets through.
          const marker = askedMessage(a.nodeId);
          await waitFor('a message from A to reach B again', async () => {
            await a.publish(marker).catch((error: unknown) => {
              if (!QuestionStoreError.isInstance(error) || error.code !== 'STORE_UNAVAILABLE') throw error;
            });
            return heardByB.messages.length > 0;
          });
          expect(heardByB.messages[0]).toEqual(marker);
        });
      });
    }
  });
}
