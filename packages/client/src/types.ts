import type { AnswerMismatch, AskUserQuestionAnswer, AskUserQuestionItem, AskUserQuestionUrgency } from '@askseam/user-questions';
import type { QuestionClientError } from './errors.js';
import type { WebSocketConstructorLike } from './socket.js';
import type { EventSourceConstructorLike, FetchLike } from './sse.js';

export interface ConnectQuestionsOptions {
  /**
   * Where the host is, without the token; its scheme chooses the transport. `ws://` / `wss://`: the
   * WebSocket host. `http://` / `https://`: the HTTP + Server-Sent Events handler mounted at that
   * path (the client uses `<url>/events` and `<url>/respond`). Other query parameters are kept.
   */
  url: string;
  /** Sent as `?token=…` on the URL(s): browsers cannot set headers on a WebSocket upgrade or an EventSource. */
  token?: string;
  /**
   * A one-question link's capability (what `?link=` carried on the page a notification opened),
   * sent as `?link=…` instead of a token: the host shows and accepts answers for that question only.
   */
  link?: string;
  /** For ws(s):// URLs. Defaults to `globalThis.WebSocket`; on Node 20 pass the `ws` package's `WebSocket`. */
  WebSocket?: WebSocketConstructorLike;
  /** For http(s):// URLs. Defaults to `globalThis.EventSource`; on Node 20 pass the `eventsource` package's (4.x) `EventSource`. */
  EventSource?: EventSourceConstructorLike;
  /** For http(s):// URLs: sends the answers and cancels as POSTs. Defaults to `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Exponential backoff with jitter between attempts; `false` stays closed after the first drop. Defaults 250 / 10_000 ms. */
  reconnect?: false | { initialDelayMs?: number; maxDelayMs?: number };
  /**
   * WebSocket only: interval of the app-level `{ type: 'ping' }`; nothing at all received within it
   * after a ping → drop and reconnect. Default 15_000. (An SSE stream has no client→host channel to ping on.)
   */
  heartbeatMs?: number;
}

/**
 * `connecting` until the first hello; `open` while a connection the host has greeted is up;
 * `reconnecting` between a drop (or a failed attempt) and the next hello; `closed` for good.
 */
export type ClientStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** A host's acceptance of an answer or a cancel. The question has left `pending` (and `resolved` has fired) by the time this arrives. */
export type AcceptedReceipt = {
  rpcId: string;
  accepted: true;
  /**
   * Set when the answer was one approval of a quorum approval that still waits for more: the
   * question stays pending (it is not resolved here), and these are its approvals so far.
   */
  votes?: readonly QuestionVote[];
};

/** One approval counted on a quorum approval (`intent.quorum`): who, and how it came in. */
export interface QuestionVote {
  readonly principalId: string;
  /** `websocket`, `http`, a channel's name. */
  readonly via: string;
  /** The person as their channel names them, when it does. */
  readonly user?: string;
}

/** Why a question left the pending map: the host's outcome, or `gone` (settled while this client was away). */
export type ResolvedOutcome = 'answered' | 'cancelled' | 'gone';

export interface QuestionResolvedEvent {
  rpcId: string;
  sessionId: string;
  outcome: ResolvedOutcome;
  /** Set when an agent answerer of the host's route answered it (`via: 'agent'`, `principalId: 'agent:<name>'`). */
  answeredBy?: { principalId: string; via: string };
}

export interface PendingQuestion {
  /** Stable across replays: key drafts by it. */
  readonly rpcId: string;
  /** The asking agent's id. */
  readonly sessionId: string;
  readonly questions: AskUserQuestionItem[];
  /** When the agent asked, as an ISO 8601 timestamp. */
  readonly askedAt: string;
  /**
   * How soon a person should look, when the asker said (absent otherwise). A presentation hint
   * only: it never changes which answers fit. A UI may order its queue by it.
   */
  readonly urgency?: AskUserQuestionUrgency;
  /**
   * A quorum approval's approvals so far (absent before the first, and for every other question).
   * Kept current as the host counts votes; the `votes` event says when it changed.
   */
  readonly votes?: readonly QuestionVote[];
  /** Why `answer` would not fit these questions (the `matchesQuestions` rule it breaks), or `undefined` when it fits. */
  check(answer: AskUserQuestionAnswer): AnswerMismatch | undefined;
  /** Same as `client.answer(rpcId, answer)`. */
  answer(answer: AskUserQuestionAnswer): Promise<AcceptedReceipt>;
  /** Same as `client.cancel(rpcId)`. */
  cancel(): Promise<AcceptedReceipt>;
}

/** What the host said about the question of a one-question link (absent until the hello of a link connection). */
export interface LinkState {
  rpcId: string;
  /** The question was already answered or dismissed when the host greeted this client, or has been since: the link has nothing left to show. */
  settled: boolean;
}

export interface QuestionClientEvents {
  requested: PendingQuestion;
  /** A quorum approval this client holds counted another approval: the same `PendingQuestion`, its `votes` updated. */
  votes: PendingQuestion;
  resolved: QuestionResolvedEvent;
  status: ClientStatus;
  error: QuestionClientError;
}

export interface QuestionClient {
  /** rpcId → question, kept current as frames arrive (and kept across reconnects). */
  readonly pending: ReadonlyMap<string, PendingQuestion>;
  readonly status: ClientStatus;
  /** With the `link` option, once greeted: the link's question and whether it is settled (read it on `status` and `resolved`). */
  readonly link?: LinkState | undefined;
  /**
   * Fires once per rpcId, the first time it is seen. A replay of a known rpcId (after a reconnect)
   * does not fire again and keeps the same `PendingQuestion` object, so drafts keyed by rpcId survive.
   */
  on(event: 'requested', listener: (question: PendingQuestion) => void): () => void;
  /**
   * Fires on `question/resolved` (`answered` | `cancelled`) and on the accepted receipt of this
   * client's own answer or cancel (the host sends no `question/resolved` for that), or with `gone` when, after a reconnect,
   * the host's hello no longer lists an rpcId this client held.
   */
  on(event: 'resolved', listener: (event: QuestionResolvedEvent) => void): () => void;
  /** A quorum approval's progress changed (`question.votes`): show "1 of 2 approvals (by @alex)". */
  on(event: 'votes', listener: (question: PendingQuestion) => void): () => void;
  on(event: 'status', listener: (status: ClientStatus) => void): () => void;
  /** Error frames from the host, unreadable frames, failed connection attempts. */
  on(event: 'error', listener: (error: QuestionClientError) => void): () => void;
  /** Send the user's answer; resolves with the accepted receipt, rejects with a `QuestionClientError`. */
  answer(rpcId: string, answer: AskUserQuestionAnswer): Promise<AcceptedReceipt>;
  /** Dismiss the whole request; the agent's ask rejects `ASK_CANCELLED`. */
  cancel(rpcId: string): Promise<AcceptedReceipt>;
  /** Close for good: no reconnect, no timers; calls waiting for a receipt reject `closed`. */
  close(): void;
}
