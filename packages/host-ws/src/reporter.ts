import type { ReceiptRejectionReason } from '@askseam/protocol';
import type { AnsweredBy, NewQuestionEvent, QuestionRecord, QuestionStore } from '@askseam/store';
import { redactSensitiveAnswers, type AskUserQuestionAnswer } from '@askseam/user-questions';
import { EventLog } from './event-log.js';
import { eventEmitter, type HostEvent, type ResponseChannel } from './events.js';
import type { HostLogger } from './logger.js';
import type { HostTelemetry, Transport } from './telemetry.js';

/**
 * One thing that happened, in the host's one vocabulary. The reporter turns each fact into what
 * each audience reads: the `onEvent` hook (public `HostEvent` types), the logger, and the store's
 * event log (persisted types). Both outside vocabularies are fixed (public API and stored data), so
 * they are derived here, in one table (`outputs`), and nowhere else (docs/durability.md, "One fact,
 * three outputs").
 */
export type HostFact =
  /** A question is pending (listed, about to be saved). */
  | { kind: 'asked'; record: QuestionRecord }
  /** The store has the question; it is about to be delivered. */
  | { kind: 'saved'; record: QuestionRecord }
  /** `via`: an in-process channel's name; absent for the socket and the event stream. */
  | { kind: 'delivered'; rpcId: string; sessionId: string; connectionId: string; replay: boolean; via?: string }
  | { kind: 'answered'; record: QuestionRecord; answer: AskUserQuestionAnswer; by: Responder }
  | { kind: 'cancelled'; record: QuestionRecord; message?: string; by: Responder }
  /** One approval of a quorum approval counted by the store; the question still waits for `needed`. */
  | { kind: 'voted'; record: QuestionRecord; by: Responder; approvals: number; needed: number }
  /** The asker gave up (`signal`; `timedOut` when the seam's deadline fired it) or the host closed. */
  | { kind: 'aborted'; rpcId: string; sessionId: string; by: 'signal' | 'host-close'; timedOut: boolean }
  /** An operator withdrew the question (`host.withdraw`, the console): settled `aborted`, the asker rejected `ASK_ABORTED`. */
  | { kind: 'withdrawn'; rpcId: string; sessionId: string; principalId: string; reason?: string }
  /** `sessionId` is known only for a question the store has; without it nothing is written to the event log. */
  | { kind: 'rejected'; rpcId: string; sessionId?: string; reason: ReceiptRejectionReason; detail?: string; by: Responder }
  | { kind: 'quarantined'; rpcId: string; sessionId?: string; reason: string }
  /** A routed question reached a later tier (routing.ts). */
  | { kind: 'escalated'; rpcId: string; sessionId: string; tier: number; reason: 'after' | 'fall-through'; answerers: string[] }
  | { kind: 'connected'; connectionId: string; principalId: string; transport: Transport }
  | { kind: 'disconnected'; connectionId: string; principalId: string; code: number; reason: string; transport: Transport }
  | { kind: 'auth-failed'; status: 401 | 403; reason: string; remoteAddress?: string };

export type HostFactKind = HostFact['kind'];

/** Who sent a response, and how it came in. */
export interface Responder {
  principalId: string;
  connectionId: string;
  channel: ResponseChannel;
  /** An in-process channel's name for the person (a Slack user id, an e-mail address). */
  user?: string;
  /** Where that channel showed the question (`slack:C0123`). */
  destination?: string;
}

/** A responder as the settled record and its audit event keep it. */
export function answeredByOf(by: Responder): AnsweredBy {
  return { principalId: by.principalId, via: by.channel, ...optional('user', by.user), ...optional('destination', by.destination) };
}

/** The channel's own names for the person and the place, when it gave them. */
const personOf = (by: Responder): { user?: string; destination?: string } => ({ ...optional('user', by.user), ...optional('destination', by.destination) });

type LoggerLine = [level: keyof HostLogger, message: string, fields: Record<string, unknown>];

interface Outputs<F> {
  event?: (fact: F) => HostEvent;
  line?: (fact: F) => LoggerLine | undefined;
  log?: (fact: F) => NewQuestionEvent;
}

type OutputTable = { [K in HostFactKind]: Outputs<Extract<HostFact, { kind: K }>> };

const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** The one table: for each fact, its `onEvent` event, its logger line and its event-log entry (when it has them). */
const outputs: OutputTable = {
  asked: {
    event: ({ record: { rpcId, sessionId, questions, askedAt } }) => ({ type: 'asked', rpcId, sessionId, questions, askedAt }),
    line: ({ record }) => ['info', 'question asked', { rpcId: record.rpcId, sessionId: record.sessionId, mode: record.mode, count: record.questions.length }],
  },
  saved: {
    log: ({ record: { rpcId, sessionId, askedBy, mode, questions, urgency } }) => ({
      type: 'human_input_requested',
      rpcId,
      sessionId,
      data: { askedBy, mode, questions, ...optional('urgency', urgency) },
    }),
  },
  delivered: {
    event: ({ rpcId, sessionId, connectionId, replay }) => ({ type: 'delivered', rpcId, sessionId, connectionId, replay }),
    log: ({ rpcId, sessionId, connectionId, replay, via }) => ({ type: 'delivered', rpcId, sessionId, data: { channel: via ?? 'websocket', connectionId, replay } }),
  },
  // The asker gets the real answer; the hook and the log get "[redacted]" for a secret (a sensitive question's typed text).
  answered: {
    event: ({ record, answer, by }) => ({
      type: 'answered',
      rpcId: record.rpcId,
      sessionId: record.sessionId,
      connectionId: by.connectionId,
      principalId: by.principalId,
      answer: redactSensitiveAnswers(record.questions, answer),
      channel: by.channel,
      answeredBy: answeredByOf(by),
    }),
    line: ({ record }) => ['info', 'question answered', { rpcId: record.rpcId, sessionId: record.sessionId }],
    log: ({ record, answer, by }) => ({
      type: 'response_from_human',
      rpcId: record.rpcId,
      sessionId: record.sessionId,
      data: { answer: redactSensitiveAnswers(record.questions, answer), principalId: by.principalId, channel: by.channel, ...personOf(by) },
    }),
  },
  cancelled: {
    event: ({ record, by }) => ({
      type: 'cancelled',
      rpcId: record.rpcId,
      sessionId: record.sessionId,
      connectionId: by.connectionId,
      principalId: by.principalId,
      channel: by.channel,
      ...personOf(by),
    }),
    line: ({ record }) => ['info', 'question dismissed by the user', { rpcId: record.rpcId, sessionId: record.sessionId }],
    log: ({ record, message, by }) => ({
      type: 'cancelled',
      rpcId: record.rpcId,
      sessionId: record.sessionId,
      data: { principalId: by.principalId, channel: by.channel, ...personOf(by), ...optional('message', message) },
    }),
  },
  voted: {
    event: ({ record, by, approvals, needed }) => ({
      type: 'voted',
      rpcId: record.rpcId,
      sessionId: record.sessionId,
      connectionId: by.connectionId,
      principalId: by.principalId,
      channel: by.channel,
      ...optional('user', by.user),
      ...optional('destination', by.destination),
      approvals,
      needed,
    }),
    // No log entry here: the store appends `vote_cast` with the vote itself, in one atomic step.
    line: ({ record, approvals, needed }) => ['info', 'approval counted', { rpcId: record.rpcId, sessionId: record.sessionId, approvals, needed }],
  },
  aborted: {
    event: ({ rpcId, sessionId, by, timedOut }) => ({ type: 'aborted', rpcId, sessionId, by, timedOut }),
    line: ({ rpcId, sessionId, by }) => (by === 'signal' ? ['info', 'question aborted by its asker', { rpcId, sessionId }] : undefined),
    // The stored log has always told a timeout from an abort by its type.
    log: ({ rpcId, sessionId, by, timedOut }): NewQuestionEvent =>
      timedOut ? { type: 'timed_out', rpcId, sessionId, data: {} } : { type: 'aborted', rpcId, sessionId, data: { by } },
  },
  withdrawn: {
    event: ({ rpcId, sessionId, principalId, reason }) => ({ type: 'aborted', rpcId, sessionId, by: 'operator', timedOut: false, principalId, ...optional('reason', reason) }),
    line: ({ rpcId, sessionId, principalId }) => ['info', 'question withdrawn by an operator', { rpcId, sessionId, principalId }],
    log: ({ rpcId, sessionId, principalId, reason }) => ({ type: 'aborted', rpcId, sessionId, data: { by: 'operator', principalId, ...optional('reason', reason) } }),
  },
  rejected: {
    // The rpcId is the sender's, unchecked: a real one is 36 characters, a crafted one may be a megabyte.
    event: ({ rpcId, reason, detail, by }) => ({
      type: 'response-rejected',
      rpcId: clipText(rpcId, 200),
      connectionId: by.connectionId,
      principalId: by.principalId,
      reason,
      channel: by.channel,
      ...personOf(by),
      ...optional('detail', detail),
    }),
    line: ({ rpcId, reason, detail, by }) => ['info', 'response rejected', { rpcId: clipText(rpcId, 200), connectionId: by.connectionId, reason, detail }],
    // Only written with a sessionId, which only a question the store has can give: the rpcId is then a real one.
    log: ({ rpcId, sessionId, reason, detail, by }) => ({
      type: 'response_rejected',
      rpcId,
      sessionId: sessionId!,
      data: { reason, principalId: by.principalId, channel: by.channel, ...personOf(by), ...optional('detail', detail) },
    }),
  },
  quarantined: {
    event: ({ rpcId, sessionId, reason }) => ({ type: 'quarantined', rpcId, ...optional('sessionId', sessionId), reason }),
    line: ({ rpcId, sessionId, reason }) => ['warn', 'a stored question cannot be used; it was quarantined (left in the store as it is, and skipped)', { rpcId, sessionId, reason }],
    log: ({ rpcId, sessionId, reason }) => ({ type: 'record_quarantined', rpcId, sessionId: sessionId!, data: { reason } }),
  },
  escalated: {
    event: ({ rpcId, sessionId, tier, reason, answerers }) => ({ type: 'escalated', rpcId, sessionId, tier, reason, answerers }),
    line: ({ rpcId, sessionId, tier, reason }) => ['info', 'question escalated to its next tier', { rpcId, sessionId, tier, reason }],
    log: ({ rpcId, sessionId, tier, reason, answerers }) => ({ type: 'escalated', rpcId, sessionId, data: { tier, reason, answerers } }),
  },
  connected: {
    event: ({ connectionId, principalId }) => ({ type: 'connected', connectionId, principalId }),
    line: ({ connectionId, principalId }) => ['info', 'client connected', { connectionId, principalId }],
  },
  disconnected: {
    event: ({ connectionId, principalId, code, reason }) => ({ type: 'disconnected', connectionId, principalId, code, reason }),
    line: ({ connectionId, code }) => ['info', 'client disconnected', { connectionId, code }],
  },
  'auth-failed': {
    event: ({ status, reason, remoteAddress }) => ({ type: 'auth-failed', status, reason, ...optional('remoteAddress', remoteAddress) }),
    line: ({ status, reason, remoteAddress }) => ['info', 'upgrade refused', { status, reason, remoteAddress }],
  },
};

/**
 * Fans facts out to `onEvent`, the logger and the event log. `report` is the moment a fact
 * happened (`onEvent` and the logger, and the event log when the fact is already durable);
 * `record` writes the event-log entry of a fact whose store write came later (a question once
 * saved, an abort once claimed).
 */
export class Reporter {
  /** Undefined without an `onEvent` hook: then no event is even built (a replay reports every frame). */
  readonly #emit: ((event: HostEvent) => void) | undefined;
  readonly #eventLog: EventLog;

  constructor(
    onEvent: ((event: HostEvent) => void) | undefined,
    readonly logger: HostLogger,
    store: QuestionStore,
    /** Spans and metrics (docs/telemetry.md); undefined when the app passed no provider. */
    readonly telemetry?: HostTelemetry,
  ) {
    this.#emit = onEvent === undefined ? undefined : eventEmitter(onEvent, logger);
    this.#eventLog = new EventLog(store, logger);
  }

  /** Tell `onEvent` and the logger; with `{ log: true }`, the event log too. */
  report(fact: HostFact, { log }: { log: boolean }): void {
    const out = outputs[fact.kind] as Outputs<HostFact>;
    if (this.#emit !== undefined && out.event !== undefined) this.#emit(out.event(fact));
    const line = out.line?.(fact);
    if (line !== undefined) this.logger[line[0]](line[1], line[2]);
    this.telemetry?.onFact(fact);
    if (log) this.record(fact);
  }

  /** Write the fact's event-log entry (facts without a session have none). */
  record(fact: HostFact): void {
    const entry = this.logEntry(fact);
    if (entry !== undefined) this.#eventLog.append(entry);
  }

  /** The fact's event-log entry without writing it: for a store write that stores it itself (`saveWithEvent`). */
  logEntry(fact: HostFact): NewQuestionEvent | undefined {
    const entry = (outputs[fact.kind] as Outputs<HostFact>).log?.(fact);
    return entry !== undefined && entry.sessionId !== undefined ? entry : undefined;
  }

  /** Resolves once every event-log entry so far is written (or failed). */
  drain(): Promise<void> {
    return this.#eventLog.drain();
  }
}

/** At most `max` UTF-16 units of `text`, never half a surrogate pair, with … when cut. */
function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}
