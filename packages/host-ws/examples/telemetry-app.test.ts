// The docs/telemetry.md example, run as written: its ask span sits inside the agent's span, and
// the host's metrics are there, in a real SDK's in-memory exporters.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { AgentRef } from '@askseam/user-questions';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RawClient } from '../test/raw-client.js';
import { onlySpan, recording } from '../test/telemetry-fixture.js';
import { startTracedApp } from './telemetry-app.js';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});

it('records the ask inside the agent\'s trace and counts the answer', async () => {
  const otel = recording();
  const agent: AgentRef = { id: 'support-bot' };
  const { userQuestions, host } = await startTracedApp({ get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] }, 'docs-token', otel.telemetry);
  const client = await RawClient.connect(`${host.url}?token=docs-token`);
  try {
    const asking = otel.tracerProvider.getTracer('support-bot').startActiveSpan('handle ticket', async (span) => {
      try {
        return await userQuestions.ask({ agent, questions: [{ id: 'env', question: 'Which environment?', options: [{ label: 'staging' }, { label: 'production' }] }] });
      } finally {
        span.end();
      }
    });
    const requested = await client.next('question/requested');
    await client.answer(requested.rpcId, 'support-bot', { answers: [{ id: 'env', selected: ['staging'] }] });
    await asking;
    const turn = onlySpan(otel.spans(), 'handle ticket');
    expect(onlySpan(otel.spans(), 'askseam.ask').parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    expect(await otel.points('askseam.question.duration')).toEqual([
      { attributes: { 'askseam.outcome': 'answered', 'askseam.question.intent': 'question', 'askseam.channel': 'websocket' }, value: { count: 1 } },
    ]);
  } finally {
    await client.close();
    await host.close();
    await otel.shutdown();
  }
});
