// `claim(..., { sessionId })`: the session names the record's bucket, so a store that did not save
// the record (another node's) settles it without reading the rpcId's pointer first. A wrong session
// costs that read and nothing else: the right record is settled, once, and announced once.
import { sampleQuestionRecord } from '@askseam/store-testing';
import { describe, expect, it } from 'vitest';
import { redisStoreKeys, sessionBucket } from './keys.js';
import type { RedisQuestionStore } from './redis-store.js';
import { useRedisStoreFixture } from '../test/store-fixture.js';

const fixture = useRedisStoreFixture();
const { open, raw } = fixture;

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };

/** A session id in another bucket than `sessionId`'s, or (with `sameBucket`) another id in the same one. */
function otherSession(sessionId: string, { sameBucket }: { sameBucket: boolean }): string {
  for (let i = 0; ; i += 1) {
    const candidate = `guess-${i}`;
    if ((sessionBucket(candidate) === sessionBucket(sessionId)) === sameBucket) return candidate;
  }
}

/** Calls per command on the file's Redis since the last reset (INFO commandstats). */
async function commandCalls(): Promise<Record<string, number>> {
  const info = await raw().info('commandstats');
  const calls: Record<string, number> = {};
  for (const [, name, count] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls[name!] = Number(count);
  return calls;
}

/** The pointer reads (GET) and script runs `work` made on Redis; nothing else runs on the file's server meanwhile. */
async function counted(work: () => Promise<unknown>): Promise<{ pointerReads: number; scripts: number }> {
  await raw().call('CONFIG', 'RESETSTAT');
  await work();
  const calls = await commandCalls();
  return { pointerReads: calls.get ?? 0, scripts: (calls.evalsha ?? 0) + (calls.eval ?? 0) };
}

/**
 * Two stores of one app (one prefix): the first saves, the second claims, as the node an answer
 * reaches after another node asked. Both have run once already, so the layout check and the first
 * load of a script are behind them.
 */
async function twoNodes(): Promise<{ asking: RedisQuestionStore; answering: RedisQuestionStore }> {
  const asking = open();
  const answering = open({ keyPrefix: asking.keyPrefix });
  const warm = sampleQuestionRecord({ sessionId: 'warm-up' });
  await asking.save(warm);
  await answering.claim(warm.rpcId, 'aborted');
  return { asking, answering };
}

describe('claim with the session as a bucket hint', () => {
  it('settles and returns the record with the right session, reading no pointer', async () => {
    const { asking, answering } = await twoNodes();
    const record = sampleQuestionRecord({ sessionId: 's-right' });
    await asking.save(record);
    let settled: unknown;
    expect(await counted(async () => (settled = await answering.claim(record.rpcId, 'answered', yes, { sessionId: 's-right' })))).toEqual({ pointerReads: 0, scripts: 1 });
    expect(settled).toEqual({ ...record, outcome: 'answered', answer: yes, settledAt: expect.any(String) });
    expect(await asking.get(record.rpcId)).toEqual(settled);
    expect(await asking.listPending(['s-right'])).toEqual([]);
  });

  it('reads the pointer once without the session, as before', async () => {
    const { asking, answering } = await twoNodes();
    const record = sampleQuestionRecord({ sessionId: 's-none' });
    await asking.save(record);
    expect(await counted(() => answering.claim(record.rpcId, 'answered', yes))).toEqual({ pointerReads: 1, scripts: 1 });
    expect(await asking.get(record.rpcId)).toMatchObject({ outcome: 'answered' });
  });

  it('settles the right record exactly once with a session of another bucket, at the cost of the pointer read', async () => {
    const { asking, answering } = await twoNodes();
    const record = sampleQuestionRecord({ sessionId: 's-real' });
    const wrong = otherSession('s-real', { sameBucket: false });
    await asking.save(record);
    let settled: unknown;
    // A try in the guessed bucket (nothing there), then the pointer, then the claim where the record is.
    expect(await counted(async () => (settled = await answering.claim(record.rpcId, 'answered', yes, { sessionId: wrong })))).toEqual({ pointerReads: 1, scripts: 2 });
    expect(settled).toEqual({ ...record, outcome: 'answered', answer: yes, settledAt: expect.any(String) });
    expect(await asking.get(record.rpcId)).toEqual(settled);
    expect(await asking.listPending(['s-real'])).toEqual([]);
    // Settled once: no second claim wins, by any hint or none, and the first answer stays.
    expect(await answering.claim(record.rpcId, 'cancelled', undefined, { sessionId: wrong })).toBeUndefined();
    expect(await answering.claim(record.rpcId, 'cancelled', undefined, { sessionId: 's-real' })).toBeUndefined();
    expect(await asking.claim(record.rpcId, 'cancelled')).toBeUndefined();
    expect(await asking.get(record.rpcId)).toEqual(settled);
    // Nothing was written in the guessed bucket.
    const keys = redisStoreKeys(asking.keyPrefix);
    expect(await raw().keys(`${keys.record(sessionBucket(wrong), '')}*`)).toEqual([]);
  });

  it("settles the right record with a wrong session of the same bucket, and leaves the wrong session's index alone", async () => {
    const { asking, answering } = await twoNodes();
    const record = sampleQuestionRecord({ sessionId: 's-shared' });
    const neighbour = otherSession('s-shared', { sameBucket: true });
    const theirs = sampleQuestionRecord({ sessionId: neighbour });
    await asking.save(record);
    await asking.save(theirs);
    expect(await counted(() => answering.claim(record.rpcId, 'answered', yes, { sessionId: neighbour }))).toEqual({ pointerReads: 0, scripts: 1 });
    expect(await asking.get(record.rpcId)).toMatchObject({ outcome: 'answered', answer: yes });
    expect(await asking.listPending([neighbour])).toEqual([theirs]);
    expect(await asking.listPending(['s-shared'])).toEqual([]);
  });

  it('returns undefined for an unknown rpcId with a session, writing nothing', async () => {
    const { asking, answering } = await twoNodes();
    const before = (await raw().keys(`${asking.keyPrefix}*`)).sort();
    expect(await answering.claim('never-saved', 'answered', yes, { sessionId: 's-any' })).toBeUndefined();
    expect((await raw().keys(`${asking.keyPrefix}*`)).sort()).toEqual(before);
    expect(await asking.get('never-saved')).toBeUndefined();
  });

  it('loses a second claim with the right session, reading the pointer once and trying no other bucket', async () => {
    const { asking, answering } = await twoNodes();
    const record = sampleQuestionRecord({ sessionId: 's-twice' });
    await asking.save(record);
    const first = await asking.claim(record.rpcId, 'answered', yes);
    let second: unknown = 'not run';
    // The script says "not pending" alike for a settled record and a wrong bucket: the pointer tells them apart.
    expect(await counted(async () => (second = await answering.claim(record.rpcId, 'cancelled', undefined, { sessionId: 's-twice' })))).toEqual({ pointerReads: 1, scripts: 1 });
    expect(second).toBeUndefined();
    expect(await asking.get(record.rpcId)).toEqual(first);
  });

  it('announces a claim with a wrong session once, from the bucket where the record is', async () => {
    const { asking, answering } = await twoNodes();
    const record = sampleQuestionRecord({ sessionId: 's-news' });
    await asking.save(record);
    const heard: string[] = [];
    const subscriber = raw();
    subscriber.on('message', (_channel: string, text: string) => heard.push(text));
    await subscriber.subscribe('news');
    const settled = await answering.claim(record.rpcId, 'answered', yes, { sessionId: otherSession('s-news', { sameBucket: false }), announce: { channel: 'news', before: '{"record":', after: '}' } });
    await raw().publish('news', 'end');
    for (let i = 0; i < 250 && !heard.includes('end'); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard.slice(0, -1).map((text) => JSON.parse(text))).toEqual([{ record: settled }]);
    expect(heard.at(-1)).toBe('end');
  });
});
