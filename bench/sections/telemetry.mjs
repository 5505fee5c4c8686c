// Section 1b: the cost of OpenTelemetry on the ask round trip. The same stack twice in one
// process, alternating A/B: once with a recording tracer and meter provider (every span sampled,
// batched to an exporter that drops them, metrics aggregated), once with no providers at all.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startAskseam } from '../lib/askseam.mjs';
import { figure } from '../lib/figure.mjs';
import { interleave, quantile } from '../lib/stats.mjs';

const SECTION = 'telemetry';

/** An exporter that takes every batch and keeps nothing: the cost measured is askseam's and the SDK's, not a network's. */
const droppingExporter = {
  exported: 0,
  export(spans, done) {
    this.exported += spans.length;
    done({ code: 0 });
  },
  shutdown: async () => {},
};

export async function run(config) {
  const { warmup, rounds, perRound } = config.telemetry;
  // What an app's SDK set-up installs; on for both sides, so it is not what the ratio measures.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(droppingExporter)] });
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 60_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const traced = await startAskseam({ telemetry: { tracerProvider, meterProvider } });
  const plain = await startAskseam();
  try {
    const samples = await interleave(
      [
        { name: 'traced', run: (count) => traced.latencies(count) },
        { name: 'plain', run: (count) => plain.latencies(count) },
      ],
      { warmup, rounds, perRound },
    );
    await tracerProvider.forceFlush();
    const n = samples.traced.length;
    if (droppingExporter.exported < n) throw new Error(`expected at least ${n} spans exported, got ${droppingExporter.exported}`);
    return [
      figure({
        section: SECTION,
        name: `round trip p50 with a recording tracer and meter provider (n=${n})`,
        value: quantile(samples.traced, 0.5),
        unit: 'ms',
        baseline: { name: 'the same stack without providers', value: quantile(samples.plain, 0.5) },
        target: { on: 'ratio', op: '<=', value: 1.1, text: '<= 1.10× without (under 10 %)' },
        note: `Every ask is one sampled askseam.ask span with its events (batched to an exporter that drops them: ${droppingExporter.exported} spans), and four metrics; the AsyncLocalStorage context manager is on for both rows.`,
      }),
      figure({
        section: SECTION,
        name: `round trip p99 with a recording provider (n=${n})`,
        value: quantile(samples.traced, 0.99),
        unit: 'ms',
        baseline: { name: 'the same stack without providers, p99', value: quantile(samples.plain, 0.99) },
      }),
    ];
  } finally {
    await traced.close();
    await plain.close();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    context.disable();
  }
}
