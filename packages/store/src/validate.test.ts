import { UserQuestions, askUserQuestionAnswerSchema, sealReceivedAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { QuestionStoreError } from './errors.js';
import { newQuestionEventSchema } from './events.js';
import { newQuestionRecordSchema, questionOutcomeSchema } from './record.js';
import { keepNewQuestionEvent, parseNewQuestionEvent, parseNewQuestionRecord, parseSettlement } from './validate.js';

// The oracle: what these checks did before they were compiled — the schema's safeParse, its first
// issue in the message, and a structuredClone of what it accepted.
function viaSchema(schema: z.ZodType, subject: string, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.map(String).join('.')}`;
    throw new QuestionStoreError('INVALID_INPUT', `${subject} is invalid${where}: ${issue?.message ?? 'it does not match'}.`);
  }
  return structuredClone(parsed.data);
}

function outcome(run: () => unknown): { ok: true; value: unknown } | { ok: false; code: string; message: string } {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (!QuestionStoreError.isInstance(error)) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}

/** Every object and array reachable from `value`. */
function containers(value: unknown, found = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !found.has(value)) {
    found.add(value);
    for (const item of Object.values(value)) containers(item, found);
  }
  return found;
}

function expectSame(actual: () => unknown, expected: () => unknown, input: unknown): void {
  const got = outcome(actual);
  expect(got).toStrictEqual(outcome(expected));
  // Accepted: a copy the caller cannot reach into.
  if (got.ok) expect([...containers(got.value)].filter((object) => containers(input).has(object))).toEqual([]);
}

const junk = fc.oneof(fc.constant(null), fc.integer(), fc.constant(''), fc.boolean(), fc.constant([]), fc.constant({}));
const id = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('rpc-1', 'session-a', 'é') }, { weight: 1, arbitrary: junk });
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 3 });
const questions = fc.oneof(
  { weight: 6, arbitrary: fc.constant([{ id: 'deploy', question: 'Deploy?', options: [{ label: 'Yes' }, { label: 'No', description: 'Not now.' }] }]) },
  { weight: 2, arbitrary: fc.constant([{ id: 'n', question: 'How many?', input: { kind: 'number', min: 0, step: 0.5 }, required: true, dropped: 'by the schema' }]) },
  { weight: 1, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.constant([{ id: 'x', question: 'Bad input?', input: { kind: 'text', min: 1 } }]) },
  { weight: 1, arbitrary: junk },
);
const answer = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ answers: [{ id: 'deploy', selected: ['Yes'] }] }) },
  { weight: 2, arbitrary: fc.constant({ answers: [{ id: 'deploy', selected: [], custom: 'later' }] }) },
  { weight: 1, arbitrary: fc.constant({ answers: [{ id: 'deploy', selected: ['Yes'], extra: 1 }] }) },
  { weight: 1, arbitrary: junk },
);
const timestamp = fc.constantFrom('2026-01-02T03:04:05.000Z', '2026-01-02T03:04:05Z', '2026-02-30T00:00:00Z', 'yesterday', 5);
const state = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ when: new Date(0) }), fc.constant(JSON.parse('{"__proto__":{"polluted":true}}') as unknown));

const recordArb = fc.record(
  {
    rpcId: id,
    sessionId: id,
    askedBy: id,
    askedAt: timestamp,
    questions,
    mode: fc.constantFrom('blocking', 'detached', 'later'),
    urgency: maybe(fc.constantFrom('low', 'high', 'urgent')),
    state: maybe(state),
    askedOn: maybe(id),
    outcome: maybe(fc.constant('answered')),
  },
  { requiredKeys: ['rpcId', 'sessionId', 'askedBy', 'askedAt', 'questions', 'mode'] },
);

const base = { sessionId: id, rpcId: id };
const channel = fc.constantFrom('websocket', 'http', 'pigeon');
const eventArb = fc.oneof(
  fc.record({ ...base, type: fc.constant('human_input_requested'), data: fc.record({ askedBy: id, mode: fc.constantFrom('blocking', 'detached'), questions, urgency: maybe(fc.constantFrom('low', 'urgent')) }, { requiredKeys: ['askedBy', 'mode', 'questions'] }) }),
  fc.record({ ...base, type: fc.constant('delivered'), data: fc.record({ channel, connectionId: id, replay: fc.oneof(fc.boolean(), junk) }) }),
  fc.record({ ...base, type: fc.constant('response_from_human'), data: fc.record({ answer, principalId: id, channel }) }),
  fc.record({ ...base, type: fc.constant('response_rejected'), data: fc.record({ reason: fc.constantFrom('not-pending', 'forbidden', 'late'), detail: maybe(id), principalId: id, channel }, { requiredKeys: ['reason', 'principalId', 'channel'] }) }),
  fc.record({ ...base, type: fc.constant('cancelled'), data: fc.record({ principalId: id, channel, message: maybe(id) }, { requiredKeys: ['principalId', 'channel'] }) }),
  fc.record({ ...base, type: fc.constantFrom('aborted', 'guessed'), data: fc.record({ by: fc.constantFrom('signal', 'host-close', 'magic') }) }),
  fc.record({ ...base, type: fc.constant('timed_out'), data: fc.oneof(fc.constant({}), fc.constant({ late: true })), extra: maybe(id) }, { requiredKeys: ['sessionId', 'rpcId', 'type', 'data'] }),
  junk,
);

describe('the store input checks', () => {
  it('read a record exactly as the record schema does: the same copy, or the same INVALID_INPUT message', () => {
    fc.assert(
      fc.property(recordArb, (record) => expectSame(() => parseNewQuestionRecord(record), () => viaSchema(newQuestionRecordSchema, 'The question record', record), record)),
      { numRuns: 1000 },
    );
  });

  it('read an event exactly as the event schema does', () => {
    fc.assert(
      fc.property(eventArb, (event) => expectSame(() => parseNewQuestionEvent(event), () => viaSchema(newQuestionEventSchema, 'The event', event), event)),
      { numRuns: 1000 },
    );
  });

  it('read a settlement exactly as the outcome and answer schemas do', () => {
    const expected = (claimed: unknown, given: unknown) => {
      const settled = viaSchema(questionOutcomeSchema, 'The outcome', claimed);
      if (settled !== 'answered') {
        if (given !== undefined) throw new QuestionStoreError('INVALID_INPUT', `Only an "answered" claim carries an answer; drop the answer from this "${String(settled)}" claim.`);
        return { outcome: settled };
      }
      return { outcome: 'answered', answer: viaSchema(askUserQuestionAnswerSchema, 'The answer of an "answered" claim', given) };
    };
    fc.assert(
      fc.property(fc.constantFrom('answered', 'cancelled', 'lost'), maybe(answer), (claimed, given) =>
        expectSame(() => parseSettlement(claimed, given), () => expected(claimed, given), given),
      ),
      { numRuns: 300 },
    );
  });
});

describe('answers the host sealed (sealReceivedAnswer)', () => {
  // The questions exactly as a provider (the host) receives them from the seam: checked and frozen.
  let questions: AskUserQuestionItem[] = [];
  beforeAll(async () => {
    const seam = new UserQuestions();
    seam.registerProvider({
      ask: async (request) => {
        questions = request.questions;
        return { answers: [{ id: 'deploy', selected: ['Yes'] }] };
      },
    });
    await seam.ask({ questions: [{ id: 'deploy', question: 'Deploy now?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
  });
  const sealedAnswer = () => {
    const checked = sealReceivedAnswer(questions, { answers: [{ id: 'deploy', selected: ['Yes'] }] });
    if (!checked.ok) throw new Error('expected the answer to fit');
    return checked.answer;
  };
  const response = (answer: unknown, channel: unknown = 'websocket') => ({ type: 'response_from_human', sessionId: 's', rpcId: 'r', data: { answer, principalId: 'p', channel } });

  it('parseSettlement keeps a sealed answer by reference, and still copies any other', () => {
    const answer = sealedAnswer();
    expect(parseSettlement('answered', answer).answer).toBe(answer);
    const plain = { answers: [{ id: 'deploy', selected: ['Yes'] }] };
    expect(parseSettlement('answered', plain).answer).not.toBe(plain);
    expect(parseSettlement('answered', plain).answer).toEqual(plain);
  });

  it('keepNewQuestionEvent keeps the sealed answer of a response_from_human event, and checks the rest as before', () => {
    const answer = sealedAnswer();
    const kept = keepNewQuestionEvent(response(answer));
    expect(kept).toEqual(response({ answers: [{ id: 'deploy', selected: ['Yes'] }] }));
    expect(kept.type === 'response_from_human' && kept.data.answer).toBe(answer);
    const bad = response(answer, 'carrier-pigeon');
    expect(outcome(() => keepNewQuestionEvent(bad))).toEqual(outcome(() => viaSchema(newQuestionEventSchema, 'The event', bad)));
    expect(outcome(() => keepNewQuestionEvent({ ...response(answer), extra: 1 }))).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('parseNewQuestionEvent (the other stores) still copies a sealed answer', () => {
    const answer = sealedAnswer();
    const parsed = parseNewQuestionEvent(response(answer));
    expect(parsed.type === 'response_from_human' && parsed.data.answer).not.toBe(answer);
    expect(parsed).toEqual(response({ answers: [{ id: 'deploy', selected: ['Yes'] }] }));
  });
});
