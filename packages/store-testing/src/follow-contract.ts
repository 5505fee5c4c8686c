// The contract of the optional `QuestionBus.follow`/`unfollow` (news by session, docs/scaling.md),
// registered by describeQuestionBusContract and skipped for a bus without `follow`.
//
// Proving that a message did NOT arrive needs a later message that did: each test sends a marker
// the node must receive after what it must not, then looks at everything it heard. On a bus whose
// sessions travel on separate channels (Redis Cluster shards) a wrongly delivered message could in
// principle still be on its way when the marker lands; the check then passes where it should fail,
// never the other way round.
import { describe, expect, it, type TestContext } from 'vitest';
import { QuestionStoreError, type QuestionBus, type QuestionBusMessage } from '@askseam/store';
import { questionStoreErrorCode } from './error-code.js';
import { recordingListener, type RecordingListener } from './bus-recording.js';
import { sampleQuestionRecord } from './sample.js';

type FollowingBus = QuestionBus & Required<Pick<QuestionBus, 'follow' | 'unfollow'>>;

export interface FollowContractHooks {
  /** Fresh nodes on one bus, released after the test. */
  nodes: (count: number) => Promise<QuestionBus[]>;
  waitFor: (what: string, condition: () => boolean | Promise<boolean>) => Promise<void>;
  interrupt?: ((bus: QuestionBus) => void | Promise<void>) | undefined;
  restore?: ((bus: QuestionBus) => void | Promise<void>) | undefined;
}

let sessionCounter = 0;
function session(label: string): string {
  sessionCounter += 1;
  return `${label}-${sessionCounter}-${Math.random().toString(36).slice(2)}`;
}

function asked(from: string, sessionId: string, askedOn = from): QuestionBusMessage {
  return { type: 'asked', from, record: { ...sampleQuestionRecord({ sessionId }), askedOn } };
}

function settled(from: string, sessionId: string, askedOn: string): QuestionBusMessage {
  return { type: 'settled', from, record: { ...sampleQuestionRecord({ sessionId }), askedOn, outcome: 'cancelled', settledAt: '2026-01-02T03:04:06.000Z' } };
}

function voted(from: string, sessionId: string): QuestionBusMessage {
  return { type: 'voted', from, record: { ...sampleQuestionRecord({ sessionId }), askedOn: from, votes: [{ principalId: 'alex', via: 'socket', at: '2026-01-02T03:04:06.000Z' }] } };
}

/** Register the follow tests (inside the bus contract's describe). */
export function describeFollowContract(hooks: FollowContractHooks): void {
  const { waitFor } = hooks;

  async function following(context: TestContext, count: number): Promise<{ buses: FollowingBus[]; heard: RecordingListener[] }> {
    const buses = await hooks.nodes(count);
    if (buses.some((bus) => bus.follow === undefined || bus.unfollow === undefined)) context.skip();
    const heard = buses.map(() => recordingListener());
    for (const [index, bus] of buses.entries()) await bus.subscribe(heard[index]!);
    return { buses: buses as FollowingBus[], heard };
  }

  describe('follow (news by session)', () => {
    it("delivers a session's asked, voted and settled to a node that follows it, and none of them to a node following another session", async (context) => {
      const { buses, heard } = await following(context, 3);
      const [a, b, c] = buses as [FollowingBus, FollowingBus, FollowingBus];
      const [, heardByB, heardByC] = heard as [RecordingListener, RecordingListener, RecordingListener];
      const one = session('one');
      const two = session('two');
      await b.follow(one);
      await c.follow(two);
      const news = [asked(a.nodeId, one), voted(a.nodeId, one), settled(a.nodeId, one, a.nodeId)];
      for (const message of news) await a.publish(message);
      const forC = asked(a.nodeId, two);
      await a.publish(forC);
      const markerForB = asked(a.nodeId, one);
      await a.publish(markerForB);
      await waitFor("B to receive session one's news and the marker", () => heardByB.messages.length >= 4);
      await waitFor("C to receive session two's question", () => heardByC.messages.length >= 1);
      expect(heardByB.messages).toEqual([...news, markerForB]);
      expect(heardByC.messages).toEqual([forC]);
    });

    it('keeps delivering everything to a node that never followed', async (context) => {
      const { buses, heard } = await following(context, 3);
      const [a, b] = buses as [FollowingBus, FollowingBus, FollowingBus];
      const heardByC = heard[2]!;
      await b.follow(session('elsewhere'));
      const sent = [asked(a.nodeId, session('any')), settled(a.nodeId, session('other'), a.nodeId), voted(b.nodeId, session('third'))];
      await a.publish(sent[0]!);
      await a.publish(sent[1]!);
      await b.publish(sent[2]!);
      await waitFor('C to receive all three messages', () => heardByC.messages.length >= 3);
      expect(heardByC.messages).toHaveLength(3);
      expect(heardByC.messages).toEqual(expect.arrayContaining(sent));
    });

    it("delivers a settled whose record.askedOn names a node to that node without a follow, but not its asked nor another node's settled", async (context) => {
      const { buses, heard } = await following(context, 3);
      const [a, b, c] = buses as [FollowingBus, FollowingBus, FollowingBus];
      const heardByB = heard[1]!;
      await b.follow(session('unrelated'));
      const unfollowed = session('unfollowed');
      await a.publish(asked(a.nodeId, unfollowed, b.nodeId));
      await a.publish(settled(a.nodeId, unfollowed, c.nodeId));
      const toAsker = settled(a.nodeId, unfollowed, b.nodeId);
      await a.publish(toAsker);
      await waitFor("B to receive its asker's settled", () => heardByB.messages.length >= 1);
      // Published last: it doubles as the marker.
      expect(heardByB.messages).toEqual([toAsker]);
    });

    it("delivers only its askers' settled to a node whose first call was unfollow('*') (it serves no session yet)", async (context) => {
      const { buses, heard } = await following(context, 2);
      const [a, b] = buses as [FollowingBus, FollowingBus];
      const heardByB = heard[1]!;
      await b.unfollow('*');
      const somewhere = session('somewhere');
      await a.publish(asked(a.nodeId, somewhere, b.nodeId));
      await a.publish(voted(a.nodeId, somewhere));
      await a.publish(settled(a.nodeId, somewhere, a.nodeId));
      const toAsker = settled(a.nodeId, somewhere, b.nodeId);
      await a.publish(toAsker);
      await waitFor("B to receive its asker's settled", () => heardByB.messages.length >= 1);
      expect(heardByB.messages).toEqual([toAsker]);
    });

    it("delivers every session's news to a node that follows '*', until it unfollows '*'", async (context) => {
      const { buses, heard } = await following(context, 2);
      const [a, b] = buses as [FollowingBus, FollowingBus];
      const heardByB = heard[1]!;
      const kept = session('kept');
      await b.follow('*');
      await b.follow(kept);
      const sent = [asked(a.nodeId, session('s1')), settled(a.nodeId, session('s2'), a.nodeId), voted(a.nodeId, session('s3'))];
      for (const message of sent) await a.publish(message);
      await waitFor('B to receive all three', () => heardByB.messages.length >= 3);
      expect(heardByB.messages).toHaveLength(3);
      expect(heardByB.messages).toEqual(expect.arrayContaining(sent));

      await b.unfollow('*');
      await a.publish(asked(a.nodeId, session('s4')));
      // The session B follows by name stays followed.
      const marker = asked(a.nodeId, kept);
      await a.publish(marker);
      await waitFor('B to receive the marker of the session it still follows', () => heardByB.messages.length >= 4);
      expect(heardByB.messages.slice(3)).toEqual([marker]);
    });

    it("stops a session's news at unfollow, and counts a second follow as one (one copy, one unfollow ends it)", async (context) => {
      const { buses, heard } = await following(context, 2);
      const [a, b] = buses as [FollowingBus, FollowingBus];
      const heardByB = heard[1]!;
      const one = session('one');
      const still = session('still');
      await b.follow(one);
      await b.follow(one);
      await b.follow(still);
      const first = asked(a.nodeId, one);
      await a.publish(first);
      const marker1 = asked(a.nodeId, still);
      await a.publish(marker1);
      await waitFor('B to receive the first question and the marker', () => heardByB.messages.length >= 2);
      await b.unfollow(one);
      await a.publish(asked(a.nodeId, one));
      const marker2 = asked(a.nodeId, still);
      await a.publish(marker2);
      await waitFor('B to receive the second marker', () => heardByB.messages.some((message) => message.record.rpcId === marker2.record.rpcId));
      expect(heardByB.messages).toEqual([first, marker1, marker2]);
    });

    it('does nothing when unfollowing what is not followed, refuses an empty id with INVALID_INPUT, and a closed bus with STORE_CLOSED', async (context) => {
      const { buses } = await following(context, 1);
      const [a] = buses as [FollowingBus];
      await a.unfollow(session('never'));
      await a.unfollow('*');
      expect(await questionStoreErrorCode(a.follow(''))).toBe('INVALID_INPUT');
      expect(await questionStoreErrorCode(a.unfollow(''))).toBe('INVALID_INPUT');
      await a.close();
      expect(await questionStoreErrorCode(a.follow(session('late')))).toBe('STORE_CLOSED');
    });

    const { interrupt, restore } = hooks;
    if (interrupt !== undefined && restore !== undefined) {
      it('still follows the same sessions once the bus is back after a dropped connection', async (context) => {
        const { buses, heard } = await following(context, 2);
        const [a, b] = buses as [FollowingBus, FollowingBus];
        const heardByB = heard[1]!;
        const one = session('one');
        await b.follow(one);
        await interrupt(b);
        await restore(b);
        await waitFor('B to be told to resync', () => heardByB.resyncs > 0);
        // Retry until one gets through (the sender may need a moment to reconnect); each round sends
        // an unfollowed session's question first, which B must never hear.
        await waitFor("session one's news to reach B again", async () => {
          try {
            await a.publish(asked(a.nodeId, session('unfollowed')));
            await a.publish(asked(a.nodeId, one));
          } catch (error) {
            if (!QuestionStoreError.isInstance(error) || error.code !== 'STORE_UNAVAILABLE') throw error;
          }
          return heardByB.messages.length > 0;
        });
        for (const message of heardByB.messages) expect(message.record.sessionId).toBe(one);
      });
    }
  });
}
