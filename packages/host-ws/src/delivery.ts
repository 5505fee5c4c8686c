import { PROTOCOL_VERSION, type QuestionRequestedFrame, type QuestionResolvedFrame, type QuestionVote, type ServerFrame } from '@askseam/protocol';
import type { AnsweredBy, QuestionOutcome, Vote } from '@askseam/store';
import type { AskUserQuestionAnswer, AskUserQuestionItem } from '@askseam/user-questions';
import { ConnectionIndex } from './connection-index.js';
import type { PendingQuestion, PendingTable } from './pending.js';
import { onlyQuestion, type Principal } from './principal.js';
import { votesForClients } from './quorum.js';
import type { Reporter } from './reporter.js';
import type { Routing } from './routing.js';

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
  /** A quorum approval it was shown counted one more approval (`entry.votes`). */
  votes?(entry: PendingQuestion): void;
  /** A routed question it was shown reached a tier that names more of its destinations (docs/routing.md). */
  escalated?(entry: PendingQuestion): void;
}

/**
 * Puts pending questions in front of the people who may answer them: `question/requested` to every
 * subscriber of the session when a question is saved (`announce`), everything pending on arrival
 * (`greet`: hello, then the paced replay), and `question/resolved` when one ends.
 */
export class Delivery {
  /** Every subscriber, indexed by the sessions it may see. */
  readonly audience = new ConnectionIndex<Subscriber>();
  /**
   * Subscribers that arrived while this node was fetching their sessions' questions (`holds:
   * 'share'`): they are sent nothing until `greet`, whose `hello` and replay come first and carry
   * whatever was asked meanwhile.
   */
  readonly #notGreeted = new Set<Subscriber>();

  constructor(
    private readonly pending: PendingTable,
    private readonly reporter: Reporter,
    /** The host's route: a routed question is shown only to the answerers of its reached tiers (docs/routing.md). */
    private readonly routing?: Routing,
    /** The node's share (share.ts), when it holds only its own: a subscriber's sessions are fetched before it is greeted. */
    private readonly share?: { hold(subscriber: Subscriber): Promise<void> | undefined; release(subscriber: Subscriber): void },
  ) {}

  /** A subscriber arrived (any transport): counted at once (connection caps), greeted once its sessions' questions are here. */
  arrive(subscriber: Subscriber): void {
    this.audience.add(subscriber);
    const ready = this.share?.hold(subscriber);
    if (ready === undefined) {
      this.greet(subscriber);
      return;
    }
    this.#notGreeted.add(subscriber);
    void ready.then(() => {
      // Gone meanwhile: nothing to greet.
      if (this.#notGreeted.delete(subscriber)) this.greet(subscriber);
    });
  }

  /** A subscriber left (closed, dropped, expired). Idempotent. */
  leave(subscriber: Subscriber): void {
    this.#notGreeted.delete(subscriber);
    if (this.audience.delete(subscriber)) this.share?.release(subscriber);
  }

  /** The subscribers of a session that may be sent its news now (greeted). */
  *#greeted(sessionId: string): Generator<Subscriber> {
    if (this.#notGreeted.size === 0) {
      yield* this.audience.audience(sessionId);
      return;
    }
    for (const subscriber of this.audience.audience(sessionId)) if (!this.#notGreeted.has(subscriber)) yield subscriber;
  }

  /** A saved question, to everyone who may see its session now. */
  announce(entry: PendingQuestion): void {
    // Routed from here on (a question asked on another node, too), so the check below knows its tiers.
    this.routing?.track(entry);
    this.#announceTo(entry, () => true);
  }

  /**
   * A routed question reached a later tier (it was at `before`): show it to the subscribers that
   * may see it now and could not before; a channel that could already see it hears of the tier
   * (`escalated`) when the tier names destinations of its own.
   */
  reveal(entry: PendingQuestion, before: number): void {
    const routing = this.routing;
    if (routing === undefined || this.pending.get(entry.rpcId) !== entry || !entry.saved) return;
    const shownBefore = (subscriber: Subscriber) => routing.maySee(entry.rpcId, subscriber.principal, subscriber.sink?.via, before);
    for (const subscriber of this.#greeted(entry.sessionId)) {
      const via = subscriber.sink?.via;
      if (via === undefined || !shownBefore(subscriber) || !this.#mayShow(subscriber, entry.rpcId)) continue;
      if (routing.destinations(entry.rpcId, via)!.length > routing.destinations(entry.rpcId, via, before)!.length) subscriber.sink!.escalated?.(entry);
    }
    this.#announceTo(entry, (subscriber) => !shownBefore(subscriber));
  }

  #announceTo(entry: PendingQuestion, include: (subscriber: Subscriber) => boolean): void {
    // Serialised once for everyone who may see the session.
    let text: string | undefined;
    for (const subscriber of this.#greeted(entry.sessionId)) {
      if (!this.#mayShow(subscriber, entry.rpcId) || !include(subscriber)) continue;
      if (subscriber.sink !== undefined) {
        subscriber.sink.question(entry);
        this.#delivered(subscriber, entry, { replay: false });
        continue;
      }
      text ??= JSON.stringify(requestedFrame(entry));
      if (subscriber.sendText(text, { checkBuffer: true })) this.#delivered(subscriber, entry, { replay: false });
    }
  }

  #mayShow(subscriber: Subscriber, rpcId: string): boolean {
    return mayShow(subscriber, rpcId) && (this.routing === undefined || this.routing.maySee(rpcId, subscriber.principal, subscriber.sink?.via));
  }

  /**
   * A quorum approval's approvals changed: everyone who may see its session gets the question
   * again, same rpcId, with its votes (a client that holds it updates the progress it shows).
   */
  votesChanged(entry: PendingQuestion): void {
    let text: string | undefined;
    for (const subscriber of this.#greeted(entry.sessionId)) {
      if (!this.#mayShow(subscriber, entry.rpcId)) continue;
      if (subscriber.sink !== undefined) subscriber.sink.votes?.(entry);
      else subscriber.sendText((text ??= JSON.stringify(requestedFrame(entry))), { checkBuffer: true });
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
    for (const subscriber of this.#greeted(entry.sessionId)) {
      if (subscriber.id === exceptSubscriber || !this.#mayShow(subscriber, entry.rpcId)) continue;
      if (subscriber.sink !== undefined) {
        subscriber.sink.settled(entry, ending);
        continue;
      }
      // Every ending that is not an answer reads as `cancelled` on the wire (protocol 2).
      const outcome = ending.outcome === 'answered' ? 'answered' : 'cancelled';
      // Serialised once, and only when someone is there to read it.
      // An agent's answer says whose it was, so a page can show it; a person's stays as it always was.
      const byAgent = ending.answeredBy?.via === 'agent' ? { answeredBy: { principalId: ending.answeredBy.principalId, via: 'agent' } } : {};
      text ??= JSON.stringify({ type: 'question/resolved', rpcId: entry.rpcId, sessionId: entry.sessionId, outcome, ...byAgent } satisfies QuestionResolvedFrame);
      subscriber.sendText(text, { checkBuffer: true });
    }
    // After the loop: those who were shown it are told it ended; then its timers and agents stop.
    this.routing?.forget(entry.rpcId);
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
    const replay = candidates.filter(
      (entry) => entry.saved && (only === undefined || entry.rpcId === only) && subscriber.canSee(entry.sessionId) && (this.routing?.maySee(entry.rpcId, subscriber.principal, subscriber.sink?.via) ?? true),
    );
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
    ...votesField(entry.votes ?? entry.record.votes),
  };
}

function votesField(votes: readonly Vote[] | undefined): { votes?: QuestionVote[] } {
  const shown = votesForClients(votes);
  return shown === undefined ? {} : { votes: shown };
}
