import type { AskUserQuestionItem, AskUserQuestionUrgency } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { chooseOption } from './draft.js';
import { RequestQueue, queueCounts, type QueuedRequest } from './queue.js';

const dbQuestion: AskUserQuestionItem = { id: 'db', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] };

function request(rpcId: string, askedAt: string, urgency?: AskUserQuestionUrgency): QueuedRequest {
  return { rpcId, askedAt, questions: [dbQuestion], ...(urgency === undefined ? {} : { urgency }) };
}

/** The same request as a new client's replay brings it: a new object with the same rpcId. */
function replayOf(original: QueuedRequest): QueuedRequest {
  return { ...original };
}

const away = { focusInCard: false };
const inCard = { focusInCard: true };

describe('RequestQueue order', () => {
  it('puts high urgency first, then medium or unsaid, then low, oldest first within each', () => {
    const queue = new RequestQueue<QueuedRequest>();
    const lowOld = request('low-old', '2025-01-01T00:00:00.000Z', 'low');
    const unsaid = request('unsaid', '2025-01-01T00:00:02.000Z');
    const mediumOld = request('medium-old', '2025-01-01T00:00:01.000Z', 'medium');
    const highNew = request('high-new', '2025-01-01T00:00:09.000Z', 'high');
    const highOld = request('high-old', '2025-01-01T00:00:03.000Z', 'high');
    const order = queue.order([lowOld, unsaid, mediumOld, highNew, highOld]).map((each) => each.rpcId);
    expect(order).toEqual(['high-old', 'high-new', 'medium-old', 'unsaid', 'low-old']);
  });

  it('keeps requests asked in the same millisecond in the order the host sent them', () => {
    const queue = new RequestQueue<QueuedRequest>();
    const sameTime = '2025-01-01T00:00:00.000Z';
    const sent = ['c', 'a', 'b'].map((rpcId) => request(rpcId, sameTime));
    expect(queue.order(sent).map((each) => each.rpcId)).toEqual(['c', 'a', 'b']);
  });
});

describe('RequestQueue current', () => {
  const older = request('older', '2025-01-01T00:00:00.000Z');
  const urgent = request('urgent', '2025-01-01T00:00:05.000Z', 'high');

  it('shows the head of the queue while nothing is started and focus is elsewhere', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.show(older);
    expect(queue.current(queue.order([older, urgent]), away)).toBe(urgent);
  });

  it('keeps a request the person has started on screen when a more urgent one arrives', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.show(older);
    queue.stateOf(older).touched = true;
    expect(queue.current(queue.order([older, urgent]), away)).toBe(older);
  });

  it('keeps the request on screen while focus is in its card, even untouched', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.show(older);
    expect(queue.current(queue.order([older, urgent]), inCard)).toBe(older);
  });

  it('follows a started request by rpcId into a replay, returning the replayed object', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.show(older);
    queue.stateOf(older).touched = true;
    const replayed = replayOf(older);
    expect(queue.current(queue.order([urgent, replayed]), away)).toBe(replayed);
  });

  it('falls back to the head once the request on screen is no longer pending', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.show(older);
    queue.stateOf(older).touched = true;
    expect(queue.current(queue.order([urgent]), inCard)).toBe(urgent);
    expect(queue.current([], inCard)).toBeUndefined();
  });

  it('shows a request the person asked for by name over a more urgent one and over a started card', () => {
    const queue = new RequestQueue<QueuedRequest>();
    const started = request('started', '2025-01-01T00:00:01.000Z');
    queue.show(started);
    queue.stateOf(started).touched = true;
    queue.want('older');
    expect(queue.current(queue.order([older, urgent, started]), inCard)).toBe(older);
  });

  it('forgets the asked-for request once it is resolved, back to the usual order', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.want('older');
    queue.show(older);
    queue.resolved('older', away);
    const again = replayOf(older);
    expect(queue.current(queue.order([again, urgent]), away)).toBe(urgent);
  });
});

describe('RequestQueue state', () => {
  it('keeps the draft of an rpcId through a replay of the same rpcId', () => {
    const queue = new RequestQueue<QueuedRequest>();
    const first = request('rpc-1', '2025-01-01T00:00:00.000Z');
    const state = queue.stateOf(first);
    state.draft = chooseOption(state.draft, dbQuestion, 0, 'SQLite');
    const replayed = queue.stateOf(replayOf(first));
    expect(replayed).toBe(state);
    expect(replayed.draft.items[0]?.selected).toEqual(['SQLite']);
  });

  it('decides the card kind once, when the rpcId is first seen', () => {
    const queue = new RequestQueue<QueuedRequest>();
    const first = request('rpc-1', '2025-01-01T00:00:00.000Z');
    const card = queue.stateOf(first).card;
    expect(card).toEqual({ kind: 'composer' });
    expect(queue.stateOf(replayOf(first)).card).toBe(card);
  });

  it('forgets the draft once the request is resolved, so a late receipt changes nothing', () => {
    const queue = new RequestQueue<QueuedRequest>();
    const first = request('rpc-1', '2025-01-01T00:00:00.000Z');
    const state = queue.stateOf(first);
    expect(queue.holds('rpc-1', state)).toBe(true);
    queue.resolved('rpc-1', away);
    expect(queue.holds('rpc-1', state)).toBe(false);
    expect(queue.stateOf(first)).not.toBe(state);
  });
});

describe('RequestQueue resolved', () => {
  const shown = request('shown', '2025-01-01T00:00:00.000Z');
  const other = request('other', '2025-01-01T00:00:01.000Z');

  it('takes focus to the next request when the one on screen is resolved with focus in its card', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.show(shown);
    expect(queue.resolved('shown', inCard)).toEqual({ focusNext: true });
  });

  it('takes focus to the next request when the send began with focus in the card (locking dropped it)', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.show(shown);
    queue.stateOf(shown).hadFocus = true;
    expect(queue.resolved('shown', away)).toEqual({ focusNext: true });
  });

  it('leaves focus alone for a person elsewhere on the page, or when another request is resolved', () => {
    const queue = new RequestQueue<QueuedRequest>();
    queue.show(shown);
    queue.stateOf(shown);
    expect(queue.resolved('shown', away)).toEqual({ focusNext: false });
    queue.show(other);
    expect(queue.resolved('shown', inCard)).toEqual({ focusNext: false });
  });
});

describe('queueCounts', () => {
  it('counts every waiting request and the urgent ones, and those waiting besides the current one', () => {
    const high = request('high', '2025-01-01T00:00:00.000Z', 'high');
    const highToo = request('high-too', '2025-01-01T00:00:01.000Z', 'high');
    const low = request('low', '2025-01-01T00:00:02.000Z', 'low');
    expect(queueCounts([high, highToo, low], high)).toEqual({ count: 3, urgent: 2, waiting: 2, urgentWaiting: 1 });
    expect(queueCounts([], undefined)).toEqual({ count: 0, urgent: 0, waiting: 0, urgentWaiting: 0 });
  });
});
