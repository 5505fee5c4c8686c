import type { DetachedAsker } from '@askseam/host-ws';
import type { JsonValue, QuestionRecord, QuestionStore } from '@askseam/store';
import { askUserQuestionsSchema, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import { Command } from '@langchain/langgraph';
import { editForm } from './edit-form.js';
import { LangGraphBridgeError } from './errors.js';
import { hitlRequestOf, type HitlDecision, type HitlRequest } from './hitl-types.js';
import { actionCard, cardChoiceOf, offeredReview, reviewConfigFor, toolJsonSchemaOf, type ReviewLang } from './review.js';

/** The part of a compiled LangGraph graph (or a `createAgent` agent) the bridge drives. */
export interface InterruptibleGraph {
  invoke(input: unknown, config: { configurable: { thread_id: string } }): Promise<unknown>;
  getState(config: { configurable: { thread_id: string } }): Promise<{ tasks: readonly { interrupts?: readonly { id?: string; value?: unknown }[] }[] }>;
}

/** The part of the host the bridge asks through (a `WebSocketHost` has it). */
export interface BridgeHost extends DetachedAsker {
  readonly store: Pick<QuestionStore, 'listPending'>;
}

/** One pending interrupt of a thread, as LangGraph reports it. */
export interface PendingInterrupt {
  id: string;
  value: unknown;
}

export interface LangGraphInterruptsOptions {
  /** The graph, compiled with a persistent checkpointer (the same one after a restart). */
  graph: InterruptibleGraph;
  /** The session whose clients see the questions (a live agent's id, or any session of yours). */
  sessionId: string;
  /** `en` (default) or `zh`, for the approval cards of humanInTheLoopMiddleware. */
  lang?: ReviewLang;
  /** The agent's tools: approval cards show what a tool does, edit forms are typed from its schema. */
  tools?: readonly { name: string; description: string; schema?: unknown }[];
  /**
   * Questions for an interrupt value the bridge does not know (it knows a question batch
   * `{ questions }`, a string, and humanInTheLoopMiddleware's request). The thread resumes with the
   * person's answer `{ answers }`. Return `undefined` for a value you do not handle either.
   */
  questionsFor?: (value: unknown) => AskUserQuestionItem[] | undefined;
  /** Called with the graph's result when a resumed thread has nothing left to ask. */
  onDone?: (threadId: string, result: unknown) => void | Promise<void>;
  /**
   * Called when the person dismissed a question instead of answering: the thread stays paused at
   * that interrupt (nothing is resumed) until you ask again (`askPending`) or resume it yourself.
   */
  onDismissed?: (threadId: string, interruptId: string) => void | Promise<void>;
}

// What the bridge keeps with each question (the record's `state`): enough to find the paused
// thread again after a restart. The interrupt's value is read back from the checkpointer.
type Step =
  | { kind: 'questions' }
  | { kind: 'text' }
  | { kind: 'review'; index: number; decisions: HitlDecision[] }
  | { kind: 'edit'; index: number; decisions: HitlDecision[] };

interface BridgeState {
  bridge: 'askseam.langgraph-interrupt';
  threadId: string;
  interruptId: string;
  step: Step;
}

const bridgeMark = 'askseam.langgraph-interrupt';
const textQuestionId = 'reply';

function bridgeStateOf(record: QuestionRecord): BridgeState | undefined {
  const state = record.state as Partial<BridgeState> | undefined;
  return typeof state === 'object' && state !== null && state.bridge === bridgeMark ? (state as BridgeState) : undefined;
}

/**
 * Connects a LangGraph thread's `interrupt()`s to askseam's detached questions: each pending
 * interrupt is saved as a question (it survives a restart), and the person's answer resumes the
 * thread with `new Command({ resume: { [interruptId]: value } })`, in this process or the next one.
 *
 * ```ts
 * const interrupts = langGraphInterrupts({ graph, sessionId: 'assistant' });
 * const host = await createWebSocketHost({ userQuestions, token, store, onResume: interrupts.onResume });
 * interrupts.useHost(host);
 * await interrupts.invoke(input, threadId);
 * ```
 */
export function langGraphInterrupts(options: LangGraphInterruptsOptions) {
  const { graph, sessionId } = options;
  const lang = options.lang ?? 'en';
  let host: BridgeHost | undefined;
  // onResume may be called while the host is still starting (answers saved before a restart):
  // it waits here for useHost rather than dropping them.
  let hostGiven: (host: BridgeHost) => void = () => undefined;
  const hostReady = new Promise<BridgeHost>((resolve) => (hostGiven = resolve));

  const config = (threadId: string) => ({ configurable: { thread_id: threadId } });
  const theHost = (): Promise<BridgeHost> => (host === undefined ? hostReady : Promise.resolve(host));

  // One thing at a time per thread: two answers to one thread's interrupts arriving together must
  // not resume it from the same checkpoint twice.
  const threadQueues = new Map<string, Promise<unknown>>();
  function serialised<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const previous = threadQueues.get(threadId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    threadQueues.set(threadId, settled);
    void settled.then(() => {
      if (threadQueues.get(threadId) === settled) threadQueues.delete(threadId);
    });
    return next;
  }

  async function pendingInterrupts(threadId: string): Promise<PendingInterrupt[]> {
    const snapshot = await graph.getState(config(threadId));
    return snapshot.tasks.flatMap((task) => task.interrupts ?? []).flatMap((each) => (each.id === undefined ? [] : [{ id: each.id, value: each.value }]));
  }

  function toolOf(name: string) {
    const tool = options.tools?.find((each) => each.name === name);
    return { description: tool?.description, jsonSchema: toolJsonSchemaOf(tool) };
  }

  async function ask(questions: AskUserQuestionItem[], state: BridgeState): Promise<void> {
    await (await theHost()).askDetached({ questions, sessionId, state: state as unknown as JsonValue });
  }

  /** The first question about `pending`: the batch it carries, a free-text question, or the first action's card. */
  async function askFirst(threadId: string, pending: PendingInterrupt): Promise<void> {
    const base = { bridge: bridgeMark, threadId, interruptId: pending.id } as const;
    const review = hitlRequestOf(pending.value);
    if (review !== undefined) return askReview(threadId, pending.id, review, 0, []);
    const batch = askUserQuestionsSchema.safeParse((pending.value as { questions?: unknown } | null)?.questions);
    if (batch.success) return ask(batch.data, { ...base, step: { kind: 'questions' } });
    if (typeof pending.value === 'string') {
      return ask([{ id: textQuestionId, question: pending.value, input: { kind: 'textarea' }, required: true }], { ...base, step: { kind: 'text' } });
    }
    const custom = options.questionsFor?.(pending.value);
    if (custom !== undefined) return ask(custom, { ...base, step: { kind: 'questions' } });
    throw new LangGraphBridgeError(
      'UNKNOWN_INTERRUPT',
      `Thread "${threadId}" is paused at interrupt ${pending.id} with a value the bridge cannot ask about (${JSON.stringify(pending.value)?.slice(0, 80)}): interrupt with a string or { questions }, or pass questionsFor.`,
    );
  }

  async function askReview(threadId: string, interruptId: string, review: HitlRequest, index: number, decisions: HitlDecision[]): Promise<void> {
    const action = review.actionRequests[index];
    if (action === undefined) return;
    const { description, jsonSchema } = toolOf(action.name);
    const offered = offeredReview(action, reviewConfigFor(review, index), jsonSchema);
    const card = actionCard(action, offered, { lang, ...(description === undefined ? {} : { toolDescription: description }) });
    await ask(card, { bridge: bridgeMark, threadId, interruptId, step: { kind: 'review', index, decisions } });
  }

  /** Resume the thread at `interruptId` with `value`, then ask whatever it pauses at next. */
  async function resume(threadId: string, interruptId: string, value: unknown): Promise<void> {
    const result = await graph.invoke(new Command({ resume: { [interruptId]: value } }), config(threadId));
    const asked = await askPending(threadId);
    if (asked === 0 && (await pendingInterrupts(threadId)).length === 0) await options.onDone?.(threadId, result);
  }

  /**
   * Ask about every interrupt the thread is paused at that has no question pending yet; returns
   * how many were asked. Safe to call again: an interrupt already asked is not asked twice.
   */
  async function askPending(threadId: string): Promise<number> {
    const pending = await pendingInterrupts(threadId);
    if (pending.length === 0) return 0;
    const store = (await theHost()).store;
    const asked = new Set(
      (await store.listPending([sessionId])).flatMap((record) => {
        const state = bridgeStateOf(record);
        return state?.threadId === threadId ? [state.interruptId] : [];
      }),
    );
    let count = 0;
    for (const each of pending) {
      if (asked.has(each.id)) continue;
      await askFirst(threadId, each);
      count++;
    }
    return count;
  }

  return {
    /** Give the bridge the host to ask through (the one whose `onResume` is this bridge's). */
    useHost(given: BridgeHost): void {
      host = given;
      hostGiven(given);
    },

    /** Run the graph on `threadId`, then ask about every interrupt it paused at. Returns the graph's result. */
    async invoke(input: unknown, threadId: string): Promise<unknown> {
      if (host === undefined) throw new LangGraphBridgeError('NO_HOST', 'The LangGraph bridge has no host to ask through yet: call useHost(host) once createWebSocketHost resolves.');
      return serialised(threadId, async () => {
        const result = await graph.invoke(input, config(threadId));
        await askPending(threadId);
        return result;
      });
    },

    askPending: (threadId: string): Promise<number> => serialised(threadId, () => askPending(threadId)),

    /** True for a record this bridge asked (so a handler serving several kinds can route it here). */
    owns: (record: QuestionRecord): boolean => bridgeStateOf(record) !== undefined,

    /**
     * The host's `onResume` (or the part of yours that `owns` the record): resumes the thread with
     * the answer. A record that is not the bridge's is ignored. An answer whose interrupt is no
     * longer pending (delivered again after a crash, the thread already resumed) changes nothing.
     */
    onResume: async (record: QuestionRecord): Promise<void> => {
      const state = bridgeStateOf(record);
      if (state !== undefined) await serialised(state.threadId, () => answered(record, state));
    },
  };

  async function answered(record: QuestionRecord, state: BridgeState): Promise<void> {
    const { threadId, interruptId, step } = state;
    const pending = (await pendingInterrupts(threadId)).find((each) => each.id === interruptId);
    if (pending === undefined) return;
    if (record.outcome !== 'answered' || record.answer === undefined) {
      await options.onDismissed?.(threadId, interruptId);
      return;
    }
    const answer: AskUserQuestionAnswer = record.answer;
    if (step.kind === 'questions') {
      await resume(threadId, interruptId, answer);
      return;
    }
    if (step.kind === 'text') {
      await resume(threadId, interruptId, answer.answers.find((each) => each.id === textQuestionId)?.custom ?? '');
      return;
    }
    const review = hitlRequestOf(pending.value);
    const action = review?.actionRequests[step.index];
    if (review === undefined || action === undefined) return;
    const { jsonSchema } = toolOf(action.name);
    const reviewConfig = offeredReview(action, reviewConfigFor(review, step.index), jsonSchema);
    const form = editForm(action.args, reviewConfig.argsSchema ?? jsonSchema);
    let decision: HitlDecision;
    if (step.kind === 'edit') {
      decision = { type: 'edit', editedAction: { name: action.name, args: form.argsFrom(answer) } };
    } else {
      const choice = cardChoiceOf(action, reviewConfig, record.questions, answer, lang);
      if (choice.kind === 'not-allowed') {
        await askReview(threadId, interruptId, review, step.index, step.decisions);
        return;
      }
      if (choice.kind === 'edit') {
        await ask(form.questions, { bridge: bridgeMark, threadId, interruptId, step: { kind: 'edit', index: step.index, decisions: step.decisions } });
        return;
      }
      decision = choice.decision;
    }
    const decisions = [...step.decisions, decision];
    if (decisions.length < review.actionRequests.length) await askReview(threadId, interruptId, review, step.index + 1, decisions);
    else await resume(threadId, interruptId, { decisions });
  }
}

export type LangGraphInterrupts = ReturnType<typeof langGraphInterrupts>;
