// Hostile but well-formed input: frames that parse, from clients that passed authentication, built
// to confuse the checks (prototype keys, near-miss labels, huge and deep payloads, other sessions).
// Each must get the right receipt or error frame, leave the connection usable, and settle nothing.
import type { ReceiptFrame } from '@askseam/protocol';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/index.js';
import { cleanup, colourQuestion, redAnswer, startHost, TOKEN, type Asking, type TestHost } from '../fixture.js';
import type { RawClient } from '../raw-client.js';
import { sendUpgrade, statusOf, turns, upgradeRequest } from './wire.js';

afterEach(cleanup);

const MAX_PAYLOAD = 1024 * 1024;

/** `?session=X` sees session X only; without it, the fixture's token sees every session. */
function bySession(req: { url?: string }): Principal | undefined {
  const session = new URL(req.url ?? '/', 'http://upgrade.invalid').searchParams.get('session');
  return session === null ? undefined : { id: `user-of-${session}`, canSee: (id) => id === session, sessions: [session] };
}

async function hostileHost(sessions: string[] = ['agent-a', 'agent-b']): Promise<TestHost> {
  // Error frames are part of what is tested here, so the bad-frame limit must not end the connection.
  return startHost({ authenticate: bySession, maxBadFrames: 1_000, maxPayload: MAX_PAYLOAD }, sessions);
}

let sent = 0;
/** Send a respond frame whose `result` is the given JSON text, exactly as written, and wait for its receipt. */
async function respondRaw(client: RawClient, rpcId: string, resultJson: string): Promise<ReceiptFrame> {
  const id = `h${++sent}`;
  const text = `{"type":"question/respond","id":${JSON.stringify(id)},"rpcId":${JSON.stringify(rpcId)},"result":${resultJson}}`;
  expect(Buffer.byteLength(text)).toBeLessThan(MAX_PAYLOAD);
  client.send(text);
  return client.next('receipt', (receipt) => receipt.id === id);
}

/** `{ ok: true, value: { sessionId, answer } }` as JSON text, with `answerJson` spliced in as written. */
const okResult = (sessionId: string, answerJson: string) => `{"ok":true,"value":{"sessionId":${JSON.stringify(sessionId)},"answer":${answerJson}}}`;

/** The question is still pending, nothing settled it, and its ask is still waiting. */
async function expectUntouched(testHost: TestHost, asking: Asking, rpcId: string): Promise<void> {
  expect(testHost.host.pending().map((entry) => entry.rpcId)).toContain(rpcId);
  const settling = testHost.events.filter((event) => (event.type === 'answered' || event.type === 'cancelled' || event.type === 'aborted') && event.rpcId === rpcId);
  expect(settling).toEqual([]);
  expect(await Promise.race([asking.settled.then(() => 'settled'), turns(3).then(() => 'waiting')])).toBe('waiting');
}

/** The connection still answers pings after whatever it was sent. */
async function expectUsable(client: RawClient): Promise<void> {
  client.send({ type: 'ping' });
  await client.next('pong');
}

/** The rpcId of the host's pending question number `index` (in ask order). */
function pendingRpcId(testHost: TestHost, index = 0): string {
  const entry = testHost.host.pending()[index];
  if (entry === undefined) throw new Error(`the host has no pending question #${index}`);
  return entry.rpcId;
}

function expectRefused(receipt: ReceiptFrame, reason: 'bad-response' | 'forbidden' | 'not-pending'): void {
  expect(receipt).toMatchObject({ accepted: false, reason });
}

describe('keys named after Object.prototype', () => {
  it('refuses answers carrying __proto__, constructor or prototype keys, and pollutes nothing', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const asking = testHost.ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    const item = '{"id":"colour","selected":["Red (Recommended)"]}';
    const poison = '{"polluted":"yes","ok":true,"answers":[]}';
    const hostile = [
      okResult('agent-a', `{"answers":[${item}],"__proto__":${poison}}`),
      okResult('agent-a', `{"answers":[{"id":"colour","selected":["Red (Recommended)"],"__proto__":${poison}}]}`),
      okResult('agent-a', `{"answers":[${item}],"constructor":{"prototype":${poison}}}`),
      okResult('agent-a', `{"answers":[${item}],"prototype":${poison}}`),
      // The answer exists only behind __proto__: reading through the prototype would find it.
      okResult('agent-a', `{"__proto__":{"answers":[${item}]}}`),
      `{"ok":true,"value":{"sessionId":"agent-a","answer":{"answers":[${item}]},"__proto__":${poison}}}`,
      `{"ok":true,"value":{"sessionId":"agent-a","answer":{"answers":[${item}]}},"constructor":${poison}}`,
      `{"__proto__":{"ok":true,"value":{"sessionId":"agent-a","answer":{"answers":[${item}]}}}}`,
      // A dismissal with a poisoned error must not dismiss.
      '{"ok":false,"error":{"code":"cancelled","__proto__":{"code":"cancelled"}}}',
      '{"ok":false,"__proto__":{"error":{"code":"cancelled"}}}',
    ];
    for (const result of hostile) {
      const receipt = await respondRaw(client, rpcId, result);
      expect(receipt, result).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.any(String) });
    }
    await expectUntouched(testHost, asking, rpcId);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');

    await expectUsable(client);
    expect(await respondRaw(client, rpcId, okResult('agent-a', JSON.stringify(redAnswer)))).toMatchObject({ accepted: true });
    const answer = await asking;
    expect(answer).toEqual(redAnswer);
    expect(Object.getPrototypeOf(answer)).toBe(Object.prototype);
  });

  it('does not take a result hidden under a __proto__ key of the frame as the frame\'s result', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const asking = testHost.ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    const hidden = okResult('agent-a', JSON.stringify(redAnswer));
    // Without an own `result` the frame is not a respond frame at all.
    client.send(`{"type":"question/respond","id":"hidden","rpcId":${JSON.stringify(rpcId)},"__proto__":{"result":${hidden}}}`);
    expect(await client.next('error')).toMatchObject({ code: 'invalid-frame', message: expect.stringContaining('result') });
    // A frame type that only exists on the prototype of the schema table is an unknown type.
    client.send('{"type":"__proto__"}');
    client.send('{"type":"constructor"}');
    client.send('{"__proto__":{"type":"ping"}}');
    expect((await client.next('error')).code).toBe('unknown-type');
    expect((await client.next('error')).code).toBe('unknown-type');
    expect((await client.next('error')).code).toBe('unknown-type');
    await expectUntouched(testHost, asking, rpcId);
    await expectUsable(client);
    expect(client.all('receipt')).toEqual([]);
  });
});

describe('labels that nearly match', () => {
  const composed = 'Caf\u00e9'; // é as one code point (NFC)
  const decomposed = 'Nai\u0308ve'; // ï as i + combining diaeresis (NFD)
  const question: AskUserQuestionItem = {
    id: 'pick',
    question: 'Which one?',
    options: [{ label: 'Red (Recommended)' }, { label: composed }, { label: decomposed }],
  };
  const pick = (label: string, id = 'pick'): AskUserQuestionAnswer => ({ answers: [{ id, selected: [label] }] });

  it('refuses every near miss as an unknown label and accepts only the label exactly as offered', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const asking = testHost.ask('agent-a', [question]);
    const { rpcId } = await client.next('question/requested');
    const nearMisses = [
      'Red (Recommended) ',
      ' Red (Recommended)',
      'Red',
      'Red ',
      'red (recommended)',
      'Red (recommended)',
      'Red（Recommended）',
      'Red\u200b (Recommended)',
      'R\u0435d (Recommended)', // Cyrillic е
      composed.normalize('NFD'),
      decomposed.normalize('NFC'),
      `${composed}\u0000`,
      '\ud800', // a lone surrogate, legal in JSON text
    ];
    for (const label of nearMisses) {
      const receipt = await client.answer(rpcId, 'agent-a', pick(label));
      expect(receipt, JSON.stringify(label)).toMatchObject({ accepted: false, reason: 'bad-response' });
      expect(receipt.accepted === false && receipt.detail).toContain('has no option labelled');
    }
    // An id that nearly matches is the wrong id, in the place of the right one.
    for (const id of ['pick ', 'Pick', 'pic\u006b\u0307']) {
      const receipt = await client.answer(rpcId, 'agent-a', pick('Red (Recommended)', id));
      expect(receipt.accepted === false && receipt.detail, JSON.stringify(id)).toContain('answers must follow the questions\' order');
    }
    await expectUntouched(testHost, asking, rpcId);
    await expectUsable(client);

    expect(await client.answer(rpcId, 'agent-a', pick(decomposed))).toMatchObject({ accepted: true });
    const answer = await asking;
    // Byte for byte what was offered: the host does not normalise labels on the way back either.
    expect(answer.answers[0]?.selected[0]).toBe(decomposed);
  });
});

describe('big payloads within maxPayload', () => {
  const multi: AskUserQuestionItem = { id: 'extras', question: 'Which extras?', multiSelect: true, options: [{ label: 'Backups' }, { label: 'Metrics' }] };
  const single: AskUserQuestionItem = { id: 'note', question: 'Anything to add?' };

  it('refuses huge selections and answer lists with bad-response, then accepts a custom text just under the limit intact', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const asking = testHost.ask('agent-a', [multi, single]);
    const { rpcId } = await client.next('question/requested');
    const answerWith = (extras: string[], note: object = { id: 'note', selected: [] }) =>
      okResult('agent-a', JSON.stringify({ answers: [{ id: 'extras', selected: extras }, note] }));
    const cases: [string, string, RegExp][] = [
      ['the same label 80,000 times', answerWith(Array.from({ length: 80_000 }, () => 'Backups')), /selects the same option twice/],
      ['60,000 labels nobody offered', answerWith(Array.from({ length: 60_000 }, (_, index) => `L${index}`)), /has no option labelled "L0"/],
      ['both real labels, then 60,000 more', answerWith(['Backups', 'Metrics', ...Array.from({ length: 60_000 }, (_, index) => `M${index}`)]), /has no option labelled "M0"/],
      ['25,000 answers to two questions', okResult('agent-a', JSON.stringify({ answers: Array.from({ length: 25_000 }, () => ({ id: 'extras', selected: [] })) })), /Expected 2 answer/],
      ['50,000 picks on a single-select question', answerWith([], { id: 'note', selected: Array.from({ length: 50_000 }, (_, index) => `x${index}`) }), /is single-select but 50000 options were selected/],
      ['one pick on a question without options', answerWith([], { id: 'note', selected: ['x'.repeat(500_000)] }), /offers no options/],
    ];
    for (const [what, result, detail] of cases) {
      const receipt = await respondRaw(client, rpcId, result);
      expect(receipt, what).toMatchObject({ accepted: false, reason: 'bad-response' });
      expect(receipt.accepted === false && receipt.detail, what).toMatch(detail);
    }
    await expectUntouched(testHost, asking, rpcId);
    await expectUsable(client);

    const custom = `${'long answer '.repeat(80_000)}end`;
    const receipt = await respondRaw(client, rpcId, answerWith(['Metrics', 'Backups'], { id: 'note', selected: [], custom }));
    expect(receipt).toMatchObject({ accepted: true });
    const answer = await asking;
    expect(answer.answers[1]?.custom).toBe(custom);
    expect(answer.answers[0]?.selected).toEqual(['Metrics', 'Backups']);
  });
});

describe('deeply nested JSON within maxPayload', () => {
  const depth = 100_000;
  const nestedArray = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const nestedObject = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it('refuses deep structures where a value belongs with bad-response, without cancelling', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const asking = testHost.ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    const hostile = [
      okResult('agent-a', nestedArray),
      okResult('agent-a', nestedObject),
      okResult('agent-a', `{"answers":[{"id":"colour","selected":[],"custom":${nestedArray}}]}`),
      okResult('agent-a', `{"answers":[{"id":"colour","selected":${nestedArray}}]}`),
      `{"ok":true,"value":{"sessionId":${nestedObject},"answer":${JSON.stringify(redAnswer)}}}`,
      `{"ok":false,"error":{"code":"cancelled","message":${nestedArray}}}`,
      `{"ok":false,"error":{"code":${nestedObject}}}`,
      nestedArray,
      nestedObject,
    ];
    for (const result of hostile) {
      const receipt = await respondRaw(client, rpcId, result);
      expect(receipt, result.slice(0, 80)).toMatchObject({ accepted: false, reason: 'bad-response', detail: expect.any(String) });
    }
    await expectUntouched(testHost, asking, rpcId);
    await expectUsable(client);
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
  });

  it('answers deep structures where a frame or an id belongs with an error frame, and ignores them in unknown keys', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const asking = testHost.ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    client.send(nestedArray);
    client.send(nestedObject);
    client.send(`{"type":"question/respond","rpcId":${nestedArray},"result":{"ok":false,"error":{"code":"cancelled"}}}`);
    client.send(`{"type":"question/respond","id":${nestedObject},"rpcId":${JSON.stringify(rpcId)},"result":{"ok":false,"error":{"code":"cancelled"}}}`);
    client.send(`{"type":${nestedArray}}`);
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await client.next('error')).code);
    expect(codes).toEqual(['invalid-frame', 'unknown-type', 'invalid-frame', 'invalid-frame', 'unknown-type']);
    // An unknown key is not read at all, however deep.
    client.send(`{"type":"ping","extra":${nestedArray}}`);
    await client.next('pong');
    await expectUntouched(testHost, asking, rpcId);
    await expectUsable(client);
    expect(client.all('receipt')).toEqual([]);
  });
});

describe('names of Object.prototype as rpcIds and sessions', () => {
  const prototypeNames = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf', ''];

  it('answers not-pending to rpcIds named after prototype properties, whatever the result says', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const asking = testHost.ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    for (const name of prototypeNames) {
      for (const result of [okResult('agent-a', JSON.stringify(redAnswer)), '{"ok":false,"error":{"code":"cancelled"}}', 'null']) {
        const receipt = await respondRaw(client, name, result);
        expect(receipt, `${name} ${result}`).toEqual({ type: 'receipt', id: receipt.id, rpcId: name, accepted: false, reason: 'not-pending' });
      }
    }
    // The frame's own id is only ever echoed.
    client.send({ type: 'question/respond', id: '__proto__', rpcId: 'constructor', result: null });
    expect(await client.next('receipt', (receipt) => receipt.id === '__proto__')).toMatchObject({ rpcId: 'constructor', reason: 'not-pending' });
    await expectUntouched(testHost, asking, rpcId);
    await expectUsable(client);
  });

  it('routes sessions named after prototype properties like any other session', async () => {
    const testHost = await hostileHost(['constructor', '__proto__', 'toString']);
    const askingConstructor = testHost.ask('constructor');
    const askingProto = testHost.ask('__proto__');
    const constructorEntry = { rpcId: pendingRpcId(testHost, 0) };
    const protoEntry = { rpcId: pendingRpcId(testHost, 1) };

    // Each sees only its own session's question, replayed on connect.
    const ofConstructor = await testHost.connect({ query: 'session=constructor' });
    const ofToString = await testHost.connect({ query: 'session=toString' });
    expect(await ofConstructor.next('hello')).toMatchObject({ sessions: ['constructor'], pending: [constructorEntry.rpcId] });
    expect(await ofToString.next('hello')).toMatchObject({ sessions: ['toString'], pending: [] });
    expect((await ofConstructor.next('question/requested')).sessionId).toBe('constructor');

    // Nobody may answer across: forbidden, however the session is named.
    expectRefused(await ofToString.answer(constructorEntry.rpcId, 'constructor', redAnswer), 'forbidden');
    expectRefused(await ofConstructor.answer(protoEntry.rpcId, '__proto__', redAnswer), 'forbidden');
    expectRefused(await ofConstructor.answer(constructorEntry.rpcId, '__proto__', redAnswer), 'bad-response');
    await expectUntouched(testHost, askingProto, protoEntry.rpcId);
    await expectUntouched(testHost, askingConstructor, constructorEntry.rpcId);
    expect(ofToString.all('question/requested')).toEqual([]);

    expect(await ofConstructor.answer(constructorEntry.rpcId, 'constructor', redAnswer)).toMatchObject({ accepted: true });
    await expect(askingConstructor).resolves.toEqual(redAnswer);
    expect(testHost.host.pending().map((entry) => entry.sessionId)).toEqual(['__proto__']);
    void askingProto.settled;
  });
});

describe('questions whose ids and labels are Object.prototype names', () => {
  it('asks and answers them like any other', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const questions: AskUserQuestionItem[] = [
      { id: '__proto__', question: 'Which?', options: [{ label: 'constructor' }, { label: '__proto__' }] },
      { id: 'constructor', question: 'Which ones?', multiSelect: true, options: [{ label: 'toString' }, { label: 'hasOwnProperty' }] },
      { id: 'toString', question: 'Anything else?' },
    ];
    const asking = testHost.ask('agent-a', questions);
    const { rpcId } = await client.next('question/requested');
    const answer: AskUserQuestionAnswer = {
      answers: [
        { id: '__proto__', selected: ['__proto__'] },
        { id: 'constructor', selected: ['hasOwnProperty', 'toString'] },
        { id: 'toString', selected: [], custom: 'valueOf' },
      ],
    };
    expectRefused(await client.answer(rpcId, 'agent-a', { answers: [{ ...answer.answers[0]!, selected: ['valueOf'] }, ...answer.answers.slice(1)] }), 'bad-response');
    expect(await client.answer(rpcId, 'agent-a', answer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(answer);
  });
});

describe('another session\'s id', () => {
  it('refuses, with a bare forbidden, every response to a session the connection cannot see', async () => {
    const testHost = await hostileHost();
    const asking = testHost.ask('agent-b');
    const rpcId = pendingRpcId(testHost);
    const ofA = await testHost.connect({ query: 'session=agent-a' });
    expect(await ofA.next('hello')).toMatchObject({ sessions: ['agent-a'], pending: [] });
    const attempts = [
      okResult('agent-b', JSON.stringify(redAnswer)),
      okResult('agent-a', JSON.stringify(redAnswer)),
      '{"ok":false,"error":{"code":"cancelled"}}',
      '{"ok":false,"error":{"code":"boom"}}',
      okResult('agent-b', '{"answers":"nonsense"}'),
    ];
    for (const result of attempts) {
      const receipt = await respondRaw(ofA, rpcId, result);
      // No detail: an outsider learns nothing about the question or what would fit it.
      expect(receipt, result).toEqual({ type: 'receipt', id: receipt.id, rpcId, accepted: false, reason: 'forbidden' });
    }
    expect(ofA.all('question/requested')).toEqual([]);
    await expectUntouched(testHost, asking, rpcId);
    await expectUsable(ofA);

    const ofB = await testHost.connect({ query: 'session=agent-b' });
    expect((await ofB.next('question/requested')).rpcId).toBe(rpcId);
    expect(await ofB.answer(rpcId, 'agent-b', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
    expect(ofA.all('question/resolved')).toEqual([]);
  });

  it('refuses an answer naming another session (or a prototype name, or none) with bad-response that says whose it is', async () => {
    const testHost = await hostileHost();
    const client = await testHost.connect();
    const asking = testHost.ask('agent-a');
    const { rpcId } = await client.next('question/requested');
    for (const sessionId of ['agent-b', '__proto__', 'constructor', '', 'agent-a ', 'AGENT-A']) {
      const receipt = await client.answer(rpcId, sessionId, redAnswer);
      expect(receipt, JSON.stringify(sessionId)).toMatchObject({ accepted: false, reason: 'bad-response' });
      expect(receipt.accepted === false && receipt.detail).toContain('belongs to session "agent-a"');
    }
    // A question the same connection can see in another session stays out of it too.
    const askingB = testHost.ask('agent-b', [colourQuestion]);
    const other = await client.next('question/requested', (frame) => frame.sessionId === 'agent-b');
    expectRefused(await client.answer(other.rpcId, 'agent-a', redAnswer), 'bad-response');
    await expectUntouched(testHost, asking, rpcId);
    await expectUntouched(testHost, askingB, other.rpcId);
    await expectUsable(client);
    expect(await client.answer(rpcId, 'agent-a', redAnswer)).toMatchObject({ accepted: true });
    await expect(asking).resolves.toEqual(redAnswer);
    void askingB.settled;
  });
});

describe('an Origin header built to be slow to check', () => {
  // sameOrigin() once normalised with /\/+$/, which backtracks quadratically on a long run of
  // slashes that does not end the string; the Origin is checked before any credential. Timing is
  // compared side by side with an equally long ordinary Origin, with a wide margin both ways.
  it('refuses an Origin made of 12,000 slashes about as fast as any other Origin of that size', async () => {
    const { host } = await startHost({ origins: Array.from({ length: 8 }, (_, index) => `http://app${index}.example`) });
    const url = `${host.url}?token=${TOKEN}`;
    const refuse = async (origin: string): Promise<number> => {
      const started = performance.now();
      const upgraded = await sendUpgrade(url, upgradeRequest(url, [`Origin: ${origin}`]));
      const elapsed = performance.now() - started;
      upgraded.socket.destroy();
      expect(statusOf(upgraded.head)).toBe(403);
      return elapsed;
    };
    const ordinary: number[] = [];
    const slashes: number[] = [];
    // Interleaved, and the fastest of three each, so that load on the machine hits both alike.
    for (let attempt = 0; attempt < 3; attempt++) {
      ordinary.push(await refuse(`http://${'a'.repeat(12_000)}.example`));
      slashes.push(await refuse(`http://${'/'.repeat(12_000)}x`));
    }
    expect(Math.min(...slashes)).toBeLessThan(10 * Math.min(...ordinary) + 25);
  });
});
