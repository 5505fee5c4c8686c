import type { AskUserQuestionAnswer, AskUserQuestionItem, AskUserQuestionUrgency } from './schemas.js';

/** A live agent. The seam compares agents by identity, so pass the registry's own object. */
export interface AgentRef {
  id: string;
}

/** Who is alive right now and who owns no one above them. Runtime ownership, not stored lineage. */
export interface AgentRegistry {
  get(id: string): AgentRef | undefined;
  roots(): Iterable<AgentRef>;
}

export interface AskUserQuestionRequest {
  questions: AskUserQuestionItem[];
  /** The asking agent. Hosts that keep sessions (the WebSocket host) require it. */
  agent?: AgentRef;
  /** Aborting it cancels the wait; the seam composes it with `timeoutMs` before the provider sees it. */
  signal?: AbortSignal;
  /**
   * Give up after this many milliseconds with `ASK_TIMEOUT`. No timeout by default; a value beyond
   * what `setTimeout` can count (about 24.8 days, `Infinity` included) also means no timeout.
   */
  timeoutMs?: number;
  /**
   * How soon a human should look (the 12-factor `request_human_input` field). A presentation hint:
   * the seam passes it to the provider unchanged and checks nothing about it; a provider that does
   * not know a value treats it as `medium`.
   */
  urgency?: AskUserQuestionUrgency;
  /**
   * Told who settled the question, by a provider that knows (the WebSocket host does), just
   * before `ask` resolves with the answer: the person whose response decided it, or every
   * approver of a quorum approval. The answer itself keeps its shape; this is for the asking code
   * (`askApproval` returns it as `by`), never for the model. A provider that cannot say never calls it.
   */
  answeredBy?: (people: readonly AnsweredBy[]) => void;
}

/** Who answered, as the host recorded it (the same shape as `@askseam/store`'s `AnsweredBy`). */
export interface AnsweredBy {
  /** The principal the response came in as. */
  principalId: string;
  /** How it came in: `websocket`, `http`, a channel's name (`slack`, `email`, …), `agent`. */
  via: string;
  /** The person as the channel names them (a Slack user id, an e-mail address). */
  user?: string;
  /** Where the channel showed it (`slack:C0123`). */
  destination?: string;
}

/**
 * Whatever puts the questions in front of a human: a web UI host, a terminal, a bot. Its `ask`
 * gets the seam's own checked copy of the questions, frozen (`isSealedQuestionBatch` is true for
 * it): keep it by reference if you like, but do not try to change it.
 */
// #region user-question-provider
export interface UserQuestionProvider {
  ask(request: AskUserQuestionRequest): Promise<AskUserQuestionAnswer>;
}
// #endregion user-question-provider
