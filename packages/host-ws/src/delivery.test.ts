import type { ServerFrame } from '@askseam/protocol';
import { MemoryQuestionStore, type QuestionRecord } from '@askseam/store';
import { describe, expect, it } from 'vitest';
import { Delivery, type Subscriber } from './delivery.js';
import type { HostEvent } from './events.js';
import { silentLogger } from './logger.js';
import { PendingQuestion, PendingTable } from './pending.js';
import type { Principal } from './principal.js';
import { Reporter } from './reporter.js';

/** A second transport in miniature: frames land in an array, nothing is ever held back. */
class ArraySubscriber implements Subscriber {
  readonly frames: ServerFrame[] = [];
  readonly principalId: string;
  readonly seesEverything = false;
  readonly scope = undefined;

  constructor(
    readonly id: string,
    readonly principal: Principal,
  ) {
    this.principalId = principal.id;
  }

  canSee(sessionId: string): boolean {
    return this.principal.canSee(sessionId);
  }

  sessions(): string[] | undefined {
    return undefined;
  }

  send(frame: ServerFrame): boolean {
    this.frames.push(frame);
    return true;
  }

  sendText(text: string): boolean {
    this.frames.push(JSON.parse(text) as ServerFrame);
    return true;
  }

  replay(frames: readonly { text: () => string; onSent: () => void }[]): void {
    for (const frame of frames) {
      this.sendText(frame.text());
      frame.onSent();
    }
  }

  batch<T>(work: () => T): T {
    return work();
  }
}

function record(rpcId: string, sessionId: string): QuestionRecord {
  return { rpcId, sessionId, askedBy: sessionId, askedAt: '2026-01-01T00:00:00.000Z', mode: 'blocking', questions: [{ id: 'q', question: 'Ready?' }] };
}

function setup() {
  const pending = new PendingTable();
  const events: HostEvent[] = [];
  const delivery = new Delivery(pending, new Reporter((event) => events.push(event), silentLogger, new MemoryQuestionStore()));
  return { pending, events, delivery };
}

const onlySession = (allowed: string): Principal => ({ id: `p-${allowed}`, canSee: (sessionId) => sessionId === allowed });

describe('Delivery', () => {
  it('greets any Subscriber with hello and the replay of the saved questions it may see, in ask order', () => {
    const { pending, events, delivery } = setup();
    pending.add(new PendingQuestion(record('r1', 'a'), pending.nextSeq(), { saved: true }));
    pending.add(new PendingQuestion(record('r2', 'b'), pending.nextSeq(), { saved: true }));
    pending.add(new PendingQuestion(record('r3', 'a'), pending.nextSeq(), { saved: false }));
    pending.add(new PendingQuestion(record('r4', 'a'), pending.nextSeq(), { saved: true }));
    const subscriber = new ArraySubscriber('s1', onlySession('a'));

    delivery.greet(subscriber);

    expect(subscriber.frames.map((frame) => frame.type)).toEqual(['hello', 'question/requested', 'question/requested']);
    expect(subscriber.frames[0]).toMatchObject({ type: 'hello', pending: ['r1', 'r4'] });
    expect(events).toEqual([
      { type: 'delivered', rpcId: 'r1', sessionId: 'a', connectionId: 's1', replay: true },
      { type: 'delivered', rpcId: 'r4', sessionId: 'a', connectionId: 's1', replay: true },
    ]);
  });

  it('announces a question and its resolution only to the subscribers of its session', () => {
    const { pending, delivery } = setup();
    const inA = new ArraySubscriber('s1', onlySession('a'));
    const inB = new ArraySubscriber('s2', onlySession('b'));
    delivery.audience.add(inA);
    delivery.audience.add(inB);
    const entry = new PendingQuestion(record('r1', 'a'), pending.nextSeq(), { saved: true });
    pending.add(entry);

    delivery.announce(entry);
    delivery.resolved(entry, { outcome: 'answered' });

    expect(inA.frames).toMatchObject([
      { type: 'question/requested', rpcId: 'r1', sessionId: 'a' },
      { type: 'question/resolved', rpcId: 'r1', outcome: 'answered' },
    ]);
    expect(inB.frames).toEqual([]);
  });

  it('tells every subscriber of the session but the one whose accepted receipt already said it (protocol 2)', () => {
    const { pending, delivery } = setup();
    const answering = new ArraySubscriber('s1', onlySession('a'));
    const other = new ArraySubscriber('s2', onlySession('a'));
    delivery.audience.add(answering);
    delivery.audience.add(other);
    const entry = new PendingQuestion(record('r1', 'a'), pending.nextSeq(), { saved: true });
    pending.add(entry);

    delivery.resolved(entry, { outcome: 'answered' }, 's1');

    expect(answering.frames).toEqual([]);
    expect(other.frames).toEqual([{ type: 'question/resolved', rpcId: 'r1', sessionId: 'a', outcome: 'answered' }]);
  });
});
