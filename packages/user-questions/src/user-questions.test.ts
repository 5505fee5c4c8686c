import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handOverAnswer } from './answer.js';
import { UserQuestionError, type UserQuestionErrorCode } from './errors.js';
import type { AnswerMismatch } from './match.js';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from './schemas.js';
import type { AgentRef, AgentRegistry, AskUserQuestionRequest, UserQuestionProvider } from './types.js';
import { UserQuestions } from './user-questions.js';
import { isSealedQuestionBatch } from './sealed.js';
import { checkReceivedAnswer, sealReceivedAnswer } from './received-answer.js';

// ── fixtures ────────────────────────────────────────────────────────────────────

const colour: AskUserQuestionItem = {
  id: 'colour',
  question: 'Which colour should the button be?',
  options: [{ label: 'Red (Recommended)' }, { label: 'Blue' }],
};
const toppings: AskUserQuestionItem = {
  id: 'toppings',
  question: 'Which toppings?',
  options: [{ label: 'Cheese' }, { label: 'Olives' }, { label: 'Basil' }],
  multiSelect: true,
};
const planReview: AskUserQuestionItem = {
  id: 'plan-review',
  question: 'Approve this plan?',
  detail: '# Plan\n\n1. Do the thing.',
  options: [{ label: 'Approve' }, { label: 'Keep planning' }],
  intent: { kind: 'plan-review', approve: 'Approve' },
};
const badIntent: AskUserQuestionItem = { ...planReview, intent: { kind: 'plan-review', approve: 'Yes' } };

/** Every question skipped: the smallest answer that fits any batch. */
function skipAll(questions: readonly AskUserQuestionItem[]): AskUserQuestionAnswer {
  return { answers: questions.map(({ id }) => ({ id, selected: [] })) };
}

/** A provider that records each request and answers with `reply`. */
function recordingProvider(reply: (request: AskUserQuestionRequest) => AskUserQuestionAnswer = (r) => skipAll(r.questions)) {
  const requests: AskUserQuestionRequest[] = [];
  const provider: UserQuestionProvider = {
    ask: async (request) => {
      requests.push(request);
      return reply(request);
    },
  };
  return { provider, requests };
}

/** A provider that never answers by itself; it only hands out the signal it was given. */
function waitingProvider() {
  const signals: (AbortSignal | undefined)[] = [];
  const provider: UserQuestionProvider = {
    ask: (request) => {
      signals.push(request.signal);
      return new Promise<AskUserQuestionAnswer>(() => {});
    },
  };
  return { provider, signals };
}

/** Live agents whose roots can change at run time, like a session that is resumed as a root. */
class TestRegistry implements AgentRegistry {
  readonly #live = new Map<string, AgentRef>();
  readonly #roots = new Set<AgentRef>();

  addRoot(agent: AgentRef): AgentRef {
    this.#live.set(agent.id, agent);
    this.#roots.add(agent);
    return agent;
  }
  addChild(agent: AgentRef): AgentRef {
    this.#live.set(agent.id, agent);
    return agent;
  }
  promote(agent: AgentRef): void {
    this.#roots.add(agent);
  }
  get(id: string): AgentRef | undefined {
    return this.#live.get(id);
  }
  roots(): Iterable<AgentRef> {
    return this.#roots;
  }
}

/** The rejection of `promise`, which must reject with a UserQuestionError. */
async function rejectionOf(promise: Promise<unknown>): Promise<UserQuestionError> {
  const error = await promise.then(
    () => expect.unreachable('expected the ask to reject'),
    (reason: unknown) => reason,
  );
  expect(UserQuestionError.isInstance(error), `expected a UserQuestionError, got ${String(error)}`).toBe(true);
  return error as UserQuestionError;
}

afterEach(() => {
  vi.useRealTimers();
});

// ── provider delegation ─────────────────────────────────────────────────────────

describe('provider delegation', () => {
  it('hands the request to the registered provider and returns its answer', async () => {
    const seam = new UserQuestions();
    const answer = { answers: [{ id: 'colour', selected: ['Blue'] }] };
    const { provider, requests } = recordingProvider(() => answer);
    seam.registerProvider(provider);

    await expect(seam.ask({ questions: [colour] })).resolves.toEqual(answer);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.questions).toEqual([colour]);
  });

  it('passes the asking agent through to the provider', async () => {
    const registry = new TestRegistry();
    const agent = registry.addRoot({ id: 'main' });
    const seam = new UserQuestions({ agents: registry });
    const { provider, requests } = recordingProvider();
    seam.registerProvider(provider);

    await seam.ask({ questions: [colour], agent });
    expect(requests[0]?.agent).toBe(agent);
  });

  it('returns a clean copy: extra fields are dropped and later changes by the provider do not leak', async () => {
    const seam = new UserQuestions();
    const item = { id: 'toppings', selected: ['Cheese'], custom: 'extra garlic', internal: 'secret' };
    const providerAnswer = { answers: [item], trace: 'provider-private' };
    seam.registerProvider({ ask: async () => providerAnswer });

    const answer = await seam.ask({ questions: [toppings] });
    item.selected.push('Olives');

    expect(answer).toStrictEqual({ answers: [{ id: 'toppings', selected: ['Cheese'], custom: 'extra garlic' }] });
    expect(answer).not.toBe(providerAnswer);
  });

  it('leaves custom out of the copy when the provider did not use it', async () => {
    const seam = new UserQuestions();
    seam.registerProvider({ ask: async () => ({ answers: [{ id: 'colour', selected: ['Blue'], custom: undefined }] }) });

    const answer = await seam.ask({ questions: [colour] });
    expect(Object.keys(answer.answers[0] ?? {})).toEqual(['id', 'selected']);
  });

  it('passes a provider\'s hand-over copy to the caller as it is: the answer is copied once on the way back', async () => {
    const seam = new UserQuestions();
    const stored = { answers: [{ id: 'colour', selected: ['Blue'] }] };
    let handed: AskUserQuestionAnswer | undefined;
    seam.registerProvider({ ask: async () => (handed = handOverAnswer(stored)) });

    const answer = await seam.ask({ questions: [colour] });
    expect(answer).toBe(handed);
    // The hand-over copy is the provider's copy of what it keeps: the caller's edits stay its own.
    answer.answers[0]!.selected.push('Red');
    expect(stored).toStrictEqual({ answers: [{ id: 'colour', selected: ['Blue'] }] });
  });

  it('takes a hand-over copy once: the same object returned again is copied like any other answer', async () => {
    const seam = new UserQuestions();
    const handed = handOverAnswer({ answers: [{ id: 'colour', selected: ['Blue'] }] });
    seam.registerProvider({ ask: async () => handed });

    expect(await seam.ask({ questions: [colour] })).toBe(handed);
    const second = await seam.ask({ questions: [colour] });
    expect(second).not.toBe(handed);
    expect(second).toStrictEqual(handed);
  });
});

// ── registerProvider ────────────────────────────────────────────────────────────

describe('registerProvider', () => {
  it('throws DUPLICATE_PROVIDER synchronously when a provider is already registered', () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);

    let thrown: unknown;
    try {
      seam.registerProvider(recordingProvider().provider);
    } catch (error) {
      thrown = error;
    }
    expect(UserQuestionError.isInstance(thrown) && thrown.code).toBe('DUPLICATE_PROVIDER');
  });

  it('refuses the same provider object a second time too', () => {
    const seam = new UserQuestions();
    const { provider } = recordingProvider();
    seam.registerProvider(provider);
    expect(() => seam.registerProvider(provider)).toThrow(UserQuestionError);
  });

  it('keeps the first provider answering after a refused second registration', async () => {
    const seam = new UserQuestions();
    const first = recordingProvider();
    seam.registerProvider(first.provider);
    expect(() => seam.registerProvider(recordingProvider().provider)).toThrow();

    await seam.ask({ questions: [colour] });
    expect(first.requests).toHaveLength(1);
  });

  it('reports NO_PROVIDER once the only provider is disposed', async () => {
    const seam = new UserQuestions();
    const dispose = seam.registerProvider(recordingProvider().provider);
    dispose();

    expect((await rejectionOf(seam.ask({ questions: [colour] }))).code).toBe('NO_PROVIDER');
    expect(seam.hasProvider).toBe(false);
  });

  it('accepts a new provider after the previous one was disposed', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider)();
    const second = recordingProvider();
    seam.registerProvider(second.provider);

    await seam.ask({ questions: [colour] });
    expect(second.requests).toHaveLength(1);
  });

  it("has an idempotent disposer that never removes a later provider's registration", async () => {
    const seam = new UserQuestions();
    const a = recordingProvider();
    const b = recordingProvider();
    const disposeA = seam.registerProvider(a.provider);
    disposeA();
    seam.registerProvider(b.provider);
    disposeA();
    disposeA();

    expect(seam.hasProvider).toBe(true);
    await seam.ask({ questions: [colour] });
    expect(b.requests).toHaveLength(1);
    expect(a.requests).toHaveLength(0);
  });

  it('keeps registrations of the same provider object apart', async () => {
    const seam = new UserQuestions();
    const { provider, requests } = recordingProvider();
    const disposeFirst = seam.registerProvider(provider);
    disposeFirst();
    seam.registerProvider(provider);
    disposeFirst();

    await seam.ask({ questions: [colour] });
    expect(requests).toHaveLength(1);
  });
});

// ── each gate alone ─────────────────────────────────────────────────────────────

describe('gate 1: ASK_ABORTED before asking', () => {
  it('rejects a request whose signal is already aborted, with the abort reason as cause', async () => {
    const seam = new UserQuestions();
    const { provider, requests } = recordingProvider();
    seam.registerProvider(provider);
    const controller = new AbortController();
    const reason = new Error('user left');
    controller.abort(reason);

    const error = await rejectionOf(seam.ask({ questions: [colour], signal: controller.signal }));
    expect(error.code).toBe('ASK_ABORTED');
    expect(error.cause).toBe(reason);
    expect(requests).toHaveLength(0);
  });
});

describe('gate 2: EMPTY_QUESTIONS', () => {
  it('rejects an empty batch', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    expect((await rejectionOf(seam.ask({ questions: [] }))).code).toBe('EMPTY_QUESTIONS');
  });

  it('rejects a request with no questions field at all', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    expect((await rejectionOf(seam.ask({} as AskUserQuestionRequest))).code).toBe('EMPTY_QUESTIONS');
  });

  it('leaves questions that are not a list at all to gate 3 (malformed, not empty)', async () => {
    const { provider, requests } = recordingProvider();
    const seam = new UserQuestions();
    seam.registerProvider(provider);
    const error = await rejectionOf(seam.ask({ questions: 'Which colour?' } as unknown as AskUserQuestionRequest));
    expect(error.code).toBe('INVALID_QUESTIONS');
    expect(requests).toHaveLength(0);
  });
});

describe('gate 3: INVALID_QUESTIONS', () => {
  const cases: { name: string; questions: AskUserQuestionItem[]; names: string }[] = [
    { name: 'a blank id', questions: [colour, { id: '  ', question: 'Why?' }], names: 'Question 2' },
    { name: 'a blank question', questions: [{ id: 'why', question: ' \n ' }], names: '"why"' },
    { name: 'duplicate ids', questions: [colour, { ...toppings, id: 'colour' }], names: '"colour"' },
    {
      name: 'duplicate option labels in one question',
      questions: [{ id: 'db', question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'Postgres' }] }],
      names: '"db"',
    },
  ];

  it.each(cases)('rejects $name and names the offending question', async ({ questions, names }) => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const error = await rejectionOf(seam.ask({ questions }));
    expect(error.code).toBe('INVALID_QUESTIONS');
    expect(error.message).toContain(names);
  });

  it('rejects a question that does not match the schema and names its id', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const malformed = { id: 'size', question: 'Which size?', options: [{ label: 42 }] } as unknown as AskUserQuestionItem;

    const error = await rejectionOf(seam.ask({ questions: [colour, malformed] }));
    expect(error.code).toBe('INVALID_QUESTIONS');
    expect(error.message).toContain('"size"');
    expect(error.message).toContain('questions.1.options.0.label');
  });

  it('allows the same label in two different questions', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const twin = { ...colour, id: 'colour-2' };
    await expect(seam.ask({ questions: [colour, twin] })).resolves.toEqual(skipAll([colour, twin]));
  });
});

describe('gate 4: CALLER_NOT_LIVE', () => {
  it('rejects any agent when the seam has no registry', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const error = await rejectionOf(seam.ask({ questions: [colour], agent: { id: 'main' } }));
    expect(error.code).toBe('CALLER_NOT_LIVE');
    expect(error.message).toContain('"main"');
  });

  it('rejects an agent the registry does not know', async () => {
    const registry = new TestRegistry();
    registry.addRoot({ id: 'main' });
    const seam = new UserQuestions({ agents: registry });
    seam.registerProvider(recordingProvider().provider);
    expect((await rejectionOf(seam.ask({ questions: [colour], agent: { id: 'ghost' } }))).code).toBe('CALLER_NOT_LIVE');
  });

  it('rejects a stale agent object that reuses the id of a live agent (identity, not id)', async () => {
    const registry = new TestRegistry();
    const stale = { id: 'main' };
    registry.addRoot({ id: 'main' });
    const seam = new UserQuestions({ agents: registry });
    const { provider, requests } = recordingProvider();
    seam.registerProvider(provider);

    expect((await rejectionOf(seam.ask({ questions: [colour], agent: stale }))).code).toBe('CALLER_NOT_LIVE');
    expect(requests).toHaveLength(0);
  });

  it('asks without a registry when no agent is given', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    await expect(seam.ask({ questions: [colour] })).resolves.toEqual(skipAll([colour]));
  });
});

describe('gate 5: DELEGATED_CALLER', () => {
  it('rejects a live agent that is not a root and tells it to put the question in its final result', async () => {
    const registry = new TestRegistry();
    registry.addRoot({ id: 'main' });
    const child = registry.addChild({ id: 'researcher' });
    const seam = new UserQuestions({ agents: registry });
    seam.registerProvider(recordingProvider().provider);

    const error = await rejectionOf(seam.ask({ questions: [colour], agent: child }));
    expect(error.code).toBe('DELEGATED_CALLER');
    expect(error.message).toContain('"researcher"');
    expect(error.message).toMatch(/final result/);
  });

  it('lets a resumed session ask once it is a root now, whatever it was before', async () => {
    const registry = new TestRegistry();
    const resumed = registry.addChild({ id: 'session-7' });
    const seam = new UserQuestions({ agents: registry });
    seam.registerProvider(recordingProvider().provider);
    expect((await rejectionOf(seam.ask({ questions: [colour], agent: resumed }))).code).toBe('DELEGATED_CALLER');

    registry.promote(resumed);
    await expect(seam.ask({ questions: [colour], agent: resumed })).resolves.toEqual(skipAll([colour]));
  });

  it('compares roots by identity too', async () => {
    const agent = { id: 'main' };
    const registry: AgentRegistry = { get: () => agent, roots: () => [{ id: 'main' }] };
    const seam = new UserQuestions({ agents: registry });
    seam.registerProvider(recordingProvider().provider);
    expect((await rejectionOf(seam.ask({ questions: [colour], agent }))).code).toBe('DELEGATED_CALLER');
  });
});

describe('gate 6: BAD_INTENT', () => {
  it('rejects an intent whose approve label is not one of the options', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const error = await rejectionOf(seam.ask({ questions: [badIntent] }));
    expect(error.code).toBe('BAD_INTENT');
    expect(error.message).toContain('"plan-review"');
    expect(error.message).toContain('"Yes"');
  });

  it('rejects an intent on a question without options', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const { options: _options, ...withoutOptions } = planReview;
    expect((await rejectionOf(seam.ask({ questions: [withoutOptions] }))).code).toBe('BAD_INTENT');
  });

  it('rejects an intent without detail', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const { detail: _detail, ...withoutDetail } = planReview;
    const error = await rejectionOf(seam.ask({ questions: [withoutDetail] }));
    expect(error.code).toBe('BAD_INTENT');
    expect(error.message).toMatch(/detail/);
  });

  it('checks the intent of every question, not only the first', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    expect((await rejectionOf(seam.ask({ questions: [colour, badIntent] }))).code).toBe('BAD_INTENT');
  });

  it('accepts an empty detail', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const emptyDetail = { ...planReview, detail: '' };
    await expect(seam.ask({ questions: [emptyDetail] })).resolves.toEqual(skipAll([emptyDetail]));
  });
});

describe('gate 7: NO_PROVIDER', () => {
  it('rejects a good request when no provider is registered', async () => {
    const seam = new UserQuestions();
    const error = await rejectionOf(seam.ask({ questions: [colour] }));
    expect(error.code).toBe('NO_PROVIDER');
  });
});

describe('gate 8: BAD_ANSWER', () => {
  const lies: { name: string; questions: AskUserQuestionItem[]; answer: unknown; rule: AnswerMismatch['rule'] }[] = [
    { name: 'too few answers', questions: [colour, toppings], answer: skipAll([colour]), rule: 'count' },
    { name: 'answers in the wrong order', questions: [colour, toppings], answer: skipAll([toppings, colour]), rule: 'id-order' },
    { name: 'an unknown label', questions: [colour], answer: { answers: [{ id: 'colour', selected: ['Green'] }] }, rule: 'unknown-label' },
    {
      name: 'custom and a selection on a single-select question',
      questions: [colour],
      answer: { answers: [{ id: 'colour', selected: ['Blue'], custom: 'Teal' }] },
      rule: 'custom-with-selection',
    },
    { name: 'no answer object at all', questions: [colour], answer: undefined, rule: 'not-an-answer' },
  ];

  it.each(lies)('rejects a provider that returns $name, with the mismatch as cause', async ({ questions, answer, rule }) => {
    const seam = new UserQuestions();
    seam.registerProvider({ ask: async () => answer as AskUserQuestionAnswer });

    const error = await rejectionOf(seam.ask({ questions }));
    expect(error.code).toBe('BAD_ANSWER');
    expect((error.cause as AnswerMismatch).rule).toBe(rule);
    expect(error.message).toContain((error.cause as AnswerMismatch).message);
  });
});

describe('the answer is read once', () => {
  it('returns exactly the answer it checked, even from a provider whose getters change their mind', async () => {
    const seam = new UserQuestions();
    const fitting = [{ id: 'colour', selected: ['Blue'] }];
    const impossible = [{ id: 'colour', selected: ['Blue', 'NOT AN OPTION'], custom: '  ' }];
    let reads = 0;
    seam.registerProvider({
      ask: async () =>
        ({
          get answers() {
            reads += 1;
            return reads === 1 ? fitting : impossible;
          },
        }) as AskUserQuestionAnswer,
    });

    const answer = await seam.ask({ questions: [colour] });
    expect(answer).toEqual({ answers: [{ id: 'colour', selected: ['Blue'] }] });
    expect(reads).toBe(1);
  });

  it('hands the caller an answer the provider can no longer change', async () => {
    const seam = new UserQuestions();
    const provided = { answers: [{ id: 'colour', selected: ['Blue'] }] };
    seam.registerProvider({ ask: async () => provided });

    const answer = await seam.ask({ questions: [colour] });
    provided.answers[0]!.selected.push('Red');
    expect(answer).toEqual({ answers: [{ id: 'colour', selected: ['Blue'] }] });
  });
});

describe('the answer check uses the questions as asked', () => {
  it('rejects a provider that edits a label in place and answers with the edited label', async () => {
    const seam = new UserQuestions();
    let editRefused = false;
    seam.registerProvider({
      ask: async ({ questions }) => {
        const option = questions[0]?.options?.[0];
        // The provider gets the seam's frozen copy: the edit itself is refused.
        try {
          if (option) option.label = option.label.replace(' (Recommended)', '');
        } catch {
          editRefused = true;
        }
        return { answers: [{ id: 'colour', selected: ['Red'] }] };
      },
    });

    const error = await rejectionOf(seam.ask({ questions: [structuredClone(colour)] }));
    expect(editRefused).toBe(true);
    expect(error.code).toBe('BAD_ANSWER');
    expect((error.cause as AnswerMismatch).rule).toBe('unknown-label');
  });

  it('rejects a provider that empties the question list and answers nothing', async () => {
    const seam = new UserQuestions();
    let editRefused = false;
    seam.registerProvider({
      ask: async ({ questions }) => {
        try {
          questions.length = 0;
        } catch {
          editRefused = true;
        }
        return { answers: [] };
      },
    });

    const error = await rejectionOf(seam.ask({ questions: [colour, toppings] }));
    expect(editRefused).toBe(true);
    expect((error.cause as AnswerMismatch).rule).toBe('count');
  });

  it('gives the provider a sealed copy, never the caller\'s own objects', async () => {
    const seam = new UserQuestions();
    const caller = [structuredClone(colour)];
    let given: unknown;
    seam.registerProvider({
      ask: async ({ questions }) => {
        given = questions;
        return { answers: [{ id: 'colour', selected: ['Blue'] }] };
      },
    });
    await seam.ask({ questions: caller });
    expect(given).not.toBe(caller);
    expect(given).toEqual(caller);
    expect(isSealedQuestionBatch(given)).toBe(true);
    expect(isSealedQuestionBatch(caller)).toBe(false);
    expect(Object.isFrozen(caller[0])).toBe(false);
  });
});

// ── order between gates ─────────────────────────────────────────────────────────

describe('gate order', () => {
  interface OrderCase {
    name: string;
    expected: UserQuestionErrorCode;
    request: (registry: TestRegistry) => AskUserQuestionRequest;
    withProvider: boolean;
  }
  const aborted = () => AbortSignal.abort();
  const stale = { id: 'main' };
  const cases: OrderCase[] = [
    { name: 'an aborted signal before an empty batch', expected: 'ASK_ABORTED', request: () => ({ questions: [], signal: aborted() }), withProvider: true },
    {
      name: 'an aborted signal before everything else',
      expected: 'ASK_ABORTED',
      request: () => ({ questions: [{ id: '', question: '' }], agent: stale, signal: aborted() }),
      withProvider: false,
    },
    { name: 'an empty batch before a missing provider', expected: 'EMPTY_QUESTIONS', request: () => ({ questions: [] }), withProvider: false },
    {
      name: 'an empty batch before a stale agent',
      expected: 'EMPTY_QUESTIONS',
      request: () => ({ questions: [], agent: stale }),
      withProvider: true,
    },
    {
      name: 'an invalid batch before a stale agent',
      expected: 'INVALID_QUESTIONS',
      request: () => ({ questions: [colour, colour], agent: stale }),
      withProvider: true,
    },
    {
      name: 'an invalid batch before a bad intent',
      expected: 'INVALID_QUESTIONS',
      request: () => ({ questions: [badIntent, { id: 'x', question: '' }] }),
      withProvider: true,
    },
    {
      name: 'a stale agent before a bad intent',
      expected: 'CALLER_NOT_LIVE',
      request: () => ({ questions: [badIntent], agent: stale }),
      withProvider: true,
    },
    {
      name: 'a delegated agent before a bad intent',
      expected: 'DELEGATED_CALLER',
      request: (registry) => ({ questions: [badIntent], agent: registry.addChild({ id: 'helper' }) }),
      withProvider: true,
    },
    {
      name: 'a delegated agent before a missing provider',
      expected: 'DELEGATED_CALLER',
      request: (registry) => ({ questions: [colour], agent: registry.addChild({ id: 'helper' }) }),
      withProvider: false,
    },
    { name: 'a bad intent before a missing provider', expected: 'BAD_INTENT', request: () => ({ questions: [badIntent] }), withProvider: false },
  ];

  it.each(cases)('reports $name', async ({ expected, request, withProvider }) => {
    const registry = new TestRegistry();
    registry.addRoot({ id: 'main' });
    const seam = new UserQuestions({ agents: registry });
    const { provider, requests } = recordingProvider();
    if (withProvider) seam.registerProvider(provider);

    expect((await rejectionOf(seam.ask(request(registry)))).code).toBe(expected);
    expect(requests).toHaveLength(0);
  });

  it('rejects through the promise, never by throwing from ask()', () => {
    const seam = new UserQuestions();
    let returned: Promise<unknown> | undefined;
    expect(() => {
      returned = seam.ask({ questions: [] });
    }).not.toThrow();
    return expect(returned).rejects.toThrow(UserQuestionError);
  });
});

// ── abort, timeout, errors and cleanup ──────────────────────────────────────────

describe('abort and timeout', () => {
  it('rejects ASK_ABORTED when the caller aborts while waiting, and aborts the signal the provider holds', async () => {
    const seam = new UserQuestions();
    const { provider, signals } = waitingProvider();
    seam.registerProvider(provider);
    const controller = new AbortController();
    const reason = new Error('the run was stopped');

    const pending = seam.ask({ questions: [colour], signal: controller.signal });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]?.aborted).toBe(false);
    controller.abort(reason);

    const error = await rejectionOf(pending);
    expect(error.code).toBe('ASK_ABORTED');
    expect(error.cause).toBe(reason);
    expect(signals[0]?.aborted).toBe(true);
  });

  it("gives the provider a composed signal, not the caller's own", async () => {
    const seam = new UserQuestions();
    const { provider, signals } = waitingProvider();
    seam.registerProvider(provider);
    const controller = new AbortController();

    const pending = seam.ask({ questions: [colour], signal: controller.signal });
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(signals[0]).not.toBe(controller.signal);
    controller.abort();
    await rejectionOf(pending);
  });

  it('rejects ASK_TIMEOUT after timeoutMs and aborts the signal the provider holds', async () => {
    vi.useFakeTimers();
    const seam = new UserQuestions();
    const { provider, signals } = waitingProvider();
    seam.registerProvider(provider);

    const pending = rejectionOf(seam.ask({ questions: [colour], timeoutMs: 5_000 }));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    const error = await pending;
    expect(error.code).toBe('ASK_TIMEOUT');
    expect(error.message).toContain('5000 ms');
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBe(error);
  });

  it('reports ASK_TIMEOUT even when the provider rejects in reaction to the abort', async () => {
    vi.useFakeTimers();
    const seam = new UserQuestions();
    seam.registerProvider({
      ask: ({ signal }) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('provider: stopped waiting')))),
    });

    const pending = rejectionOf(seam.ask({ questions: [colour], timeoutMs: 100 }));
    await vi.advanceTimersByTimeAsync(100);
    expect((await pending).code).toBe('ASK_TIMEOUT');
  });

  it('reports ASK_ABORTED even when the provider rejects in reaction to the abort', async () => {
    const seam = new UserQuestions();
    seam.registerProvider({
      ask: ({ signal }) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('provider: stopped waiting')))),
    });
    const controller = new AbortController();

    const pending = rejectionOf(seam.ask({ questions: [colour], signal: controller.signal }));
    await Promise.resolve();
    controller.abort();
    expect((await pending).code).toBe('ASK_ABORTED');
  });

  it('keeps ASK_ABORTED and ASK_TIMEOUT distinct when both a signal and a timeout are given', async () => {
    vi.useFakeTimers();
    const seam = new UserQuestions();
    seam.registerProvider(waitingProvider().provider);
    const controller = new AbortController();

    const timedOut = rejectionOf(seam.ask({ questions: [colour], signal: controller.signal, timeoutMs: 50 }));
    await vi.advanceTimersByTimeAsync(50);
    expect((await timedOut).code).toBe('ASK_TIMEOUT');

    const aborted = rejectionOf(seam.ask({ questions: [colour], signal: controller.signal, timeoutMs: 50 }));
    controller.abort();
    expect((await aborted).code).toBe('ASK_ABORTED');
  });

  it('answers normally when the provider answers before the timeout', async () => {
    vi.useFakeTimers();
    const seam = new UserQuestions();
    seam.registerProvider({
      ask: ({ questions }) => new Promise((resolve) => setTimeout(() => resolve(skipAll(questions)), 10)),
    });

    const pending = seam.ask({ questions: [colour], timeoutMs: 1_000 });
    await vi.advanceTimersByTimeAsync(10);
    await expect(pending).resolves.toEqual(skipAll([colour]));
  });

  it('treats a timeout longer than a timer can count (Infinity) as no timeout', async () => {
    vi.useFakeTimers();
    const seam = new UserQuestions();
    const { provider, signals } = waitingProvider();
    seam.registerProvider(provider);

    void seam.ask({ questions: [colour], timeoutMs: Number.POSITIVE_INFINITY }).catch(() => {});
    void seam.ask({ questions: [colour], timeoutMs: 2 ** 31 }).catch(() => {});
    await vi.advanceTimersByTimeAsync(60_000);

    expect(signals.map((signal) => signal?.aborted)).toEqual([false, false]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not call the provider when the signal is aborted after gate 1 (by the registry)', async () => {
    const controller = new AbortController();
    const agent = { id: 'main' };
    const registry: AgentRegistry = {
      get: (id) => {
        controller.abort();
        return id === agent.id ? agent : undefined;
      },
      roots: () => [agent],
    };
    const seam = new UserQuestions({ agents: registry });
    const { provider, requests } = recordingProvider();
    seam.registerProvider(provider);

    expect((await rejectionOf(seam.ask({ questions: [colour], agent, signal: controller.signal }))).code).toBe('ASK_ABORTED');
    expect(requests).toHaveLength(0);
  });
});

describe("the provider's own errors", () => {
  it('propagates the very error object the provider rejects with', async () => {
    const seam = new UserQuestions();
    const failure = new UserQuestionError('ASK_CANCELLED', 'The user dismissed the questions.');
    seam.registerProvider({ ask: async () => Promise.reject(failure) });
    await expect(seam.ask({ questions: [colour] })).rejects.toBe(failure);
  });

  it('propagates it unchanged when a signal and a timeout are composed too', async () => {
    const seam = new UserQuestions();
    const failure = new Error('socket closed');
    seam.registerProvider({ ask: async () => Promise.reject(failure) });
    await expect(seam.ask({ questions: [colour], signal: new AbortController().signal, timeoutMs: 1_000 })).rejects.toBe(failure);
  });

  it('turns a provider that throws synchronously into a rejection', async () => {
    const seam = new UserQuestions();
    const failure = new Error('not ready');
    seam.registerProvider({
      ask: () => {
        throw failure;
      },
    });

    let returned: Promise<unknown> | undefined;
    expect(() => {
      returned = seam.ask({ questions: [colour] });
    }).not.toThrow();
    await expect(returned).rejects.toBe(failure);
    await expect(seam.ask({ questions: [colour], timeoutMs: 1_000 })).rejects.toBe(failure);
  });
});

describe('cleanup after settling', () => {
  it('leaves no timer and no abort listener behind after an answer', async () => {
    vi.useFakeTimers();
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const controller = new AbortController();

    await seam.ask({ questions: [colour], signal: controller.signal, timeoutMs: 60_000 });
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('leaves no timer and no abort listener behind after a provider failure', async () => {
    vi.useFakeTimers();
    const seam = new UserQuestions();
    seam.registerProvider({ ask: async () => Promise.reject(new Error('down')) });
    const controller = new AbortController();

    await expect(seam.ask({ questions: [colour], signal: controller.signal, timeoutMs: 60_000 })).rejects.toThrow('down');
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('leaves no timer behind after an abort, and no listener after a timeout', async () => {
    vi.useFakeTimers();
    const seam = new UserQuestions();
    seam.registerProvider(waitingProvider().provider);

    const first = new AbortController();
    const aborted = rejectionOf(seam.ask({ questions: [colour], signal: first.signal, timeoutMs: 60_000 }));
    first.abort();
    await aborted;
    expect(vi.getTimerCount()).toBe(0);

    const second = new AbortController();
    const timedOut = rejectionOf(seam.ask({ questions: [colour], signal: second.signal, timeoutMs: 10 }));
    await vi.advanceTimersByTimeAsync(10);
    await timedOut;
    expect(getEventListeners(second.signal, 'abort')).toHaveLength(0);
  });

  it('ignores an answer that arrives after the ask was aborted', async () => {
    const seam = new UserQuestions();
    let answerLate: (answer: AskUserQuestionAnswer) => void = () => {};
    seam.registerProvider({ ask: () => new Promise((resolve) => (answerLate = resolve)) });
    const controller = new AbortController();

    const pending = rejectionOf(seam.ask({ questions: [colour], signal: controller.signal }));
    await Promise.resolve();
    controller.abort();
    answerLate(skipAll([colour]));
    expect((await pending).code).toBe('ASK_ABORTED');
  });
});

describe('typed inputs and urgency through the seam', () => {
  const count: AskUserQuestionItem = { id: 'count', question: 'How many replicas?', input: { kind: 'number', min: 1, max: 5, step: 1 }, required: true };

  it('refuses a contradictory input declaration at gate 3, before the provider is asked', async () => {
    const seam = new UserQuestions();
    const { provider, requests } = recordingProvider();
    seam.registerProvider(provider);
    const questions: AskUserQuestionItem[] = [{ id: 'due', question: 'When?', input: { kind: 'date' }, options: [{ label: 'Today' }] }];
    await expect(seam.ask({ questions })).rejects.toMatchObject({ code: 'INVALID_QUESTIONS', message: expect.stringContaining('"due"') });
    expect(requests).toHaveLength(0);
  });

  it('rejects a provider that skips a required question with BAD_ANSWER', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider().provider);
    const error = await seam.ask({ questions: [count] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BAD_ANSWER', cause: { rule: 'required-skipped', questionId: 'count' } });
  });

  it('rejects a provider that answers a number out of its bounds with BAD_ANSWER', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider(() => ({ answers: [{ id: 'count', selected: [], custom: '9' }] })).provider);
    await expect(seam.ask({ questions: [count] })).rejects.toMatchObject({ code: 'BAD_ANSWER', cause: { rule: 'out-of-range' } });
  });

  it('returns a typed answer that fits', async () => {
    const seam = new UserQuestions();
    seam.registerProvider(recordingProvider(() => ({ answers: [{ id: 'count', selected: [], custom: '3' }] })).provider);
    await expect(seam.ask({ questions: [count] })).resolves.toEqual({ answers: [{ id: 'count', selected: [], custom: '3' }] });
  });

  it('hands the urgency to the provider unchanged', async () => {
    const seam = new UserQuestions();
    const { provider, requests } = recordingProvider();
    seam.registerProvider(provider);
    await seam.ask({ questions: [colour], urgency: 'high', timeoutMs: 60_000 });
    expect(requests[0]?.urgency).toBe('high');
  });
});

describe('gate 8 and answers the host already checked (sealReceivedAnswer)', () => {
  it('takes an answer sealed against the very batch it asked, and hands the caller a copy of its own', async () => {
    const seam = new UserQuestions();
    let sealed: AskUserQuestionAnswer | undefined;
    seam.registerProvider({
      ask: async ({ questions }) => {
        const checked = sealReceivedAnswer(questions, { answers: [{ id: 'colour', selected: ['Blue'] }] });
        if (!checked.ok) throw new Error('expected the answer to fit');
        sealed = checked.answer;
        return handOverAnswer(checked.answer);
      },
    });

    const answer = await seam.ask({ questions: [colour] });
    expect(answer).toEqual({ answers: [{ id: 'colour', selected: ['Blue'] }] });
    expect(answer).not.toBe(sealed);
    expect(Object.isFrozen(answer)).toBe(false);
    answer.answers[0]!.selected.push('Red');
    expect(sealed).toEqual({ answers: [{ id: 'colour', selected: ['Blue'] }] });
  });

  it('still checks an answer sealed against another batch, with gate 8\'s BAD_ANSWER and the mismatch as cause', async () => {
    const seam = new UserQuestions();
    let earlier: AskUserQuestionAnswer | undefined;
    seam.registerProvider({
      ask: async ({ questions }) => {
        if (earlier !== undefined) return earlier;
        const checked = sealReceivedAnswer(questions, { answers: [{ id: 'colour', selected: ['Blue'] }] });
        if (!checked.ok) throw new Error('expected the answer to fit');
        earlier = checked.answer;
        return checked.answer;
      },
    });
    await seam.ask({ questions: [colour] });

    const error = await rejectionOf(seam.ask({ questions: [toppings] }));
    expect(error.code).toBe('BAD_ANSWER');
    expect((error.cause as AnswerMismatch).rule).toBe('id-order');
  });

  it('still checks an answer checked by checkReceivedAnswer (not sealed), with BAD_ANSWER', async () => {
    const seam = new UserQuestions();
    seam.registerProvider({
      ask: async () => {
        // Checked against a look-alike batch that offers Green: fits that one, not the one asked.
        const lookAlike = [{ ...colour, options: [{ label: 'Green' }] }];
        const checked = checkReceivedAnswer(lookAlike, { answers: [{ id: 'colour', selected: ['Green'] }] });
        if (!checked.ok) throw new Error('expected the answer to fit the look-alike');
        return checked.answer;
      },
    });

    const error = await rejectionOf(seam.ask({ questions: [colour] }));
    expect(error.code).toBe('BAD_ANSWER');
    expect((error.cause as AnswerMismatch).rule).toBe('unknown-label');
  });

  it('still checks a fitting-looking answer the provider built itself, even for a sealed batch', async () => {
    const seam = new UserQuestions();
    seam.registerProvider({ ask: async () => ({ answers: [{ id: 'colour', selected: ['Blue', 'Red (Recommended)'] }] }) });

    const error = await rejectionOf(seam.ask({ questions: [colour] }));
    expect(error.code).toBe('BAD_ANSWER');
    expect((error.cause as AnswerMismatch).rule).toBe('too-many-selected');
  });
});
