import type { ReceiptFrame, ServerFrame } from '@askseam/protocol';
import { responseViaSchema, type AnsweredBy, type QuestionOutcome, type QuestionUrgency, type Vote } from '@askseam/store';
import { redactSensitiveAnswers, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import type { EndedQuestion, Ending, Subscriber, SubscriberSink } from './delivery.js';
import { WebSocketHostError } from './errors.js';
import type { HostLogger } from './logger.js';
import type { PendingQuestion, PendingTable } from './pending.js';
import { everySessionPrincipal, exhaustiveSessions, listedSessions, safeCanSee, seesEverything, type Principal } from './principal.js';
import type { Routing } from './routing.js';
import type { TransportCore } from './transport.js';

/** What `host.openChannel` takes (docs/channels.md, "Writing a channel"). */
export interface HostChannelOptions {
  /**
   * The channel's name, kept as `answeredBy.via` of every response sent through it and in the event
   * log: `'slack'`, `'email'`, … A lowercase name of at most 32 letters, digits and dashes.
   */
  via: string;
  /**
   * What the channel may see and answer, decided like a connection's. Default: every session (the
   * channel runs in the app's own process, with the host object in hand).
   */
  principal?: Principal;
  /** Each pending question it may see: every one pending when it opens (in ask order), then each new one once it is saved. */
  onQuestion(question: ChannelQuestion): void;
  /** A question it was shown has ended, wherever and however: answered anywhere, dismissed, withdrawn, timed out. */
  onSettled(settlement: ChannelSettlement): void;
  /**
   * A quorum approval it was shown counted one more approval, wherever it was cast: the question
   * again, with `votes`, so the channel can edit what it posted ("1 of 2 approvals (by @alex)").
   */
  onVotes?(question: ChannelQuestion): void;
  /**
   * With a host `route` (docs/routing.md): a question it was shown reached a later tier that names
   * more destinations of this channel; `question.destinations` lists them all (post to the new ones).
   * A channel that could not see the question before gets `onQuestion` instead.
   */
  onEscalated?(question: ChannelQuestion): void;
}

/** A pending question, as a channel posts it. Tool approvals and plan reviews carry their `intent` on the item. */
export interface ChannelQuestion {
  rpcId: string;
  sessionId: string;
  /** The asking agent's id. */
  askedBy: string;
  askedAt: string;
  questions: AskUserQuestionItem[];
  urgency?: QuestionUrgency;
  /** A quorum approval's approvals so far (`intent.quorum`), in the order they were counted. */
  votes?: AnsweredBy[];
  /**
   * With a host `route`: where this channel should show it, the reached tiers' `{ channel }`
   * answerers of this channel's `via` (`['slack:C0123']`). Empty when the route names none of them
   * (the channel sees it because its principal is an answerer); absent for an unrouted question.
   */
  destinations?: string[];
}

/** How a question a channel was shown ended. */
export interface ChannelSettlement {
  rpcId: string;
  sessionId: string;
  outcome: QuestionOutcome;
  /** Who answered or dismissed it, when a person did and the host knows (a record settled by an older release does not say). */
  answeredBy?: AnsweredBy;
  /** The answer, for `answered`; a sensitive question's typed text reads "[redacted]", as in the event log. */
  answer?: AskUserQuestionAnswer;
}

/** The person behind one response, in the channel's own names. */
export interface ChannelPerson {
  /** The channel's id for the person: a Slack user id, an e-mail address. */
  user?: string;
  /** The app principal the channel mapped the person to; default: the channel's principal. */
  principalId?: string;
  /** Where the channel showed the question: `'slack:C0123'`, `'email:oncall@example.com'`. */
  destination?: string;
}

/** One channel's way into the host: it is told what to show, and answers through the host's own judging. */
export interface HostChannel {
  /**
   * One response, judged exactly like a socket's `question/respond` (the same ordered checks, first
   * answer wins, the same receipts and audit log). `result` is the wire shape:
   * `{ ok: true, value: { sessionId, answer } }` or `{ ok: false, error: { code: 'cancelled', message? } }`.
   * Resolves with the receipt: accepted, or refused with the reason and askseam's own words for it
   * (`detail`). Rejects `CLOSED` once the channel or the host is closed.
   */
  respond(rpcId: string, result: unknown, person?: ChannelPerson): Promise<ReceiptFrame>;
  /** The pending questions it may see now, in ask order. */
  pending(): ChannelQuestion[];
  /** Stop: no more callbacks, and `respond` rejects. Idempotent; `host.close()` closes every channel. */
  close(): void;
}

/** What the host lends a channel: the same parts every transport uses. */
export interface ChannelPortDeps extends TransportCore {
  pending: PendingTable;
  logger: HostLogger;
  /** The host's route, when it has one: what the channel may see, and its reached destinations. */
  routing?: Routing;
}

const personSchema = { user: 512, destination: 512, principalId: 512 } as const;

/**
 * An in-process channel as delivery sees it: a `Subscriber` with a `sink`, so questions and endings
 * reach it as objects (with who asked and who answered) rather than frames. Its responses go to
 * the same judge as a socket's.
 */
export class ChannelPort implements Subscriber, SubscriberSink, HostChannel {
  readonly principalId: string;
  readonly seesEverything: boolean;
  readonly scope: readonly string[] | undefined;
  readonly sink: SubscriberSink = this;
  #closed = false;

  constructor(
    readonly id: string,
    readonly via: string,
    readonly principal: Principal,
    private readonly options: HostChannelOptions,
    private readonly deps: ChannelPortDeps,
    private readonly onClose: (port: ChannelPort) => void,
  ) {
    this.principalId = principal.id;
    this.seesEverything = seesEverything(principal);
    this.scope = this.seesEverything ? undefined : exhaustiveSessions(principal, deps.logger);
  }

  canSee(sessionId: string): boolean {
    return this.seesEverything || safeCanSee(this.principal, sessionId, this.deps.logger);
  }

  sessions(): string[] | undefined {
    return listedSessions(this.principal, this.deps.logger);
  }

  // A channel is handed objects (`sink`), never frames: nothing is ever written as text.
  send(_frame: ServerFrame): boolean {
    return false;
  }

  sendText(): boolean {
    return false;
  }

  replay(): void {}

  batch<T>(work: () => T): T {
    return work();
  }

  question(entry: PendingQuestion): void {
    if (this.#closed) return;
    this.#call('onQuestion', () => this.options.onQuestion(this.#channelQuestion(entry)));
  }

  escalated(entry: PendingQuestion): void {
    if (this.#closed || this.options.onEscalated === undefined) return;
    this.#call('onEscalated', () => this.options.onEscalated?.(this.#channelQuestion(entry)));
  }

  #channelQuestion(entry: PendingQuestion): ChannelQuestion {
    const destinations = this.deps.routing?.destinations(entry.rpcId, this.via);
    return destinations === undefined ? channelQuestion(entry) : { ...channelQuestion(entry), destinations };
  }

  votes(entry: PendingQuestion): void {
    if (this.#closed || this.options.onVotes === undefined) return;
    const onVotes = this.options.onVotes;
    this.#call('onVotes', () => onVotes(this.#channelQuestion(entry)));
  }

  settled(entry: EndedQuestion, ending: Ending): void {
    if (this.#closed) return;
    this.#call('onSettled', () => this.options.onSettled(channelSettlement(entry, ending)));
  }

  async respond(rpcId: string, result: unknown, person: ChannelPerson = {}): Promise<ReceiptFrame> {
    if (this.#closed || this.deps.lifecycle.ended) throw new WebSocketHostError('CLOSED', `The ${this.via} channel is closed; its responses are no longer taken.`);
    const checked = checkPerson(person);
    const principal = checked.principalId === undefined ? this.principal : { ...this.principal, id: checked.principalId };
    const outcome = await this.deps.judge.judge({ rpcId, result }, principal, (sessionId) => this.canSee(sessionId), {
      channel: this.via,
      connectionId: this.id,
      ...(checked.user === undefined ? {} : { user: checked.user }),
      ...(checked.destination === undefined ? {} : { destination: checked.destination }),
    });
    return outcome.receipt;
  }

  pending(): ChannelQuestion[] {
    const candidates = this.scope === undefined ? this.deps.pending.all() : this.deps.pending.ofSessions(this.scope);
    const routing = this.deps.routing;
    return candidates
      .filter((entry) => entry.saved && this.canSee(entry.sessionId) && (routing === undefined || routing.maySee(entry.rpcId, this.principal, this.via)))
      .map((entry) => this.#channelQuestion(entry));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose(this);
  }

  /** A throwing callback is the channel's bug: logged, and never allowed to break delivery to anyone else. */
  #call(name: 'onQuestion' | 'onSettled' | 'onVotes' | 'onEscalated', callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.deps.logger.error(`the ${this.via} channel's ${name} threw; the host carries on`, { error: String(error) });
    }
  }
}

/** `host.openChannel`: a checked channel, added to delivery and shown everything pending it may see. */
export function openChannel(id: string, options: HostChannelOptions, deps: ChannelPortDeps, onClose: (port: ChannelPort) => void): ChannelPort {
  const via = responseViaSchema.safeParse(options?.via);
  if (!via.success) throw new WebSocketHostError('INVALID_OPTIONS', `openChannel: via must be a lowercase name of at most 32 letters, digits and dashes, starting with a letter (like "slack"); got ${JSON.stringify(options?.via)}.`);
  for (const name of ['onQuestion', 'onSettled'] as const) {
    if (typeof options[name] !== 'function') throw new WebSocketHostError('INVALID_OPTIONS', `openChannel: ${name} must be a function.`);
  }
  if (options.onEscalated !== undefined && typeof options.onEscalated !== 'function') throw new WebSocketHostError('INVALID_OPTIONS', 'openChannel: onEscalated, when given, must be a function.');
  if (options.principal !== undefined && (typeof options.principal.id !== 'string' || typeof options.principal.canSee !== 'function')) {
    throw new WebSocketHostError('INVALID_OPTIONS', 'openChannel: principal must be { id: string, canSee(sessionId) }, like one authenticate returns.');
  }
  if (deps.lifecycle.ended) throw new WebSocketHostError('CLOSED', 'openChannel: the host is closed.');
  const principal = options.principal ?? everySessionPrincipal(`channel:${via.data}`);
  const port = new ChannelPort(id, via.data, principal, options, deps, onClose);
  deps.reporter.report({ kind: 'connected', connectionId: id, principalId: principal.id, transport: 'channel' }, { log: false });
  deps.delivery.arrive(port);
  return port;
}

function channelQuestion(entry: PendingQuestion): ChannelQuestion {
  const { record } = entry;
  return {
    rpcId: record.rpcId,
    sessionId: record.sessionId,
    askedBy: record.askedBy,
    askedAt: record.askedAt,
    questions: structuredClone(record.questions),
    ...(record.urgency === undefined ? {} : { urgency: record.urgency }),
    ...channelVotes(entry.votes ?? record.votes),
  };
}

function channelVotes(votes: readonly Vote[] | undefined): { votes?: AnsweredBy[] } {
  return votes === undefined ? {} : { votes: votes.map(({ at: _at, ...voter }) => voter) };
}

function channelSettlement(entry: EndedQuestion, ending: Ending): ChannelSettlement {
  const answer = ending.outcome === 'answered' ? ending.answer : undefined;
  return {
    rpcId: entry.rpcId,
    sessionId: entry.sessionId,
    outcome: ending.outcome,
    ...(ending.answeredBy === undefined ? {} : { answeredBy: { ...ending.answeredBy } }),
    // A channel posts where others read: a secret typed into the page never reaches it.
    // A copy: the asker is handed the same answer object.
    ...(answer === undefined ? {} : { answer: structuredClone(redactSensitiveAnswers(entry.questions, answer)) }),
  };
}

/** The person's names: short strings or absent, so a channel cannot write a megabyte into every audit event. */
function checkPerson(person: ChannelPerson): ChannelPerson {
  if (typeof person !== 'object' || person === null) throw new WebSocketHostError('INVALID_REQUEST', 'respond: person must be an object { user?, principalId?, destination? }.');
  const checked: ChannelPerson = {};
  for (const key of Object.keys(personSchema) as (keyof typeof personSchema)[]) {
    const value = person[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length === 0 || value.length > personSchema[key]) {
      throw new WebSocketHostError('INVALID_REQUEST', `respond: person.${key} must be a non-empty string of at most ${personSchema[key]} characters.`);
    }
    checked[key] = value;
  }
  return checked;
}
