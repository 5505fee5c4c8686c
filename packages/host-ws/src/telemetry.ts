// Nothing here imports @opentelemetry/api (an optional peer): the host runs without it installed,
// and records nothing (and builds no attributes) unless the app passes a provider. The provider
// interfaces are the seam's (the part of the API askseam calls).
import type { AnsweredBy, QuestionRecord } from '@askseam/store';
import {
  approvalDecisionOf,
  intentKindOf,
  spanContextOf,
  telemetryNames as names,
  type AskObservation,
  type AskseamTelemetry,
  type TelemetryAttributes as Attributes,
  type TelemetryMeter,
  type TelemetryTracer as Tracer,
} from '@askseam/user-questions';
import { quorumOf } from './quorum.js';
import { answeredByOf, type HostFact, type Responder } from './reporter.js';

/** How a connection or stream reached the host, for `askseam.connection.active`: an in-process channel (`host.openChannel`) is one too. */
export type Transport = 'websocket' | 'sse' | 'channel';

/** The metric names of docs/telemetry.md. */
export const metricNames = {
  pending: 'askseam.question.pending',
  duration: 'askseam.question.duration',
  rejected: 'askseam.response.rejected',
  connections: 'askseam.connection.active',
  escalations: 'askseam.question.escalations',
  votes: 'askseam.vote.count',
} as const;

/** The host's own attribute names for routing and quorum (docs/telemetry.md). */
const hostNames = {
  escalationTier: 'askseam.escalation.tier',
  escalationReason: 'askseam.escalation.reason',
  voteDecision: 'askseam.vote.decision',
  voteApprovals: 'askseam.vote.approvals',
  voteNeeded: 'askseam.vote.needed',
} as const;

// The API's enum value, written out: importing the enum would load @opentelemetry/api at run time.
const spanKindInternal = 0;

/**
 * Bucket boundaries (seconds) for time to answer: people take seconds to hours, not the
 * milliseconds the SDK's default boundaries are made for.
 */
const durationBoundaries = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14_400, 43_200, 86_400];

interface Instruments {
  pending: PendingCounts;
  duration: ReturnType<TelemetryMeter['createHistogram']>;
  rejected: ReturnType<TelemetryMeter['createCounter']>;
  connections: ReturnType<TelemetryMeter['createUpDownCounter']>;
  escalations: ReturnType<TelemetryMeter['createCounter']>;
  votes: ReturnType<TelemetryMeter['createCounter']>;
}

/**
 * The host's side of telemetry: it adds to each ask's span (its rpcId, deliveries, rejected
 * responses, who answered), records the answer span on a node that settles another node's
 * question (linked to the ask's span through the stored trace context), and keeps the metrics.
 * Fed by the reporter's facts, so it sees exactly what `onEvent` and the event log see.
 */
export class HostTelemetry {
  readonly #tracer: Tracer | undefined;
  readonly #recordContent: boolean;
  readonly #instruments: Instruments | undefined;
  /** The seam's span of each blocking ask asked here and not yet settled, by rpcId. */
  readonly #observations = new Map<string, AskObservation>();
  /** Each question asked here and still pending: when, and the count it is in (the -1 must match the +1). */
  readonly #counted = new Map<string, { askedAt: string; intent: string; count: PendingCount | undefined }>();

  /** Undefined without a tracer or meter provider: then the host never calls in here. */
  static create(options: AskseamTelemetry | undefined): HostTelemetry | undefined {
    if (options?.tracerProvider === undefined && options?.meterProvider === undefined) return undefined;
    return new HostTelemetry(options);
  }

  private constructor(options: AskseamTelemetry) {
    this.#tracer = options.tracerProvider?.getTracer('@askseam/host-ws');
    this.#recordContent = options.recordContent === true;
    const meter = options.meterProvider?.getMeter('@askseam/host-ws');
    this.#instruments =
      meter === undefined
        ? undefined
        : {
            pending: pendingCountsOf(meter),
            duration: meter.createHistogram(metricNames.duration, {
              unit: 's',
              description: 'Time from the ask to its settlement (answered, dismissed, withdrawn or timed out).',
              advice: { explicitBucketBoundaries: durationBoundaries },
            }),
            rejected: meter.createCounter(metricNames.rejected, { unit: '{response}', description: 'Responses the host refused, by reason.' }),
            connections: meter.createUpDownCounter(metricNames.connections, { unit: '{connection}', description: 'Open WebSocket connections and event streams, by transport.' }),
            escalations: meter.createCounter(metricNames.escalations, { unit: '{escalation}', description: 'Routed questions that reached their next tier, by tier and reason.' }),
            votes: meter.createCounter(metricNames.votes, { unit: '{vote}', description: 'Approvals counted towards a quorum.' }),
          };
  }

  /** A blocking ask got its rpcId: name it on the seam's span, which the record's traceContext points at. */
  observe(rpcId: string, sessionId: string, observation: AskObservation | undefined): void {
    if (observation === undefined) return;
    observation.setAttributes({ [names.rpcId]: rpcId, [names.sessionId]: sessionId });
    this.#observations.set(rpcId, observation);
  }

  /** One fact the reporter reports (every one of them passes here once). */
  onFact(fact: HostFact): void {
    switch (fact.kind) {
      case 'asked': {
        const intent = intentKindOf(fact.record.questions);
        const pending = this.#instruments?.pending;
        const count = pending?.count(fact.record.askedBy, intent);
        if (count !== undefined) pending!.add(count, 1);
        this.#counted.set(fact.record.rpcId, { askedAt: fact.record.askedAt, intent, count });
        return;
      }
      case 'delivered':
        this.#observations.get(fact.rpcId)?.addEvent('askseam.delivered', { [names.connectionId]: fact.connectionId, [names.replay]: fact.replay });
        return;
      case 'rejected':
        this.#instruments?.rejected.add(1, { [names.rejectionReason]: fact.reason, [names.channel]: fact.by.channel });
        // The rpcId is the sender's, unchecked: a lookup, never a key that is kept.
        this.#observations.get(fact.rpcId)?.addEvent('askseam.rejected', { [names.rejectionReason]: fact.reason, [names.channel]: fact.by.channel });
        return;
      case 'escalated': {
        const intent = this.#counted.get(fact.rpcId)?.intent;
        const tier = { [hostNames.escalationTier]: fact.tier, [hostNames.escalationReason]: fact.reason };
        this.#instruments?.escalations.add(1, { ...tier, ...(intent === undefined ? {} : { [names.intent]: intent }) });
        this.#observations.get(fact.rpcId)?.addEvent('askseam.escalated', tier);
        return;
      }
      case 'voted':
        this.#vote(fact.record.rpcId, fact.approvals, fact.needed, answeredByOf(fact.by));
        return;
      case 'answered':
        // The approval that completed a quorum is a vote too (the store counted it; no `voted` fact is reported for it).
        this.#completingVote(fact.record, fact.by);
        this.#settledHere(fact.record, fact.kind, fact.by);
        return;
      case 'cancelled':
        this.#settledHere(fact.record, fact.kind, fact.by);
        return;
      case 'aborted':
        // A host that closes is not an answer time; a withdrawn or timed-out ask is.
        if (fact.by === 'signal') this.#recordDuration(fact.rpcId, fact.timedOut ? 'timed_out' : 'aborted', undefined, undefined);
        this.#leave(fact.rpcId);
        return;
      case 'withdrawn':
        // An operator ended it (settled `aborted` in the store): like an asker giving up, an answer time.
        this.#recordDuration(fact.rpcId, 'aborted', undefined, undefined);
        this.#leave(fact.rpcId);
        return;
      case 'connected':
        this.#instruments?.connections.add(1, { [names.transport]: fact.transport });
        return;
      case 'disconnected':
        this.#instruments?.connections.add(-1, { [names.transport]: fact.transport });
        return;
      default:
        return;
    }
  }

  /** The host closed: what it still counted leaves the pending count (a meter may outlive the host). */
  closed(): void {
    for (const rpcId of [...this.#counted.keys()]) this.#leave(rpcId);
  }

  /** A question whose save failed: it was never pending anywhere, so it leaves the count with no answer time. */
  unsaved(rpcId: string): void {
    this.#leave(rpcId);
  }

  /**
   * A question asked here was settled by another node (its news came over the bus): the ask's
   * span learns who answered, and the question leaves this node's pending count.
   */
  settledElsewhere(record: QuestionRecord): void {
    const observation = this.#observations.get(record.rpcId);
    if (observation !== undefined && (record.outcome === 'answered' || record.outcome === 'cancelled')) {
      const who = record.answeredBy === undefined ? {} : this.#who(record.answeredBy);
      observation.setAttributes(who);
      observation.addEvent('askseam.answered', { [names.outcome]: record.outcome, ...who });
    }
    this.#leave(record.rpcId);
  }

  /** A person's response settled a question on this node. */
  #settledHere(record: QuestionRecord, outcome: 'answered' | 'cancelled', by: Responder): void {
    const who = this.#who(record.answeredBy ?? answeredByOf(by));
    this.#recordDuration(record.rpcId, outcome, record, by.channel);
    const observation = this.#observations.get(record.rpcId);
    if (observation !== undefined) {
      observation.setAttributes(who);
      observation.addEvent('askseam.answered', { [names.outcome]: outcome, ...who });
    } else if (this.#tracer !== undefined && record.traceContext !== undefined) {
      // Asked on another node (or before a restart): this node's own span, linked to the ask's.
      const context = spanContextOf(record.traceContext);
      const span = this.#tracer.startSpan(names.answerSpan, {
        kind: spanKindInternal,
        ...(context === undefined ? {} : { links: [{ context }] }),
        attributes: {
          [names.rpcId]: record.rpcId,
          [names.sessionId]: record.sessionId,
          [names.agentId]: record.askedBy,
          [names.intent]: intentKindOf(record.questions),
          [names.questionCount]: record.questions.length,
          ...(record.urgency === undefined ? {} : { [names.urgency]: record.urgency }),
          [names.outcome]: outcome,
          ...who,
        },
      });
      span.end();
    }
    this.#leave(record.rpcId);
  }

  /** One counted approval: the votes counter, and an `askseam.voted` event on the ask's span. */
  #vote(rpcId: string, approvals: number, needed: number, by: AnsweredBy): void {
    this.#instruments?.votes.add(1, { [hostNames.voteDecision]: 'approve' });
    this.#observations.get(rpcId)?.addEvent('askseam.voted', { [hostNames.voteApprovals]: approvals, [hostNames.voteNeeded]: needed, ...this.#who(by) });
  }

  /** A quorum question settled approved on this node: the last vote (the one that completed it) is counted here. */
  #completingVote(record: QuestionRecord, by: Responder): void {
    // Only a quorum question has votes: most answers stop at the first test.
    const votes = record.votes;
    if (votes === undefined || record.answer === undefined) return;
    const quorum = quorumOf(record.questions);
    if (quorum === undefined || votes.length < quorum.approvals) return;
    if (!approvalDecisionOf(record.questions, record.answer).approved) return;
    this.#vote(record.rpcId, votes.length, quorum.approvals, answeredByOf(by));
  }

  /**
   * Who answered, as attributes: the principal and how it came in. The channel's own name for the
   * person (an e-mail address, a chat user id) is personal data: only with `recordContent`.
   */
  #who(answeredBy: AnsweredBy): Attributes {
    const who: Attributes = { [names.answeredByPrincipal]: answeredBy.principalId, [names.answeredByVia]: answeredBy.via };
    if (this.#recordContent && answeredBy.user !== undefined) who[names.answeredByUser] = answeredBy.user;
    return who;
  }

  #recordDuration(rpcId: string, outcome: string, record: QuestionRecord | undefined, channel: string | undefined): void {
    const instruments = this.#instruments;
    if (instruments === undefined) return;
    // A question asked here carries its intent in its counted entry; one from elsewhere in its record.
    const counted = this.#counted.get(rpcId);
    const intent = counted?.intent ?? (record === undefined ? undefined : intentKindOf(record.questions));
    const askedAt = record?.askedAt ?? counted?.askedAt;
    if (askedAt === undefined) return;
    const seconds = Math.max(0, (Date.now() - Date.parse(askedAt)) / 1000);
    // Stored one by one, not spread in: three small objects fewer a question.
    const attributes: Attributes = { [names.outcome]: outcome };
    if (intent !== undefined) attributes[names.intent] = intent;
    if (channel !== undefined) attributes[names.channel] = channel;
    instruments.duration.record(seconds, attributes);
  }

  #leave(rpcId: string): void {
    this.#observations.delete(rpcId);
    const counted = this.#counted.get(rpcId);
    if (counted === undefined) return;
    this.#counted.delete(rpcId);
    if (counted.count !== undefined) this.#instruments!.pending.add(counted.count, -1);
  }
}

/** How many questions asked with one agent and intent are pending now. */
interface PendingCount {
  readonly attributes: Attributes;
  value: number;
}

/**
 * `askseam.question.pending`, kept by the host and reported when the SDK collects (an observable
 * up-down counter): an ask and its settlement change a number here instead of calling the SDK,
 * which hashes the attributes and updates its aggregation on every add (two calls an ask, about
 * 3 µs of a 170 µs round trip; docs/performance.md, section 1b). The points are the ones an
 * UpDownCounter would have: one per agent and intent ever counted, 0 once none is pending. A meter
 * without observable instruments gets that UpDownCounter.
 */
class PendingCounts {
  readonly #counts = new Map<string, PendingCount>();
  readonly #counter: { add(value: number, attributes?: Attributes): void } | undefined;

  constructor(meter: TelemetryMeter) {
    const options = { unit: '{question}', description: 'Questions asked on this node and waiting for an answer.' };
    if (typeof meter.createObservableUpDownCounter !== 'function') {
      this.#counter = meter.createUpDownCounter(metricNames.pending, options);
      return;
    }
    meter.createObservableUpDownCounter(metricNames.pending, options).addCallback((result) => {
      for (const count of this.#counts.values()) result.observe(count.value, count.attributes);
    });
  }

  /** The count of questions asked by `agentId` with `intent`, made (with its attributes) the first time. */
  count(agentId: string, intent: string): PendingCount {
    const key = `${agentId}\u0000${intent}`;
    let count = this.#counts.get(key);
    if (count === undefined) {
      count = { attributes: { [names.agentId]: agentId, [names.intent]: intent }, value: 0 };
      this.#counts.set(key, count);
    }
    return count;
  }

  add(count: PendingCount, delta: 1 | -1): void {
    count.value += delta;
    this.#counter?.add(delta, count.attributes);
  }
}

/**
 * One PendingCounts per meter: hosts that share a meter provider (several in one process) add up
 * into one instrument, as their adds to one UpDownCounter would, rather than each reporting the
 * same attribute sets in turn (where the last callback's value would win).
 */
const pendingCountsByMeter = new WeakMap<TelemetryMeter, PendingCounts>();

function pendingCountsOf(meter: TelemetryMeter): PendingCounts {
  let counts = pendingCountsByMeter.get(meter);
  if (counts === undefined) {
    counts = new PendingCounts(meter);
    pendingCountsByMeter.set(meter, counts);
  }
  return counts;
}
