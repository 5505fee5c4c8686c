// Nothing here imports @opentelemetry/api (an optional peer), not even its types: the package runs,
// and type-checks with skipLibCheck off, in an app that does not have it. The app injects its
// providers; we never read the API's globals, so nothing is recorded (and nothing costs) unless the
// app passes one. The interfaces below are the part of the API askseam calls, written so that the
// API's own TracerProvider and MeterProvider (any SDK's) fit them.
import type { AskUserQuestionItem } from './schemas.js';

/** An attribute value, as OpenTelemetry's `AttributeValue`. */
export type TelemetryAttributeValue = string | number | boolean | Array<null | undefined | string> | Array<null | undefined | number> | Array<null | undefined | boolean>;
/** Span and metric attributes, as OpenTelemetry's `Attributes`. */
export type Attributes = { [key: string]: TelemetryAttributeValue | undefined };

/** The part of OpenTelemetry's `SpanContext` askseam reads. */
export interface TelemetrySpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: { serialize(): string };
}

/** The part of OpenTelemetry's `Span` askseam calls. */
export interface TelemetrySpan {
  spanContext(): TelemetrySpanContext;
  setAttribute(key: string, value: TelemetryAttributeValue): unknown;
  setAttributes(attributes: Attributes): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The part of OpenTelemetry's `TracerProvider` askseam calls (pass the API's or an SDK's). */
export interface TracerProvider {
  getTracer(name: string, version?: string): Tracer;
}

/** The part of OpenTelemetry's `Tracer` askseam calls: `startSpan` parents on the app's active context. */
export interface Tracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes; links?: { context: TelemetrySpanContext; attributes?: Attributes }[] }): TelemetrySpan;
}

/** The part of OpenTelemetry's `MeterProvider` askseam calls (pass the API's or an SDK's). */
export interface MeterProvider {
  getMeter(name: string, version?: string): Meter;
}

/** Options of an instrument, as OpenTelemetry's `MetricOptions`. */
export interface TelemetryInstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}

/** The part of OpenTelemetry's `Meter` askseam calls. */
export interface Meter {
  createCounter(name: string, options?: TelemetryInstrumentOptions): { add(value: number, attributes?: Attributes): void };
  createUpDownCounter(name: string, options?: TelemetryInstrumentOptions): { add(value: number, attributes?: Attributes): void };
  createHistogram(name: string, options?: TelemetryInstrumentOptions): { record(value: number, attributes?: Attributes): void };
  /**
   * An asynchronous up-down counter: its callbacks report the current values when the SDK collects.
   * Every OpenTelemetry meter has it; a meter without it gets `askseam.question.pending` as an
   * UpDownCounter added to on every ask and settlement.
   */
  createObservableUpDownCounter?(name: string, options?: TelemetryInstrumentOptions): { addCallback(callback: (result: TelemetryObservableResult) => void): void };
}

/** The part of OpenTelemetry's `ObservableResult` askseam calls. */
export interface TelemetryObservableResult {
  observe(value: number, attributes?: Attributes): void;
}

/**
 * Where askseam records traces and metrics (docs/telemetry.md). Pass the same object to
 * `new UserQuestions({ telemetry })` and `createWebSocketHost({ telemetry })`; with
 * `trace.getTracerProvider()` / `metrics.getMeterProvider()` from your app's `@opentelemetry/api`
 * they record into whatever SDK the app registered.
 */
export interface AskseamTelemetry {
  /** Spans: one per ask (the seam), and an answer span on a node that settles another node's question (the host). */
  tracerProvider?: TracerProvider;
  /** Metrics (the host): pending questions, time to answer, rejected responses, open connections. */
  meterProvider?: MeterProvider;
  /**
   * Put the question texts and the answer on the ask span (`askseam.question.texts`,
   * `askseam.answer`). Off by default: both may be personal data. A sensitive question's typed
   * answer is "[redacted]" even then.
   */
  recordContent?: boolean;
}

/** The W3C trace context of an ask's span, kept with the stored question so another node can link to it. */
export interface AskTraceContext {
  /** `00-<trace id>-<span id>-<flags>`, as the `traceparent` header. */
  traceparent: string;
  /** The `tracestate` header, when the span context has one. */
  tracestate?: string;
}

/** A span event on an ask's span; the names are documented in docs/telemetry.md. */
export type AskSpanEventName = 'askseam.delivered' | 'askseam.escalated' | 'askseam.voted' | 'askseam.rejected' | 'askseam.answered';

/**
 * What the provider may add to the ask's span while it holds the question (the host: its rpcId,
 * each delivery, each rejected response, who answered). Calls after the ask ended do nothing.
 */
export interface AskObservation {
  /** The ask span's trace context, to store with the question (undefined when the span is not sampled). */
  readonly traceContext: AskTraceContext | undefined;
  setAttributes(attributes: Attributes): void;
  addEvent(name: AskSpanEventName, attributes?: Attributes): void;
}

/** Span and attribute names shared by the seam and the host (docs/telemetry.md). */
export const telemetryNames = {
  askSpan: 'askseam.ask',
  answerSpan: 'askseam.answer',
  rpcId: 'askseam.rpc_id',
  sessionId: 'askseam.session.id',
  agentId: 'askseam.agent.id',
  intent: 'askseam.question.intent',
  questionCount: 'askseam.question.count',
  urgency: 'askseam.question.urgency',
  outcome: 'askseam.outcome',
  answeredByPrincipal: 'askseam.answered_by.principal',
  answeredByVia: 'askseam.answered_by.via',
  answeredByUser: 'askseam.answered_by.user',
  rejectionReason: 'askseam.rejection.reason',
  connectionId: 'askseam.connection.id',
  replay: 'askseam.delivery.replay',
  transport: 'askseam.transport',
  channel: 'askseam.channel',
  questionTexts: 'askseam.question.texts',
  answer: 'askseam.answer',
  errorType: 'error.type',
} as const;

/** The intent kind of a batch for attributes: 'question', 'tool-approval', 'plan-review', or 'mixed'. */
export function intentKindOf(questions: readonly AskUserQuestionItem[]): string {
  let kind: string | undefined;
  for (const item of questions) {
    const itemKind = item.intent?.kind ?? 'question';
    if (kind !== undefined && kind !== itemKind) return 'mixed';
    kind = itemKind;
  }
  return kind ?? 'question';
}

/**
 * `traceparent` of a span context (W3C Trace Context, version 00), and its `tracestate`. Frozen: it
 * goes into the stored record, and a store that keeps records in memory shares what cannot change.
 */
export function traceContextOf(span: TelemetrySpan): AskTraceContext | undefined {
  const context = span.spanContext();
  // The API's invalid (all-zero) context: a no-op tracer's span, with nothing to link to.
  if (/^0+$/.test(context.traceId)) return undefined;
  const flags = (context.traceFlags & 0xff).toString(16).padStart(2, '0');
  const traceparent = `00-${context.traceId}-${context.spanId}-${flags}`;
  const tracestate = context.traceState?.serialize();
  return Object.freeze(tracestate ? { traceparent, tracestate } : { traceparent });
}

const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The span context a stored `traceparent` names, for a link; undefined for anything else. */
export function spanContextOf(traceContext: AskTraceContext): { traceId: string; spanId: string; traceFlags: number; isRemote: true } | undefined {
  const match = traceparentPattern.exec(traceContext.traceparent);
  if (match === null) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16), isRemote: true };
}

// A symbol on the provider's request, not a request field: callers cannot forge an observation,
// and the provider interface is unchanged for providers that never look.
const observationKey = Symbol.for('askseam.askObservation');

/** The observation of the ask this request belongs to, when the seam records a span for it. */
export function askObservationOf(request: object): AskObservation | undefined {
  return (request as Record<symbol, AskObservation | undefined>)[observationKey];
}

/**
 * A copy of `request` with `key` set to `value`, carrying `observation` (not enumerable: copies of
 * the copy drop it, and logging it does not show the span). The literal begins with the symbol and
 * the property is then made non-enumerable: adding any property to the fresh clone a spread makes
 * (`Object.defineProperty({ ...request }, …)`) takes V8's slow path, about 3 µs a call where this
 * takes 0.3 µs (docs/performance.md, section 1b). A symbol the caller put on `request` is replaced.
 */
export function observedRequest<T extends object, K extends keyof T>(request: T, key: K, value: T[K], observation: AskObservation): T {
  const copy = { [observationKey]: observation, ...request, [key]: value };
  Object.defineProperty(copy, observationKey, { value: observation, enumerable: false });
  return copy;
}
