// A real OpenTelemetry SDK recording into memory: what an app with a tracer and a meter provider
// sees of askseam. The test asserts on the exported spans and metric points.
import type { Attributes } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { AskseamTelemetry } from '@askseam/user-questions';

export interface Recording {
  telemetry: Required<Pick<AskseamTelemetry, 'tracerProvider' | 'meterProvider'>>;
  tracerProvider: BasicTracerProvider;
  /** Every span ended so far, in end order. */
  spans(): ReadableSpan[];
  /** The points of metric `name` now (cumulative), each as its attributes and value; [] when it has none. */
  points(name: string): Promise<{ attributes: Attributes; value: unknown }[]>;
  shutdown(): Promise<void>;
}

export function recording(): Recording {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when the test flushes: an hour is longer than any test.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    telemetry: { tracerProvider, meterProvider },
    tracerProvider,
    spans: () => spanExporter.getFinishedSpans(),
    async points(name) {
      metricExporter.reset();
      await reader.forceFlush();
      const metric = metricExporter
        .getMetrics()
        .at(-1)
        ?.scopeMetrics.flatMap((scope) => scope.metrics)
        .find((found) => found.descriptor.name === name);
      return (metric?.dataPoints ?? []).map((point: DataPoint<unknown>) => ({ attributes: point.attributes, value: valueOf(point.value) }));
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** A sum's number, or a histogram's count (the times depend on the clock; the count does not). */
function valueOf(value: unknown): unknown {
  if (typeof value === 'number') return value;
  const histogram = value as Histogram;
  return { count: histogram.count };
}

/** The one span named `name`; fails when there is not exactly one. */
export function onlySpan(spans: ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one "${name}" span, found ${found.length}: ${spans.map((span) => span.name).join(', ')}`);
  return found[0]!;
}

/** A span's events as names and attributes (their times depend on the clock). */
export function eventsOf(span: ReadableSpan): { name: string; attributes: Attributes | undefined }[] {
  return span.events.map((event) => ({ name: event.name, attributes: event.attributes }));
}
