import { describe, expect, it } from 'vitest';
import { ConnectionIndex, type Indexable } from './connection-index.js';

/** A subscriber whose principal lists its sessions as exhaustive, and sees exactly those. */
function scoped(principalId: string, scope: string[]): Indexable {
  return { principalId, seesEverything: false, scope, canSee: (sessionId) => scope.includes(sessionId) };
}

const audienceOf = (index: ConnectionIndex<Indexable>, sessionId: string) => [...index.audience(sessionId)];

describe('ConnectionIndex', () => {
  it('keeps every connection of a session as they come and go, in the order they came', () => {
    const index = new ConnectionIndex<Indexable>();
    const first = scoped('p1', ['s1']);
    const second = scoped('p2', ['s1']);
    const third = scoped('p3', ['s1']);
    index.add(first);
    expect(audienceOf(index, 's1')).toEqual([first]);
    index.add(second);
    index.add(third);
    expect(audienceOf(index, 's1')).toEqual([first, second, third]);
    index.delete(second);
    expect(audienceOf(index, 's1')).toEqual([first, third]);
    index.delete(first);
    index.delete(third);
    expect(audienceOf(index, 's1')).toEqual([]);
    index.add(second);
    expect(audienceOf(index, 's1')).toEqual([second]);
    expect(audienceOf(index, 's2')).toEqual([]);
  });

  it('files a connection once under a session its principal lists twice, and forgets it once', () => {
    const index = new ConnectionIndex<Indexable>();
    const twice = scoped('p1', ['s1', 's1']);
    const other = scoped('p2', ['s1']);
    index.add(twice);
    expect(audienceOf(index, 's1')).toEqual([twice]);
    index.add(other);
    expect(audienceOf(index, 's1')).toEqual([twice, other]);
    index.delete(twice);
    expect(audienceOf(index, 's1')).toEqual([other]);
    expect(index.size).toBe(1);
  });

  it('still asks canSee of a lone connection filed under a session', () => {
    const index = new ConnectionIndex<Indexable>();
    let visible = true;
    const connection: Indexable = { principalId: 'p1', seesEverything: false, scope: ['s1'], canSee: () => visible };
    index.add(connection);
    expect(audienceOf(index, 's1')).toEqual([connection]);
    visible = false;
    expect(audienceOf(index, 's1')).toEqual([]);
  });
});
