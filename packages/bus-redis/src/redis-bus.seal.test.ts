// Sealed news on one real Redis: buses sharing a `sealKey` deliver each other's `asked` and `settled`
// (published, or announced by a store inside its write) as `{ sealed: true }`; anything a node
// without the key, with another key, or a hand on the raw connection sent arrives `{ sealed: false }`
// and is still delivered, as a hint.
import { randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { QuestionBusListener, QuestionBusMessage, QuestionRecord } from '@askseam/store';
import { sampleQuestionRecord } from '@askseam/store-testing';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer, type TestRedisServer } from '@askseam/store-redis/testing';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisQuestionBus, type RedisQuestionBusLogger } from './redis-bus.js';

let server: TestRedisServer;
const buses: RedisQuestionBus[] = [];
const stores: RedisQuestionStore[] = [];
const rawClients: Redis[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});

afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
  for (const store of stores.splice(0)) await store.close();
  for (const client of rawClients.splice(0)) client.disconnect();
});

afterAll(async () => {
  await server?.stop();
});

/** The key the nodes of one app share, and another app's. */
const key = randomBytes(32);
const otherKey = randomBytes(32);

const yes = { answers: [{ id: 'deploy', selected: ['Yes'] }] };
const alex = { principalId: 'alex', via: 'websocket' } as const;

function randomPrefix(): string {
  return `test-${randomUUID()}:`;
}

function open(options: ConstructorParameters<typeof RedisQuestionBus>[0] = {}, url = server.url): RedisQuestionBus {
  const bus = new RedisQuestionBus({ url, ...options });
  buses.push(bus);
  return bus;
}

function openStore(keyPrefix: string): RedisQuestionStore {
  const store = new RedisQuestionStore({ url: server.url, keyPrefix });
  stores.push(store);
  return store;
}

function rawClient(): Redis {
  const client = new Redis(server.url, { maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  rawClients.push(client);
  return client;
}

interface Delivered {
  readonly message: QuestionBusMessage;
  readonly sealed: boolean | undefined;
}

interface Heard extends QuestionBusListener {
  readonly delivered: Delivered[];
}

function hear(): Heard {
  const delivered: Delivered[] = [];
  return { delivered, message: (message, delivery) => delivered.push({ message, sealed: delivery?.sealed }), resync: () => {} };
}

function recordingLogger(): RedisQuestionBusLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => warnings.push(message), error: () => {} };
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Gave up after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Each listener has heard at least `count` messages. */
async function heardAll(count: number, ...listeners: Heard[]): Promise<void> {
  await waitFor(`${count} messages each`, () => listeners.every((heard) => heard.delivered.length >= count));
}

/** Asked on a node none of the test's buses is, so no bus hears a settled twice (bus channel and asker's). */
function askedElsewhere(overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  return { ...sampleQuestionRecord({ askedOn: 'elsewhere' }), ...overrides };
}

function settledRecord(record: QuestionRecord, settlement: Partial<QuestionRecord>): QuestionRecord {
  return { ...record, settledAt: new Date().toISOString(), ...settlement };
}

describe('sealed messages between buses', () => {
  it('delivers asked and settled published by a node with the same key as sealed, the key given as text to one and as bytes to the other', async () => {
    const keyPrefix = randomPrefix();
    const textKey = randomUUID() + randomUUID();
    const sender = open({ keyPrefix, sealKey: textKey });
    const receiver = open({ keyPrefix, sealKey: Buffer.from(textKey, 'utf8') });
    const heard = hear();
    await receiver.subscribe(heard);
    const record = askedElsewhere();
    const sent: QuestionBusMessage[] = [
      { type: 'asked', from: sender.nodeId, record },
      { type: 'settled', from: sender.nodeId, record: settledRecord(record, { outcome: 'answered', answer: yes, answeredBy: alex }) },
      { type: 'settled', from: sender.nodeId, record: settledRecord(askedElsewhere(), { outcome: 'cancelled' }), message: 'no longer needed' },
    ];
    for (const message of sent) await sender.publish(message);
    await heardAll(3, heard);
    expect(heard.delivered).toEqual(sent.map((message) => ({ message, sealed: true })));
  });

  it('seals only what a node says as itself: a message it passes on under another node id goes unsealed', async () => {
    const keyPrefix = randomPrefix();
    const sender = open({ keyPrefix, sealKey: key });
    const receiver = open({ keyPrefix, sealKey: key });
    const heard = hear();
    await receiver.subscribe(heard);
    const passedOn: QuestionBusMessage = { type: 'asked', from: 'another-node', record: askedElsewhere() };
    const own: QuestionBusMessage = { type: 'asked', from: sender.nodeId, record: askedElsewhere() };
    await sender.publish(passedOn);
    await sender.publish(own);
    await heardAll(2, heard);
    expect(heard.delivered).toEqual([
      { message: passedOn, sealed: false },
      { message: own, sealed: true },
    ]);
  });

  it('delivers a voted message unsealed even between nodes with the key: only asked and settled are sealed', async () => {
    const keyPrefix = randomPrefix();
    const sender = open({ keyPrefix, sealKey: key });
    const receiver = open({ keyPrefix, sealKey: key });
    const heard = hear();
    await receiver.subscribe(heard);
    const voted: QuestionBusMessage = { type: 'voted', from: sender.nodeId, record: askedElsewhere({ votes: [{ ...alex, at: new Date().toISOString() }] }) };
    await sender.publish(voted);
    await heardAll(1, heard);
    expect(heard.delivered).toEqual([{ message: voted, sealed: false }]);
  });

  it('delivers the news of a node without the key, or with another key, as unsealed hints; a node without a key hears sealed news unsealed', async () => {
    const keyPrefix = randomPrefix();
    const logger = recordingLogger();
    const keyed = open({ keyPrefix, sealKey: key, nodeId: 'keyed' });
    const keyless = open({ keyPrefix, nodeId: 'keyless' });
    const foreign = open({ keyPrefix, sealKey: otherKey, nodeId: 'foreign' });
    const listener = open({ keyPrefix, sealKey: key, logger });
    const heardByKeyed = hear();
    const heardByKeyless = hear();
    const heard = hear();
    await keyed.subscribe(heardByKeyed);
    await keyless.subscribe(heardByKeyless);
    await listener.subscribe(heard);
    const record = askedElsewhere();
    const fromKeyless: QuestionBusMessage = { type: 'asked', from: 'keyless', record };
    const fromForeign: QuestionBusMessage = { type: 'settled', from: 'foreign', record: settledRecord(record, { outcome: 'answered', answer: yes }) };
    const fromKeyed: QuestionBusMessage = { type: 'settled', from: 'keyed', record: settledRecord(askedElsewhere(), { outcome: 'cancelled' }), message: 'gone' };
    await keyless.publish(fromKeyless);
    await foreign.publish(fromForeign);
    await keyed.publish(fromKeyed);
    await heardAll(3, heard);
    expect(heard.delivered).toEqual([
      { message: fromKeyless, sealed: false },
      { message: fromForeign, sealed: false },
      { message: fromKeyed, sealed: true },
    ]);
    // Another key is worth a warning (a misconfigured node, or a forgery); no seal at all is not.
    expect(logger.warnings).toEqual(['RedisQuestionBus received a message whose seal does not verify (another key, or forged); treating it as a hint']);
    // The node without a key takes the sealed message apart and hears it whole, as a hint.
    await heardAll(2, heardByKeyless);
    expect(heardByKeyless.delivered).toEqual([
      { message: fromForeign, sealed: false },
      { message: fromKeyed, sealed: false },
    ]);
    // And the keyed node hears the foreign key's message unsealed too.
    await heardAll(2, heardByKeyed);
    expect(heardByKeyed.delivered.map(({ sealed }) => sealed)).toEqual([false, false]);
  });

  it('takes a genuine sealed message replayed by hand as sealed, and any copy with the record, answer, dismissal or sender changed as an unsealed hint', async () => {
    const keyPrefix = randomPrefix();
    const sender = open({ keyPrefix, sealKey: key, nodeId: 'sender' });
    const receiver = open({ keyPrefix, sealKey: key, nodeId: 'receiver' });
    const heard = hear();
    await receiver.subscribe(heard);
    // What the sender really put on the wire, as a client that can reach Redis sees it.
    const wire: string[] = [];
    const tap = rawClient();
    tap.on('message', (_channel: string, text: string) => wire.push(text));
    await tap.subscribe(`${keyPrefix}bus`);
    const asked = askedElsewhere();
    await sender.publish({ type: 'asked', from: 'sender', record: asked });
    await sender.publish({ type: 'settled', from: 'sender', record: settledRecord(asked, { outcome: 'answered', answer: yes, answeredBy: alex }) });
    await sender.publish({ type: 'settled', from: 'sender', record: settledRecord(askedElsewhere(), { outcome: 'cancelled' }), message: 'no longer needed' });
    await heardAll(3, heard);
    await waitFor('the tap to see all three', () => wire.length >= 3);
    expect(heard.delivered.map(({ sealed }) => sealed)).toEqual([true, true, true]);
    heard.delivered.length = 0;

    type Json = { type: string; from: string; record: Record<string, unknown>; message?: string };
    const parts = wire.map((text) => {
      const end = text.lastIndexOf('\n');
      expect(end).toBeGreaterThan(0);
      return { json: JSON.parse(text.slice(0, end)) as Json, seal: text.slice(end + 1) };
    });
    const [askedWire, answeredWire, cancelledWire] = parts as [(typeof parts)[0], (typeof parts)[0], (typeof parts)[0]];
    /** A copy of a wire message with `change` applied, under the original seal. */
    const forged = (original: (typeof parts)[0], change: (json: Json) => void, seal = original.seal): [string, string] => {
      const json = structuredClone(original.json);
      change(json);
      return [JSON.stringify(json), seal];
    };
    const cases: [string, [string, string], boolean][] = [
      ['asked as sent', [JSON.stringify(askedWire.json), askedWire.seal], true],
      ['asked, question text changed', forged(askedWire, (json) => ((json.record.questions as { question: string }[])[0]!.question = 'Delete production?')), false],
      ['asked, moved to another session', forged(askedWire, (json) => (json.record.sessionId = 'victim')), false],
      ['asked, another asking node', forged(askedWire, (json) => (json.record.askedOn = 'receiver')), false],
      ['asked, another sender', forged(askedWire, (json) => (json.from = 'someone')), false],
      ['asked, as voted', forged(askedWire, (json) => (json.type = 'voted')), false],
      ['asked, without its seal', [JSON.stringify(askedWire.json), ''], false],
      ['answered as sent', [JSON.stringify(answeredWire.json), answeredWire.seal], true],
      ['answered, another answer', forged(answeredWire, (json) => (json.record.answer = { answers: [{ id: 'deploy', selected: ['No'] }] })), false],
      ['answered, another person', forged(answeredWire, (json) => (json.record.answeredBy = { principalId: 'mallory', via: 'websocket' })), false],
      ['answered, nobody named', forged(answeredWire, (json) => delete json.record.answeredBy), false],
      ['answered, another question', forged(answeredWire, (json) => (json.record.rpcId = 'another')), false],
      ['answered, another time', forged(answeredWire, (json) => (json.record.settledAt = '2030-01-01T00:00:00.000Z')), false],
      ['answered, with a dismissal', forged(answeredWire, (json) => (json.message = 'added')), false],
      ['answered, another sender', forged(answeredWire, (json) => (json.from = 'someone')), false],
      ['answered, the asked seal', forged(answeredWire, () => {}, askedWire.seal), false],
      ['cancelled as sent', [JSON.stringify(cancelledWire.json), cancelledWire.seal], true],
      ['cancelled, another dismissal', forged(cancelledWire, (json) => (json.message = 'changed my mind')), false],
      ['cancelled, no dismissal', forged(cancelledWire, (json) => delete json.message), false],
      ['cancelled, as answered', forged(cancelledWire, (json) => Object.assign(json.record, { outcome: 'answered', answer: yes })), false],
    ];
    const raw = rawClient();
    for (const [, [json, seal]] of cases) await raw.publish(`${keyPrefix}bus`, seal === '' ? json : `${json}\n${seal}`);
    await heardAll(cases.length, heard);
    // Every copy is delivered (a hint the host checks against the store); only the untouched ones sealed.
    expect(heard.delivered.map(({ message, sealed }, index) => [cases[index]![0], isDeepStrictEqual(message, JSON.parse(cases[index]![1][0])), sealed])).toEqual(
      cases.map(([name, , sealed]) => [name, true, sealed]),
    );
  });
});

describe('sealed announcements of a store', () => {
  it('delivers asked and settled a RedisQuestionStore announced inside its writes as sealed to every road a message takes', async () => {
    const keyPrefix = randomPrefix();
    const answering = open({ keyPrefix, sealKey: key, nodeId: 'answering' });
    const everything = open({ keyPrefix, sealKey: key });
    const follower = open({ keyPrefix, sealKey: key });
    const asking = open({ keyPrefix, sealKey: key, nodeId: 'asking' });
    const heard = { everything: hear(), follower: hear(), asking: hear() };
    await everything.subscribe(heard.everything);
    await follower.subscribe(heard.follower);
    await asking.subscribe(heard.asking);
    await follower.follow('followed');
    // The asking node hears only its own askers' settled, on its own channel.
    await asking.unfollow('*');
    const store = openStore(keyPrefix);
    // Another node's store: it has not saved these records, so a claim with the session goes straight to the bucket.
    const otherStore = openStore(keyPrefix);
    const withAnswerer = sampleQuestionRecord({ sessionId: 'followed', askedOn: 'asking' });
    const withoutAnswerer = sampleQuestionRecord({ sessionId: 'followed', askedOn: 'asking' });
    const dismissed = sampleQuestionRecord({ sessionId: 'followed', askedOn: 'asking' });
    for (const record of [withAnswerer, withoutAnswerer, dismissed]) await store.save(record, { announce: answering.announcement({ type: 'asked' }) });
    await store.claim(withAnswerer.rpcId, 'answered', yes, { announce: answering.announcement({ type: 'settled' }), answeredBy: alex });
    await otherStore.claim(withoutAnswerer.rpcId, 'answered', yes, { announce: answering.announcement({ type: 'settled' }), sessionId: 'followed' });
    await store.claim(dismissed.rpcId, 'cancelled', undefined, { announce: answering.announcement({ type: 'settled', message: 'no longer needed' }) });
    const settled = (record: QuestionRecord) => store.get(record.rpcId) as Promise<QuestionRecord>;
    const expected: Delivered[] = [
      { message: { type: 'asked', from: 'answering', record: withAnswerer }, sealed: true },
      { message: { type: 'asked', from: 'answering', record: withoutAnswerer }, sealed: true },
      { message: { type: 'asked', from: 'answering', record: dismissed }, sealed: true },
      { message: { type: 'settled', from: 'answering', record: await settled(withAnswerer) }, sealed: true },
      { message: { type: 'settled', from: 'answering', record: await settled(withoutAnswerer) }, sealed: true },
      { message: { type: 'settled', from: 'answering', record: await settled(dismissed), message: 'no longer needed' }, sealed: true },
    ];
    expect(expected[3]!.message.record).toMatchObject({ answeredBy: alex });
    expect(expected[4]!.message.record.answeredBy).toBeUndefined();
    await heardAll(6, heard.everything, heard.follower);
    await heardAll(3, heard.asking);
    expect(heard.everything.delivered).toEqual(expected);
    expect(heard.follower.delivered).toEqual(expected);
    expect(heard.asking.delivered).toEqual(expected.slice(3));
  });

  it('seals text the JSON round trip could reorder or re-escape: number-like keys, non-ASCII, lone surrogates, line separators', async () => {
    const keyPrefix = randomPrefix();
    const answering = open({ keyPrefix, sealKey: key, nodeId: 'answering' });
    const receiver = open({ keyPrefix, sealKey: key });
    const heard = hear();
    await receiver.subscribe(heard);
    const awkward = 'naïve 😀 \u2028 \ud800 "quoted" \\ / </script> \n\t end';
    const record = askedElsewhere({
      questions: [{ id: 'deploy', question: awkward, options: [{ label: 'Yes' }, { label: awkward }] }],
      state: { b: 1, 10: [1e21, 0.1, 'x'], a: { 2: null, z: true, '': awkward } },
    });
    const answer = { answers: [{ id: 'deploy', selected: [awkward], custom: awkward }] };
    const store = openStore(keyPrefix);
    await store.save(record, { announce: answering.announcement({ type: 'asked' }) });
    await store.claim(record.rpcId, 'answered', answer, { announce: answering.announcement({ type: 'settled', message: awkward }), answeredBy: { ...alex, user: awkward } });
    // The same through publish, from the record as read back.
    const settled = (await store.get(record.rpcId))!;
    await answering.publish({ type: 'settled', from: 'answering', record: settled, message: awkward });
    await heardAll(3, heard);
    expect(heard.delivered).toEqual([
      { message: { type: 'asked', from: 'answering', record }, sealed: true },
      { message: { type: 'settled', from: 'answering', record: settled, message: awkward }, sealed: true },
      { message: { type: 'settled', from: 'answering', record: settled, message: awkward }, sealed: true },
    ]);
  });

  it('delivers a store announcement of a node with another key, or none, unsealed', async () => {
    const keyPrefix = randomPrefix();
    const foreign = open({ keyPrefix, sealKey: otherKey, nodeId: 'foreign' });
    const keyless = open({ keyPrefix, nodeId: 'keyless' });
    const receiver = open({ keyPrefix, sealKey: key });
    const heard = hear();
    await receiver.subscribe(heard);
    const store = openStore(keyPrefix);
    const first = askedElsewhere();
    const second = askedElsewhere();
    await store.save(first, { announce: foreign.announcement({ type: 'asked' }) });
    await store.save(second, { announce: keyless.announcement({ type: 'asked' }) });
    await store.claim(first.rpcId, 'answered', yes, { announce: keyless.announcement({ type: 'settled' }), answeredBy: alex });
    await store.claim(second.rpcId, 'cancelled', undefined, { announce: foreign.announcement({ type: 'settled', message: 'no' }) });
    await heardAll(4, heard);
    expect(heard.delivered.map(({ message, sealed }) => [message.type, message.from, message.record.rpcId, sealed])).toEqual([
      ['asked', 'foreign', first.rpcId, false],
      ['asked', 'keyless', second.rpcId, false],
      ['settled', 'keyless', first.rpcId, false],
      ['settled', 'foreign', second.rpcId, false],
    ]);
  });

  it('delivers a quorum approval settled by a vote unsealed: the store seals only save and claim', async () => {
    const keyPrefix = randomPrefix();
    const answering = open({ keyPrefix, sealKey: key, nodeId: 'answering' });
    const receiver = open({ keyPrefix, sealKey: key });
    const heard = hear();
    await receiver.subscribe(heard);
    const store = openStore(keyPrefix);
    const record = askedElsewhere();
    await store.save(record);
    const vote = (principalId: string) => store.vote(record.rpcId, { voter: { principalId, via: 'websocket' }, approvals: 2, answer: yes }, { announce: answering.announcement({ type: 'settled' }) });
    expect((await vote('alex')).kind).toBe('counted');
    expect((await vote('sam')).kind).toBe('settled');
    await heardAll(1, heard);
    expect(heard.delivered).toEqual([{ message: { type: 'settled', from: 'answering', record: await store.get(record.rpcId) }, sealed: false }]);
  });
});
