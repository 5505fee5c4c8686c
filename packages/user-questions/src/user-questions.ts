import { copyAnswer, takeAnswer } from './answer.js';
import { isAnswerCheckedFor } from './received-answer.js';
import { sealCheckedBatch } from './sealed.js';
import { checkQuestionBatch } from './batch.js';
import { checkQuestionIntents } from './intent.js';
import { UserQuestionError } from './errors.js';
import { answerMismatch } from './match.js';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from './schemas.js';
import { AskSpan } from './ask-span.js';
import { askObservationOf, observedRequest, type AskseamTelemetry, type Tracer } from './telemetry.js';
import type { AgentRef, AgentRegistry, AskUserQuestionRequest, UserQuestionProvider } from './types.js';

export interface UserQuestionsOptions {
  /** The live agents. Without it, any request that names an `agent` fails `CALLER_NOT_LIVE`. */
  agents?: AgentRegistry;
  /**
   * Record one span per ask with the app's OpenTelemetry tracer provider (docs/telemetry.md).
   * Without it (or without its `tracerProvider`) nothing is recorded.
   */
  telemetry?: AskseamTelemetry;
}

/**
 * The seam between whoever asks (a tool, plan mode) and whoever shows the question to a human
 * (exactly one registered provider). `ask` runs the gates of docs/design.md ("The gates of ask()") in contract order.
 */
export class UserQuestions {
  readonly #agents: AgentRegistry | undefined;
  #provider: UserQuestionProvider | undefined;
  readonly #tracer: Tracer | undefined;
  readonly #recordContent: boolean;

  constructor(options: UserQuestionsOptions = {}) {
    this.#agents = options.agents;
    this.#tracer = options.telemetry?.tracerProvider?.getTracer('@askseam/user-questions');
    this.#recordContent = options.telemetry?.recordContent === true;
  }

  /** True while a provider is registered. */
  get hasProvider(): boolean {
    return this.#provider !== undefined;
  }

  /**
   * Make `provider` the one that answers. Throws `DUPLICATE_PROVIDER` when another is registered.
   * The returned disposer is idempotent and only ever removes this registration.
   */
  registerProvider(provider: UserQuestionProvider): () => void {
    if (this.#provider !== undefined) {
      throw new UserQuestionError(
        'DUPLICATE_PROVIDER',
        'A user-question provider is already registered; dispose it before registering another.',
      );
    }
    // Wrap so that registering the same provider object twice still yields two distinct registrations.
    const registration: UserQuestionProvider = { ask: (request) => provider.ask(request) };
    this.#provider = registration;
    return () => {
      if (this.#provider === registration) this.#provider = undefined;
    };
  }

  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
    // Not `async`: a pending ask then holds one promise reaction and a closure over the checked
    // questions, not a suspended generator with every local (heap per pending question).
    const { questions, agent, signal, timeoutMs } = request;
    // Before the gates, so a refused ask is a span too. No tracer: no span, no cost.
    const span = this.#tracer === undefined ? undefined : new AskSpan(this.#tracer, request, this.#recordContent);
    let asked: AskUserQuestionItem[];
    try {
      // Our own checked copy, frozen: the provider gets it instead of the caller's objects, so
      // what is shown, kept and checked at gate 8 is one batch that nobody can change.
      asked = sealCheckedBatch(this.#passGates(questions, agent, signal));
    } catch (error) {
      span?.fail(error, true);
      return Promise.reject(error);
    }
    if (span === undefined) {
      // 8 (gate 7 has just found the provider, and nothing ran since)
      // Bound, not an arrow: a bound function holds `asked` itself, where an arrow keeps a context as well.
      return askWithDeadline(this.#provider!, { ...request, questions: asked }, signal, timeoutMs).then(checkedAnswer.bind(undefined, asked));
    }
    span.asked(asked);
    // The provider adds to the span through the request it gets (askObservationOf).
    const providerRequest = observedRequest(request, 'questions', asked, span);
    // The span ends in the same reaction that checks the answer (gate 8): no promise of its own.
    return span.follow(askWithDeadline(this.#provider!, providerRequest, signal, timeoutMs), asked, checkedAnswer);
  }

  /** Gates 1 to 7, in contract order; returns the seam's own copy of the questions. Throws the first gate's error. */
  #passGates(
    questions: AskUserQuestionItem[],
    agent: AgentRef | undefined,
    signal: AbortSignal | undefined,
  ): AskUserQuestionItem[] {
    // 1
    if (signal?.aborted) throw new UserQuestionError('ASK_ABORTED', 'The question was aborted before it was asked.', { cause: signal.reason });
    // 2 (a value that is not a list at all is malformed, gate 3's business)
    if (questions === undefined || questions === null || (Array.isArray(questions) && questions.length === 0)) {
      throw new UserQuestionError('EMPTY_QUESTIONS', 'No questions were given; ask at least one question.');
    }
    // 3
    const batch = checkQuestionBatch(questions);
    if (!batch.ok) throw new UserQuestionError('INVALID_QUESTIONS', batch.problem);
    if (agent !== undefined) {
      // 4
      if (this.#agents === undefined || this.#agents.get(agent.id) !== agent) {
        throw new UserQuestionError('CALLER_NOT_LIVE', `Agent "${agent.id}" is not a live agent of this runtime, so it cannot ask the user.`);
      }
      // 5
      if (!isRoot(this.#agents, agent)) {
        throw new UserQuestionError(
          'DELEGATED_CALLER',
          `Agent "${agent.id}" is a delegated agent: no human answers its questions, so asking would block forever. ` +
            'Put the unresolved question or decision into your final result instead, and let the agent that delegated to you ask.',
        );
      }
    }
    // 6 (on the seam's copy, which then holds its own copy of each tool input it checked)
    const intents = checkQuestionIntents(batch.questions);
    if (!intents.ok) throw new UserQuestionError('BAD_INTENT', intents.problem);
    // 7
    if (this.#provider === undefined) {
      throw new UserQuestionError('NO_PROVIDER', 'No user-question provider is registered, so there is no one to ask.');
    }
    return intents.questions;
  }
}

/**
 * Gate 8's check of what the provider returned. Read once: what is checked is exactly what the
 * caller gets. Checked against the seam's own copy of the questions as asked: a provider that
 * edits the request in place (say, strips "(Recommended)" from a label) cannot make its answer fit.
 */
function checkedAnswer(questions: AskUserQuestionItem[], provided: AskUserQuestionAnswer): AskUserQuestionAnswer {
  // Already checked against this very sealed batch (by the host's `sealReceivedAnswer`) and frozen
  // since: checking it again cannot come out differently. The caller still gets a copy of its own.
  if (isAnswerCheckedFor(provided, questions)) return copyAnswer(provided);
  // One copy on the way back: the provider's own hand-over copy, or the seam's snapshot of anything else.
  const answer = takeAnswer(provided);
  const mismatch = answerMismatch(questions, answer);
  if (mismatch) {
    throw new UserQuestionError('BAD_ANSWER', `The provider returned an answer that does not fit the questions: ${mismatch.message}`, {
      cause: mismatch,
    });
  }
  return answer as AskUserQuestionAnswer;
}

function isRoot(agents: AgentRegistry, agent: AgentRef): boolean {
  for (const root of agents.roots()) if (root === agent) return true;
  return false;
}

/** The longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days). */
const maxTimerDelayMs = 2_147_483_647;

/**
 * Call the provider with one signal that fires on the caller's abort or on the timeout, and settle
 * with our own error first so the provider's reaction to the abort cannot mask why it happened.
 */
function askWithDeadline(
  provider: UserQuestionProvider,
  request: AskUserQuestionRequest,
  callerSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): Promise<AskUserQuestionAnswer> {
  if (callerSignal === undefined && timeoutMs === undefined) return callProvider(provider, request);

  const controller = new AbortController();
  // setTimeout fires at once for delays beyond its 32-bit range (Infinity included), which would
  // turn "wait practically forever" into an instant ASK_TIMEOUT; such a deadline means none.
  const deadlineMs = timeoutMs !== undefined && timeoutMs <= maxTimerDelayMs ? timeoutMs : undefined;
  return new Promise<AskUserQuestionAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
      settle();
    };
    const stop = (error: UserQuestionError) => {
      finish(() => reject(error));
      controller.abort(error);
    };
    const onCallerAbort = () =>
      stop(new UserQuestionError('ASK_ABORTED', 'The question was aborted while waiting for an answer.', { cause: callerSignal?.reason }));
    const timer =
      deadlineMs === undefined
        ? undefined
        : setTimeout(() => stop(new UserQuestionError('ASK_TIMEOUT', `No answer arrived within ${deadlineMs} ms.`)), deadlineMs);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    // Gate 1 ran before the registry was consulted; an abort since then fires no event, so check
    // again here rather than leave the provider waiting on a signal that will never abort.
    if (callerSignal?.aborted) {
      onCallerAbort();
      return;
    }

    callProvider(provider, withSignal(request, controller.signal)).then(
      (answer) => finish(() => resolve(answer)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

function callProvider(provider: UserQuestionProvider, request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer> {
  // A provider that throws synchronously rejects like any other. Not `async`: Promise.resolve hands
  // back the provider's own promise, where an async wrapper would add a promise per pending ask.
  try {
    return Promise.resolve(provider.ask(request));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A copy of `request` with `signal`, and with the ask span's observation of `request` (a spread leaves it behind: it is not enumerable). */
function withSignal(request: AskUserQuestionRequest, signal: AbortSignal): AskUserQuestionRequest {
  const observation = askObservationOf(request);
  return observation === undefined ? { ...request, signal } : observedRequest(request, 'signal', signal, observation);
}
