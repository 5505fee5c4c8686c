// Section 1b: the cost of OpenTelemetry on the ask round trip. The same stack twice in one
// process, alternating A/B: once with a recording tracer and meter provider (every span sampled,
// batched to an exporter that drops them, metrics aggregated), once with no providers at all. More
// variants in the same alternation take the cost apart: providers that record nothing (askseam's
// own work), the OpenTelemetry SDK calls one ask makes on the same providers alone in a loop, and
// the same calls made around a round trip of the stack without providers (the SDK's cost in place,
// the floor for any integration that makes these calls). The same A/B on a host with the SQLite
// store shows what the recording costs next to a durable round trip: about the same microseconds,
// a smaller share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startAskseam } from '../lib/askseam.mjs';
import { figure } from '../lib/figure.mjs';
import { interleave, now, quantile } from '../lib/stats.mjs';

const SECTION = 'telemetry';

/**
 * Providers that record nothing: spans with a valid context (so the host stores a trace context
 * and links as with a real SDK) and instruments that drop every value. A stack on them costs
 * exactly askseam's own telemetry work, with no SDK under it.
 */
const inertSpan = {
  spanContext: () => ({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 }),
  setAttribute: () => inertSpan,
  setAttributes: () => inertSpan,
  addEvent: () => inertSpan,
  setStatus: () => inertSpan,
  end: () => {},
};
const inertInstrument = { add: () => {}, record: () => {} };
const inertObservable = { addCallback: () => {} };
const inertProviders = {
  tracerProvider: { getTracer: () => ({ startSpan: () => inertSpan }) },
  meterProvider: {
    getMeter: () => ({ createCounter: () => inertInstrument, createUpDownCounter: () => inertInstrument, createHistogram: () => inertInstrument, createObservableUpDownCounter: () => inertObservable }),
  },
};

/** An exporter that takes every batch and keeps nothing: the cost measured is askseam's and the SDK's, not a network's. */
const droppingExporter = {
  exported: 0,
  export(spans, done) {
    this.exported += spans.length;
    done({ code: 0 });
  },
  shutdown: async () => {},
};

/**
 * One ask's OpenTelemetry calls, as askseam makes them on a blocking ask answered through a socket
 * (docs/telemetry.md): the ask span with its attributes, the rpcId, one delivery and one answer
 * event, who answered, the outcome; the time to answer. The pending count is askseam's own number,
 * read by the SDK only when it collects (no call per ask). `begin` starts one ask's span; the
 * returned steps make the calls of the delivery and of the answer.
 */
function sdkCallsOfOneAsk(tracerProvider, meterProvider) {
  const tracer = tracerProvider.getTracer('bench-sdk-alone');
  const meter = meterProvider.getMeter('bench-sdk-alone');
  const duration = meter.createHistogram('bench.question.duration', { unit: 's' });
  return function begin(index) {
    const span = tracer.startSpan('askseam.ask', { kind: 0, attributes: { 'askseam.agent.id': 'agent-0001', 'askseam.session.id': 'agent-0001', 'askseam.question.count': 3 } });
    span.setAttribute('askseam.question.intent', 'question');
    span.setAttributes({ 'askseam.rpc_id': `rpc-${index}`, 'askseam.session.id': 'agent-0001' });
    return {
      delivered() {
        span.addEvent('askseam.delivered', { 'askseam.connection.id': 'c1', 'askseam.delivery.replay': false });
      },
      answered() {
        const who = { 'askseam.answered_by.principal': 'bench', 'askseam.answered_by.via': 'websocket' };
        duration.record(0.001, { 'askseam.outcome': 'answered', 'askseam.question.intent': 'question', 'askseam.channel': 'websocket' });
        span.setAttributes(who);
        span.addEvent('askseam.answered', { 'askseam.outcome': 'answered', ...who });
        span.setAttribute('askseam.outcome', 'answered');
        span.end();
      },
    };
  };
}

export async function run(config) {
  const { warmup, rounds, perRound } = config.telemetry;
  // What an app's SDK set-up installs; on for both sides, so it is not what the ratio measures.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(droppingExporter)] });
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 60_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const traced = await startAskseam({ telemetry: { tracerProvider, meterProvider } });
  const plain = await startAskseam();
  const inert = await startAskseam({ telemetry: inertProviders });
  // The same A/B on the SQLite store (WAL, synchronous=FULL: each ask and each answer is on disk
  // before it is acknowledged), one file per stack in a fresh directory, removed at the end.
  const dir = mkdtempSync(join(tmpdir(), 'askseam-bench-telemetry-'));
  const tracedStore = new SqliteQuestionStore(join(dir, 'traced.sqlite'));
  const plainStore = new SqliteQuestionStore(join(dir, 'plain.sqlite'));
  const tracedSqlite = await startAskseam({ telemetry: { tracerProvider, meterProvider }, store: tracedStore });
  const plainSqlite = await startAskseam({ store: plainStore });
  // A second stack without providers on a file of its own: an A/A pair whose ratio is the noise
  // of this comparison (fsync times swing by milliseconds on a shared disk).
  const againStore = new SqliteQuestionStore(join(dir, 'plain-again.sqlite'));
  const againSqlite = await startAskseam({ store: againStore });
  const begin = sdkCallsOfOneAsk(tracerProvider, meterProvider);
  let asked = 0;
  // The calls alone, the awaits standing where the real ask waits (the span lives across turns of the event loop).
  const sdkAlone = async (count) => {
    const samples = [];
    for (let i = 0; i < count; i++) {
      const start = now();
      const ask = begin(asked++);
      await Promise.resolve();
      ask.delivered();
      await Promise.resolve();
      ask.answered();
      samples.push(now() - start);
    }
    return samples;
  };
  // The same calls around a round trip of the stack without providers: what they cost in place.
  const plainWithSdkCalls = async (count) => {
    const samples = [];
    for (let i = 0; i < count; i++) {
      const start = now();
      const ask = begin(asked++);
      const answered = plain.roundTrip();
      ask.delivered();
      await answered;
      ask.answered();
      samples.push(now() - start);
    }
    return samples;
  };
  try {
    const samples = await interleave(
      [
        { name: 'traced', run: (count) => traced.latencies(count) },
        { name: 'plain', run: (count) => plain.latencies(count) },
        { name: 'inert', run: (count) => inert.latencies(count) },
        { name: 'sdk', run: sdkAlone },
        { name: 'plainWithSdk', run: plainWithSdkCalls },
        { name: 'tracedSqlite', run: (count) => tracedSqlite.latencies(count) },
        { name: 'plainSqlite', run: (count) => plainSqlite.latencies(count) },
        { name: 'againSqlite', run: (count) => againSqlite.latencies(count) },
      ],
      { warmup, rounds, perRound },
    );
    await tracerProvider.forceFlush();
    const n = samples.traced.length;
    const nSqlite = samples.tracedSqlite.length;
    if (droppingExporter.exported < n + nSqlite) throw new Error(`expected at least ${n + nSqlite} spans exported, got ${droppingExporter.exported}`);
    const plainP50 = quantile(samples.plain, 0.5);
    const sdkP50 = quantile(samples.sdk, 0.5);
    const tracedP50 = quantile(samples.traced, 0.5);
    const plainSqliteP50 = quantile(samples.plainSqlite, 0.5);
    const tracedSqliteP50 = quantile(samples.tracedSqlite, 0.5);
    // What the recording adds, in µs: the difference of the medians, against the round trip without
    // providers on the same store (the ratio column is then the share of that round trip).
    const added = (store, traced, plain) =>
      figure({
        section: SECTION,
        name: `what a recording provider adds to the round trip p50, ${store} (difference of the medians; ratio: its share of the round trip)`,
        value: (traced - plain) * 1000,
        unit: 'µs',
        baseline: { name: `the round trip without providers, ${store}`, value: plain * 1000 },
      });
    return [
      figure({
        section: SECTION,
        name: `round trip p50 with a recording tracer and meter provider (n=${n})`,
        value: tracedP50,
        unit: 'ms',
        baseline: { name: 'the same stack without providers', value: plainP50 },
        target: { on: 'ratio', op: '<=', value: 1.1, text: '<= 1.10× without (under 10 %)' },
        note: `Every ask is one sampled askseam.ask span with its events (batched to an exporter that drops them: ${droppingExporter.exported} spans), the time to answer recorded and the pending count kept; the AsyncLocalStorage context manager is on for every row.`,
      }),
      figure({
        section: SECTION,
        name: `the OpenTelemetry SDK alone: one ask's span and metric calls, p50 (n=${samples.sdk.length})`,
        value: sdkP50,
        unit: 'ms',
        baseline: { name: 'the round trip without providers', value: plainP50 },
        note: 'The calls askseam makes for one ask (a span with its attributes, a delivery and an answer event, the outcome; the time to answer), made directly on the same providers, interleaved with the round trips, in a loop where they stay in the CPU\'s caches.',
      }),
      figure({
        section: SECTION,
        name: `the round trip without providers, with one ask's SDK calls made around it, p50 (n=${samples.plainWithSdk.length})`,
        value: quantile(samples.plainWithSdk, 0.5),
        unit: 'ms',
        baseline: { name: 'the same stack without providers', value: plainP50 },
        note: 'The same SDK calls, made by the bench around each round trip of the stack without providers: what the SDK itself costs in place (with the round trip\'s code and data in the caches, and its garbage), so the floor under the recording row for these calls; the recording row\'s excess over it is askseam\'s own work.',
      }),
      figure({
        section: SECTION,
        name: `round trip p50 with providers that record nothing: askseam's own telemetry work (n=${samples.inert.length})`,
        value: quantile(samples.inert, 0.5),
        unit: 'ms',
        baseline: { name: 'the same stack without providers', value: plainP50 },
        target: { on: 'ratio', op: '<=', value: 1.1, text: '<= 1.10× without' },
        note: 'Spans with a valid context (the trace context is stored and linked) and instruments that drop every value: everything askseam does for telemetry, with no SDK under it.',
      }),
      figure({
        section: SECTION,
        name: `round trip p99 with a recording provider (n=${n})`,
        value: quantile(samples.traced, 0.99),
        unit: 'ms',
        baseline: { name: 'the same stack without providers, p99', value: quantile(samples.plain, 0.99) },
      }),
      figure({
        section: SECTION,
        name: `round trip on SQLite, recording vs none, p50 (n=${nSqlite})`,
        value: tracedSqliteP50,
        unit: 'ms',
        baseline: { name: 'the same stack on SQLite without providers', value: plainSqliteP50 },
        note: 'The same A/B on a host with the SQLite store (a file per stack in a fresh temporary directory; WAL, synchronous=FULL, so each ask and each answer is on disk before it is acknowledged), in the same alternation as the rows above, on the same providers and context manager. The target stays on the in-memory rows, where telemetry is the largest share of the round trip.',
      }),
      figure({
        section: SECTION,
        name: `round trip on SQLite, recording vs none, p99 (n=${nSqlite})`,
        value: quantile(samples.tracedSqlite, 0.99),
        unit: 'ms',
        baseline: { name: 'the same stack on SQLite without providers, p99', value: quantile(samples.plainSqlite, 0.99) },
      }),
      figure({
        section: SECTION,
        name: `round trip on SQLite without providers, a second stack vs the first (A/A: the noise of the SQLite rows), p50 (n=${samples.againSqlite.length})`,
        value: quantile(samples.againSqlite, 0.5),
        unit: 'ms',
        baseline: { name: 'the same stack on SQLite without providers', value: plainSqliteP50 },
        note: 'Two identical stacks without providers, each on its own SQLite file, in the same alternation: how far apart two medians of the same code on this disk fall in this run. A recording-vs-none ratio within this distance of 1.00× is not told apart from noise.',
      }),
      added('in memory', tracedP50, plainP50),
      added('on SQLite', tracedSqliteP50, plainSqliteP50),
    ];
  } finally {
    await traced.close();
    await plain.close();
    await inert.close();
    await tracedSqlite.close();
    await plainSqlite.close();
    await againSqlite.close();
    await tracedStore.close();
    await plainStore.close();
    await againStore.close();
    rmSync(dir, { recursive: true, force: true });
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    context.disable();
  }
}
