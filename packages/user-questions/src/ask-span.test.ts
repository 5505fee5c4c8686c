// The seam's span with a real SDK (in-memory exporter) and a provider of the test's own: what
// every provider gets (the observation), and how each way an ask ends is recorded.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserQuestionError } from './errors.js';
import type { AskUserQuestionItem } from './schemas.js';
import { askObservationOf, type AskObservation } from './telemetry.js';
import type { AgentRef } from './types.js';
import { UserQuestions } from './user-questions.js';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});

const agent: AgentRef = { id: 'agent-a' };
const agents = { get: (id: string) => (id === agent.id ? agent : undefined), roots: () => [agent] };
const approval: AskUserQuestionItem = {
  id: 'run',
  question: 'Run rm -rf build?',
  options: [{ label: 'Approve' }, { label: 'Deny' }],
  intent: { kind: 'tool-approval', approve: 'Approve', tool: { name: 'shell', input: { command: 'rm -rf build' } } },
};

function traced(recordContent = false) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracerProvider, seam: new UserQuestions({ agents, telemetry: { tracerProvider, recordContent } }) };
}

describe('the ask span of the seam', () => {
  it('hands the provider the span\'s observation, whose trace context names the span, and records its intent and urgency', async () => {
    const { exporter, seam } = traced();
    let seen: AskObservation | undefined;
    seam.registerProvider({
      ask: async (request) => {
        seen = askObservationOf(request);
        seen?.setAttributes({ 'askseam.rpc_id': 'rpc-1' });
        seen?.addEvent('askseam.delivered');
        return { answers: [{ id: 'run', selected: ['Approve'] }] };
      },
    });
    await seam.ask({ agent, questions: [approval], urgency: 'high' });
    const [span] = exporter.getFinishedSpans();
    expect(seen?.traceContext).toEqual({ traceparent: `00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01` });
    expect(span!.attributes).toEqual({
      'askseam.agent.id': 'agent-a',
      'askseam.session.id': 'agent-a',
      'askseam.question.count': 1,
      'askseam.question.urgency': 'high',
      'askseam.question.intent': 'tool-approval',
      'askseam.rpc_id': 'rpc-1',
      'askseam.outcome': 'answered',
    });
    expect(span!.events.map((event) => event.name)).toEqual(['askseam.delivered']);
    // Added after the span ended: nothing changes (and the SDK is not asked to).
    seen?.addEvent('askseam.answered');
    expect(exporter.getFinishedSpans()[0]!.events).toHaveLength(1);
  });

  it('hands over its own observation, hidden from keys, spreads and JSON, with or without a deadline, even when the caller put one on the request', async () => {
    const { exporter, seam } = traced();
    const seen: { observation: AskObservation | undefined; keys: string[]; spread: AskObservation | undefined; json: string }[] = [];
    seam.registerProvider({
      ask: async (request) => {
        seen.push({ observation: askObservationOf(request), keys: Object.keys(request), spread: askObservationOf({ ...request }), json: JSON.stringify(request) });
        return { answers: [{ id: 'run', selected: ['Approve'] }] };
      },
    });
    const forged: AskObservation = { traceContext: { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` }, setAttributes: () => {}, addEvent: () => {} };
    await seam.ask({ agent, questions: [approval], [Symbol.for('askseam.askObservation')]: forged } as Parameters<UserQuestions['ask']>[0]);
    await seam.ask({ agent, questions: [approval], timeoutMs: 60_000 });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    for (const [index, { observation, keys, spread, json }] of seen.entries()) {
      expect(observation).not.toBe(forged);
      expect(observation?.traceContext).toEqual({ traceparent: `00-${spans[index]!.spanContext().traceId}-${spans[index]!.spanContext().spanId}-01` });
      expect(keys).not.toContain('askseam.askObservation');
      expect(spread).toBeUndefined();
      expect(json).not.toContain('traceparent');
    }
    // The deadline's copy carries its own signal, and the observation with it.
    expect(seen[1]!.keys).toEqual(expect.arrayContaining(['signal', 'timeoutMs']));
  });

  it('records a dismissal as outcome cancelled without an error status', async () => {
    const { exporter, seam } = traced();
    seam.registerProvider({ ask: () => Promise.reject(new UserQuestionError('ASK_CANCELLED', 'The user dismissed the questions without answering.')) });
    await expect(seam.ask({ agent, questions: [approval] })).rejects.toMatchObject({ code: 'ASK_CANCELLED' });
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes).toMatchObject({ 'askseam.outcome': 'cancelled', 'error.type': 'ASK_CANCELLED' });
    expect(span!.status.code).toBe(0);
  });

  it('records an answer that does not fit as outcome failed with BAD_ANSWER, and the ask still rejects as before', async () => {
    const { exporter, seam } = traced();
    seam.registerProvider({ ask: async () => ({ answers: [{ id: 'run', selected: ['Maybe'] }] }) });
    await expect(seam.ask({ agent, questions: [approval] })).rejects.toMatchObject({ code: 'BAD_ANSWER' });
    expect(exporter.getFinishedSpans()[0]!.attributes).toMatchObject({ 'askseam.outcome': 'failed', 'error.type': 'BAD_ANSWER' });
    expect(exporter.getFinishedSpans()[0]!.status.code).toBe(2);
  });

  it('keeps a sensitive answer out of the span even with recordContent', async () => {
    const { exporter, seam } = traced(true);
    const secret: AskUserQuestionItem = { id: 'token', question: 'Paste the deploy token', input: { kind: 'text' }, sensitive: true };
    seam.registerProvider({ ask: async () => ({ answers: [{ id: 'token', selected: [], custom: 'hunter2-secret' }] }) });
    await seam.ask({ agent, questions: [secret] });
    const [span] = exporter.getFinishedSpans();
    expect(span!.attributes['askseam.question.texts']).toEqual(['Paste the deploy token']);
    expect(String(span!.attributes['askseam.answer'])).not.toContain('hunter2');
  });

  it('gives a provider no observation when the seam has no tracer provider', async () => {
    const seam = new UserQuestions({ agents });
    let seen: unknown = 'not called';
    seam.registerProvider({
      ask: async (request) => {
        seen = askObservationOf(request);
        return { answers: [{ id: 'run', selected: ['Approve'] }] };
      },
    });
    await seam.ask({ agent, questions: [approval] });
    expect(seen).toBeUndefined();
  });
});
