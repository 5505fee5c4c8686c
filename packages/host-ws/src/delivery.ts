import { PROTOCOL_VERSION, type QuestionRequestedFrame, type QuestionResolvedFrame, type ServerFrame } from '@askseam/protocol';
import type { AnsweredBy, QuestionOutcome } from '@askseam/store';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';
import { ConnectionIndex } from './connection-index.js';
import type { PendingQuestion, PendingTable } from './pending.js';
import { onlyQuestion, type Principal } from './principal.js';
import type { Reporter } from './reporter.js';

/**
 * Whatever a person's client is connected through, as delivery sees it: who it is, what it may
 * see, and how frames reach it. A WebSocket connection (`HostConnection`) is one; a second
 * transport (say, Server-Sent Events) implements this and reuses delivery, replay and judging as they are.
 */
export interface Subscriber {
  readonly id: string;
  readonly principal: Principal;
  /** `principal.id` as it was when the subscriber arrived (what the per-principal cap counts). */
  readonly principalId: string;
  /** One of the host's own see-everything principals (token, anonymous). */
  readonly seesEverything: boolean;
  /** The only sessions it can see, when its principal declared that list exhaustive; else undefined. */
  readonly scope: readonly string[] | undefined;
  canSee(sessionId: string): boolean;
  /** The sessions the principal lists (for `hello`): a hint, not a limit. */
  sessions(): string[] | undefined;
  /** Send a frame; `checkBuffer` lets a subscriber that stopped reading be dropped. False when not sent. Never throws. */
  send(frame: ServerFrame, options: { checkBuffer: boolean }): boolean;
  /** `send` for a frame already serialised (one question sent to many subscribers is stringified once). */
  sendText(text: string, options: { checkBuffer: boolean }): boolean;
  /** Send these frames after whatever is already queued, as fast as the peer reads; `onSent` as each one leaves. */
  replay(frames: readonly { text: () => string; onSent: () => void }[]): void;
  /** Run `work` so that the frames it sends leave together. */
  batch<T>(work: () => T): T;
  /**
   * An in-process channel (`host.openChannel`) is handed the questions and endings themselves,
   * with what the wire leaves out (who asked, how exactly it ended, who answered), instead of frames.
   */
  readonly sink?: SubscriberSink;
}

/** How a question ended. The wire tells `answered` from the rest; an in-process channel is told all of it. */
export interface Ending {
  outcome: QuestionOutcome;
  answer?: AskUserQuestionAnswer | undefined;
  answeredBy?: AnsweredBy | undefined;
}

/** The question that ended: a pending entry, or the settled record. */
export interface EndedQuestion {
  rpcId: string;
  sessionId: string;
  questions: AskUserQuestionItem[];
}

/** What an in-process subscriber is handed in place of `question/requested` and `question/resolved` frames. */
export interface SubscriberSink {
  /** The channel's name (`AnsweredBy.via`): the event log says where a question was delivered. */
  readonly via: string;
  /** A pending question it may see (live once saved, or replayed when it arrived). */
  question(entry: PendingQuestion): void;
  /** A question it may see has ended. */
  settled(entry: EndedQuestion, ending: Ending): void;
}

/**
 * Puts pending questions in front of the people who may answer them: `question/requested` to every
 * subscriber of the session when a question is saved (`announce`), everything pending on arrival
 * (`greet`: hello, then the paced replay), and `question/resolved` when one ends.
 */
export class Delivery {
  /** Every subscriber, indexed by the sessions it may see. */
  readonly audience = new ConnectionIndex<Subscriber>();

  constructor(
    private readonly pending: PendingTable,
    private readonly reporter: Reporter,
  ) {}

  /** A saved question, to everyone who may see its session now. */
  announce(entry: PendingQuestion): void {
    // Serialised once for everyone who may see the session.
    const text = JSON.stringify(requestedFrame(entry));
    for (const subscriber of this.audience.audience(entry.sessionId)) {
      if (!mayShow(subscriber, entry.rpcId)) continue;
      if (subscriber.sink !== undefined) {
        subscriber.sink.question(entry);
        this.#delivered(subscriber, entry, { replay: false });
      } else if (subscriber.sendText(text, { checkBuffer: true })) this.#delivered(subscriber, entry, { replay: false });
    }
  }

  /**
   * A question ended: everyone who may see its session drops it. `exceptSubscriber` is the
   * subscriber whose response ended it and that was sent the accepted receipt for it: since
   * protocol 2 that receipt is its news (a client drops the question on it), so it is not sent
   * the same news twice.
   */
  resolved(entry: EndedQuestion, ending: Ending, exceptSubscriber?: string): void {
    let text: string | undefined;
    for (const subscriber of this.audience.audience(entry.sessionId)) {
      if (subscriber.id === exceptSubscriber || !mayShow(subscriber, entry.rpcId)) continue;
      if (subscriber.sink !== undefined) {
        subscriber.sink.settled(entry, ending);
        continue;
      }
      // Every ending that is not an answer reads as `cancelled` on the wire (protocol 2).
      const outcome = ending.outcome === 'answered' ? 'answered' : 'cancelled';
      // Serialised once, and only when someone is there to read it.
      text ??= JSON.stringify({ type: 'question/resolved', rpcId: entry.rpcId, sessionId: entry.sessionId, outcome } satisfies QuestionResolvedFrame);
      subscriber.sendText(text, { checkBuffer: true });
    }
  }

  /** `hello` listing what is about to be replayed, then the replay itself, with the original rpcIds. */
  greet(subscriber: Subscriber): void {
    const sessions = subscriber.sessions();
    // `sessions` is only a hint: unless the principal promises it is complete, every pending
    // question is a candidate and canSee decides, so a session left off the list is not hidden.
    const scope = subscriber.scope;
    const candidates = scope === undefined ? this.pending.all() : this.pending.ofSessions(scope);
    // A question still being saved is delivered live once it is saved, not here.
    // A link's subscriber is shown its one question, never the rest of the session.
    const only = onlyQuestion(subscriber.principal);
    const replay = candidates.filter((entry) => entry.saved && (only === undefined || entry.rpcId === only) && subscriber.canSee(entry.sessionId));
    // A link to a question no longer pending here is told so, rather than left waiting on an empty
    // page; one still being saved is not settled (it is delivered live once saved).
    const link = only === undefined ? undefined : { rpcId: only, settled: replay.length === 0 && this.pending.get(only)?.saved !== false };
    if (subscriber.sink !== undefined) {
      for (const entry of replay) {
        subscriber.sink.question(entry);
        this.#delivered(subscriber, entry, { replay: true });
      }
      return;
    }
    // The hello and as much of the replay as the subscriber's buffer allows leave in one write; the
    // rest follows as the peer reads (a client that never reads must not pin the whole replay).
    subscriber.batch(() => {
      subscriber.send({ type: 'hello', protocol: PROTOCOL_VERSION, ...(sessions === undefined ? {} : { sessions }), pending: replay.map((entry) => entry.rpcId), ...(link === undefined ? {} : { link }) }, { checkBuffer: false });
      subscriber.replay(
        replay.map((entry) => ({ text: () => JSON.stringify(requestedFrame(entry)), onSent: () => this.#delivered(subscriber, entry, { replay: true }) })),
      );
    });
  }

  #delivered(subscriber: Subscriber, entry: PendingQuestion, { replay }: { replay: boolean }): void {
    const via = subscriber.sink?.via;
    this.reporter.report({ kind: 'delivered', rpcId: entry.rpcId, sessionId: entry.sessionId, connectionId: subscriber.id, replay, ...(via === undefined ? {} : { via }) }, { log: true });
  }
}

/** False for a link's subscriber and any question but its own. */
function mayShow(subscriber: Subscriber, rpcId: string): boolean {
  const only = onlyQuestion(subscriber.principal);
  return only === undefined || only === rpcId;
}

function requestedFrame(entry: PendingQuestion): QuestionRequestedFrame {
  return {
    type: 'question/requested',
    rpcId: entry.rpcId,
    sessionId: entry.sessionId,
    questions: entry.questions,
    askedAt: entry.askedAt,
    ...(entry.record.urgency === undefined ? {} : { urgency: entry.record.urgency }),
  };
}
