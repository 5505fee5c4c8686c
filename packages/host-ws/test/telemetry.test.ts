// OpenTelemetry end to end: a real SDK (in-memory exporters), a real host, real sockets. What an
// app that passes its providers sees: the ask span inside the agent's trace, its events, the
// answer span another node records, and the askseam.* metrics (docs/telemetry.md).
import { context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { RedisQuestionBus } from '@askseam/bus-redis';
import { MemoryQuestionBusHub, MemoryQuestionStore, type QuestionStore } from '@askseam/store';
import { RedisQuestionStore } from '@askseam/store-redis';
import { startRedisServer } from '@askseam/store-redis/testing';
import { UserQuestions, approvalQuestions, hasUserQuestionErrorCode, type AskUserQuestionAnswer, type AskUserQuestionRequest } from '@askseam/user-questions';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocketHostOptions } from '../src/index.js';
import { cleanup, colourQuestion, redAnswer, rootAgents, startHost, TOKEN, type TestHost } from './fixture.js';
import { authenticatePeople, connectAs } from './routing-fixture.js';
import { cleanupSse, mount, SseClient } from './sse-fixture.js';
import { eventsOf, onlySpan, recording, type Recording } from './telemetry-fixture.js';

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  // What the app's SDK set-up does (NodeSDK, NodeTracerProvider.register): spans follow async work.
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});

const recordings: Recording[] = [];
afterEach(async () => {
  await cleanupSse();
  await cleanup();
  for (const made of recordings.splice(0)) await made.shutdown();
});

interface TracedNode extends TestHost {
  otel: Recording;
  /** Ask as agent-a inside the agent's own active span; resolves with the ask's outcome and that span. */
  askInAgentSpan(extra?: Partial<AskUserQuestionRequest>): { agentSpan: Promise<Span>; settled: Promise<{ ok: true; value: AskUserQuestionAnswer } | { ok: false; error: unknown }> };
}

async function tracedNode(options: Partial<WebSocketHostOptions> = {}): Promise<TracedNode> {
  const otel = recording();
  recordings.push(otel);
  const agents = rootAgents('agent-a');
  const userQuestions = new UserQuestions({ agents: agents.registry, telemetry: otel.telemetry });
  const node = await startHost({ ...options, userQuestions, telemetry: otel.telemetry });
  const agentTracer = otel.tracerProvider.getTracer('the-agent');
  return {
    ...node,
    otel,
    askInAgentSpan(extra = {}) {
      let markSpan!: (span: Span) => void;
      const agentSpan = new Promise<Span>((resolve) => (markSpan = resolve));
      const settled = agentTracer.startActiveSpan('agent.turn', async (span) => {
        markSpan(span);
        try {
          return { ok: true as const, value: await userQuestions.ask({ questions: [colourQuestion], agent: agents.agent('agent-a'), ...extra }) };
        } catch (error) {
          return { ok: false as const, error };
        } finally {
          span.end();
        }
      });
      return { agentSpan, settled };
    },
  };
}

const traceparentOf = (span: { spanContext(): { traceId: string; spanId: string } }) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

describe('an answered question', () => {
  it('is one askseam.ask span inside the agent\'s trace, with its attributes and events, no question text, and the metrics of one answer', async () => {
    const node = await tracedNode();
    const client = await node.connect();
    const { agentSpan, settled } = node.askInAgentSpan();
    const requested = await client.next('question/requested');
    expect((await client.answer(requested.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    expect(await settled).toEqual({ ok: true, value: redAnswer });

    const ask = onlySpan(node.otel.spans(), 'askseam.ask');
    const agent = await agentSpan;
    expect(ask.parentSpanContext?.spanId).toBe(agent.spanContext().spanId);
    expect(ask.spanContext().traceId).toBe(agent.spanContext().traceId);
    expect(ask.instrumentationScope.name).toBe('@askseam/user-questions');
    expect(ask.attributes).toEqual({
      'askseam.agent.id': 'agent-a',
      'askseam.session.id': 'agent-a',
      'askseam.question.count': 1,
      'askseam.question.intent': 'question',
      'askseam.rpc_id': requested.rpcId,
      'askseam.answered_by.principal': 'token',
      'askseam.answered_by.via': 'websocket',
      'askseam.outcome': 'answered',
    });
    expect(ask.status.code).toBe(0);
    const delivered = node.events.find((event) => event.type === 'delivered');
    const connectionId = delivered?.type === 'delivered' ? delivered.connectionId : 'none';
    expect(eventsOf(ask)).toEqual([
      { name: 'askseam.delivered', attributes: { 'askseam.connection.id': connectionId, 'askseam.delivery.replay': false } },
      { name: 'askseam.answered', attributes: { 'askseam.outcome': 'answered', 'askseam.answered_by.principal': 'token', 'askseam.answered_by.via': 'websocket' } },
    ]);
    // Personal data stays out by default: neither the question nor the answer is on any span.
    expect(JSON.stringify(node.otel.spans().map((span) => [span.attributes, span.events]))).not.toMatch(/Which colour|Red \(Recommended\)|Blue|Calmer/);
    // The stored record points at the ask span, for a node that takes the answer elsewhere.
    expect((await node.host.store.get(requested.rpcId))?.traceContext).toEqual({ traceparent: traceparentOf(ask) });

    expect(await node.otel.points('askseam.question.pending')).toEqual(pendingPoints(0));
    expect(await node.otel.points('askseam.question.duration')).toEqual([
      { attributes: { 'askseam.outcome': 'answered', 'askseam.question.intent': 'question', 'askseam.channel': 'websocket' }, value: { count: 1 } },
    ]);
    expect(await node.otel.points('askseam.response.rejected')).toEqual([]);
    expect(await node.otel.points('askseam.connection.active')).toEqual([{ attributes: { 'askseam.transport': 'websocket' }, value: 1 }]);
  });

  it('counts the question pending while it waits, and puts question texts and the answer on the span only with recordContent', async () => {
    const otel = recording();
    recordings.push(otel);
    const agents = rootAgents('agent-a');
    const telemetry = { ...otel.telemetry, recordContent: true };
    const userQuestions = new UserQuestions({ agents: agents.registry, telemetry });
    const node = await startHost({ userQuestions, telemetry });
    await askAnswered(node, () => userQuestions.ask({ questions: [colourQuestion], agent: agents.agent('agent-a') }), async () => {
      expect(await otel.points('askseam.question.pending')).toEqual(pendingPoints(1));
    });
    const ask = onlySpan(otel.spans(), 'askseam.ask');
    expect(ask.attributes['askseam.question.texts']).toEqual(['Which colour?']);
    expect(ask.attributes['askseam.answer']).toBe(JSON.stringify(redAnswer));
  });
});

/** Ask through `ask`, check what holds while the question waits, then answer it over a socket and wait for the ask. */
async function askAnswered(node: Awaited<ReturnType<typeof startHost>>, ask: () => Promise<unknown>, whileWaiting: () => Promise<void>): Promise<void> {
  const client = await node.connect();
  const asking = ask();
  const requested = await client.next('question/requested');
  await whileWaiting();
  await client.answer(requested.rpcId, 'agent-a', redAnswer);
  await asking;
}

/** The pending count's points while only agent-a asks plain questions. */
function pendingPoints(value: number) {
  return [{ attributes: { 'askseam.agent.id': 'agent-a', 'askseam.question.intent': 'question' }, value }];
}

describe('the pending count', () => {
  it('adds up the questions of two hosts on one meter provider, and goes back to 0 as each is answered', async () => {
    const otel = recording();
    recordings.push(otel);
    const hosts = await Promise.all(
      [0, 1].map(async () => {
        const agents = rootAgents('agent-a');
        const userQuestions = new UserQuestions({ agents: agents.registry, telemetry: otel.telemetry });
        const node = await startHost({ userQuestions, telemetry: otel.telemetry });
        return { agents, userQuestions, node, client: await node.connect() };
      }),
    );
    const asks = hosts.map(({ agents, userQuestions }) => userQuestions.ask({ questions: [colourQuestion], agent: agents.agent('agent-a') }));
    const requested = await Promise.all(hosts.map(({ client }) => client.next('question/requested')));
    const pending = () => otel.points('askseam.question.pending');
    expect(await pending()).toEqual(pendingPoints(2));
    await hosts[0]!.client.answer(requested[0]!.rpcId, 'agent-a', redAnswer);
    await asks[0];
    expect(await pending()).toEqual(pendingPoints(1));
    await hosts[1]!.client.answer(requested[1]!.rpcId, 'agent-a', redAnswer);
    await asks[1];
    expect(await pending()).toEqual(pendingPoints(0));
    expect(await otel.points('askseam.question.duration')).toEqual([
      { attributes: { 'askseam.outcome': 'answered', 'askseam.question.intent': 'question', 'askseam.channel': 'websocket' }, value: { count: 2 } },
    ]);
  });

  it('is an UpDownCounter with the same points on a meter that has no observable instruments', async () => {
    const otel = recording();
    recordings.push(otel);
    // The SDK's own meter, minus createObservableUpDownCounter (a meter written for askseam's older interface).
    const meterProvider = {
      getMeter(name: string, version?: string) {
        const meter = otel.telemetry.meterProvider.getMeter(name, version);
        return { createCounter: meter.createCounter.bind(meter), createUpDownCounter: meter.createUpDownCounter.bind(meter), createHistogram: meter.createHistogram.bind(meter) };
      },
    };
    const agents = rootAgents('agent-a');
    const userQuestions = new UserQuestions({ agents: agents.registry });
    const node = await startHost({ userQuestions, telemetry: { meterProvider } });
    await askAnswered(node, () => userQuestions.ask({ questions: [colourQuestion], agent: agents.agent('agent-a') }), async () => {
      expect(await otel.points('askseam.question.pending')).toEqual(pendingPoints(1));
    });
    expect(await otel.points('askseam.question.pending')).toEqual(pendingPoints(0));
  });
});

describe('a question that ends without an answer', () => {
  it('leaves the pending count when an operator withdraws it, with an aborted answer time', async () => {
    const node = await tracedNode();
    const client = await node.connect();
    const { settled } = node.askInAgentSpan();
    const requested = await client.next('question/requested');
    expect(await node.otel.points('askseam.question.pending')).toEqual(pendingPoints(1));
    expect(await node.host.withdraw(requested.rpcId, { by: 'ops' })).toBe(true);
    expect((await settled).ok).toBe(false);
    expect(await node.otel.points('askseam.question.pending')).toEqual(pendingPoints(0));
    expect(await node.otel.points('askseam.question.duration')).toEqual([{ attributes: { 'askseam.outcome': 'aborted', 'askseam.question.intent': 'question' }, value: { count: 1 } }]);
  });

  it('leaves the pending count when its host closes with it still waiting in the app\'s store', async () => {
    const store = new MemoryQuestionStore();
    const node = await tracedNode({ store });
    await node.host.askDetached({ sessionId: 'agent-a', questions: [colourQuestion] });
    expect(await node.otel.points('askseam.question.pending')).toEqual(pendingPoints(1));
    await node.host.close();
    expect(await store.listPending('all')).toHaveLength(1);
    expect(await node.otel.points('askseam.question.pending')).toEqual(pendingPoints(0));
  });

  it('leaves the pending count when the store could not save it, with no answer time', async () => {
    class RefusingStore extends MemoryQuestionStore {
      override save(): Promise<void> {
        return Promise.reject(new Error('disk full'));
      }
      override saveWithEvent(): Promise<void> {
        return Promise.reject(new Error('disk full'));
      }
    }
    const node = await tracedNode({ store: new RefusingStore() });
    const { settled } = node.askInAgentSpan();
    expect((await settled).ok).toBe(false);
    expect(await node.otel.points('askseam.question.pending')).toEqual(pendingPoints(0));
    expect(await node.otel.points('askseam.question.duration')).toEqual([]);
  });
});

describe('a rejected, then answered question', () => {
  it('has a rejected event with its reason code between delivery and answer, and counts the rejection by reason', async () => {
    const node = await tracedNode();
    const client = await node.connect();
    const { settled } = node.askInAgentSpan();
    const requested = await client.next('question/requested');
    const refused = await client.answer(requested.rpcId, 'agent-a', { answers: [{ id: 'colour', selected: ['Green'] }] });
    expect(refused).toMatchObject({ accepted: false, reason: 'bad-response' });
    expect((await client.answer(requested.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    expect((await settled).ok).toBe(true);

    const ask = onlySpan(node.otel.spans(), 'askseam.ask');
    expect(eventsOf(ask).map((event) => event.name)).toEqual(['askseam.delivered', 'askseam.rejected', 'askseam.answered']);
    expect(eventsOf(ask)[1]).toEqual({ name: 'askseam.rejected', attributes: { 'askseam.rejection.reason': 'bad-response', 'askseam.channel': 'websocket' } });
    expect(ask.attributes['askseam.outcome']).toBe('answered');
    expect(await node.otel.points('askseam.response.rejected')).toEqual([{ attributes: { 'askseam.rejection.reason': 'bad-response', 'askseam.channel': 'websocket' }, value: 1 }]);
    expect(await node.otel.points('askseam.question.duration')).toEqual([
      { attributes: { 'askseam.outcome': 'answered', 'askseam.question.intent': 'question', 'askseam.channel': 'websocket' }, value: { count: 1 } },
    ]);
  });
});

describe('a routed question escalated to tier 1', () => {
  it('has an askseam.escalated event with its tier after the delivery to tier 1, and counts the escalation by tier and reason', async () => {
    const route = () => [{ answerers: [{ principal: 'alice' }] }, { answerers: [{ group: 'leads' }], after: 50 }];
    const node = await tracedNode({ token: undefined, authenticate: authenticatePeople, route });
    const carol = await connectAs(node, 'carol');
    const { settled } = node.askInAgentSpan();
    // carol (leads) is sent the question only when tier 1 is reached.
    const requested = await carol.next('question/requested');
    expect(await node.event('escalated')).toMatchObject({ rpcId: requested.rpcId, tier: 1, reason: 'after' });
    expect(await node.otel.points('askseam.question.escalations')).toEqual([
      { attributes: { 'askseam.escalation.tier': 1, 'askseam.escalation.reason': 'after', 'askseam.question.intent': 'question' }, value: 1 },
    ]);
    expect((await carol.answer(requested.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    expect(await settled).toEqual({ ok: true, value: redAnswer });

    const ask = onlySpan(node.otel.spans(), 'askseam.ask');
    const delivered = node.events.find((event) => event.type === 'delivered');
    const connectionId = delivered?.type === 'delivered' ? delivered.connectionId : 'none';
    expect(eventsOf(ask)).toEqual([
      // Reaching tier 1 sends the question to carol; the escalation is recorded right after.
      { name: 'askseam.delivered', attributes: { 'askseam.connection.id': connectionId, 'askseam.delivery.replay': false } },
      { name: 'askseam.escalated', attributes: { 'askseam.escalation.tier': 1, 'askseam.escalation.reason': 'after' } },
      { name: 'askseam.answered', attributes: { 'askseam.outcome': 'answered', 'askseam.answered_by.principal': 'carol', 'askseam.answered_by.via': 'websocket' } },
    ]);
    expect(await node.otel.points('askseam.question.escalations')).toEqual([
      { attributes: { 'askseam.escalation.tier': 1, 'askseam.escalation.reason': 'after', 'askseam.question.intent': 'question' }, value: 1 },
    ]);
    expect(await node.otel.points('askseam.vote.count')).toEqual([]);
  });
});

describe('a 2-approval quorum question', () => {
  it('has one askseam.voted event per approval before the answer, and counts both approvals', async () => {
    const node = await tracedNode({ token: undefined, authenticate: authenticatePeople });
    const alice = await connectAs(node, 'alice');
    const carol = await connectAs(node, 'carol');
    const tool = { name: 'migrate_db', input: { database: 'prod' } };
    const approve = { answers: [{ id: 'tool-approval', selected: ['Approve'] }] };
    const { settled } = node.askInAgentSpan({ questions: approvalQuestions({ tool, quorum: { approvals: 2 } }) });
    const { rpcId } = await alice.next('question/requested');
    await carol.next('question/requested');
    expect(await alice.answer(rpcId, 'agent-a', approve)).toMatchObject({ accepted: true, votes: [{ principalId: 'alice' }] });
    expect(await node.otel.points('askseam.vote.count')).toEqual([{ attributes: { 'askseam.vote.decision': 'approve' }, value: 1 }]);
    expect(await carol.answer(rpcId, 'agent-a', approve)).toMatchObject({ accepted: true });
    expect((await settled).ok).toBe(true);

    const ask = onlySpan(node.otel.spans(), 'askseam.ask');
    const voted = eventsOf(ask).filter((event) => event.name === 'askseam.voted');
    expect(voted).toEqual([
      { name: 'askseam.voted', attributes: { 'askseam.vote.approvals': 1, 'askseam.vote.needed': 2, 'askseam.answered_by.principal': 'alice', 'askseam.answered_by.via': 'websocket' } },
      { name: 'askseam.voted', attributes: { 'askseam.vote.approvals': 2, 'askseam.vote.needed': 2, 'askseam.answered_by.principal': 'carol', 'askseam.answered_by.via': 'websocket' } },
    ]);
    expect(eventsOf(ask).map((event) => event.name).slice(-3)).toEqual(['askseam.voted', 'askseam.voted', 'askseam.answered']);
    expect(await node.otel.points('askseam.vote.count')).toEqual([{ attributes: { 'askseam.vote.decision': 'approve' }, value: 2 }]);
    expect(await node.otel.points('askseam.question.escalations')).toEqual([]);
  });
});

describe('a timed-out question', () => {
  it('ends its span with outcome timed_out, an error status and error.type ASK_TIMEOUT, and records a timed_out duration', async () => {
    const node = await tracedNode();
    const { settled } = node.askInAgentSpan({ timeoutMs: 50 });
    const outcome = await settled;
    expect(outcome.ok === false && hasUserQuestionErrorCode(outcome.error, 'ASK_TIMEOUT')).toBe(true);

    const ask = onlySpan(node.otel.spans(), 'askseam.ask');
    expect(ask.attributes).toMatchObject({ 'askseam.outcome': 'timed_out', 'error.type': 'ASK_TIMEOUT', 'askseam.rpc_id': expect.any(String) });
    expect(ask.attributes['askseam.answered_by.principal']).toBeUndefined();
    expect(ask.status).toEqual({ code: 2, message: 'ASK_TIMEOUT' });
    // Nobody was connected: nothing was delivered, nobody answered.
    expect(eventsOf(ask)).toEqual([]);
    expect(await node.otel.points('askseam.question.pending')).toEqual(pendingPoints(0));
    expect(await node.otel.points('askseam.question.duration')).toEqual([{ attributes: { 'askseam.outcome': 'timed_out', 'askseam.question.intent': 'question' }, value: { count: 1 } }]);
  });

  it('records a question refused at a gate as a span with outcome refused and its error code', async () => {
    const node = await tracedNode();
    const { settled } = node.askInAgentSpan({ questions: [] });
    const outcome = await settled;
    expect(outcome.ok === false && hasUserQuestionErrorCode(outcome.error, 'EMPTY_QUESTIONS')).toBe(true);
    const ask = onlySpan(node.otel.spans(), 'askseam.ask');
    expect(ask.attributes).toEqual({ 'askseam.agent.id': 'agent-a', 'askseam.session.id': 'agent-a', 'askseam.question.count': 0, 'askseam.outcome': 'refused', 'error.type': 'EMPTY_QUESTIONS' });
    expect(await node.otel.points('askseam.question.pending')).toEqual([]);
  });
});

describe('a question answered on another node', () => {
  it('links the answer span to the ask span over a real Redis store and bus (the trace context travels in the Redis record)', async () => {
    const redis = await startRedisServer();
    const made: { close(): Promise<void> }[] = [];
    try {
      const node = async (name: string) => {
        const store = new RedisQuestionStore({ url: redis.url, keyPrefix: 'otel:' });
        const bus = new RedisQuestionBus({ url: redis.url, keyPrefix: 'otel:', nodeId: name });
        made.push(store, bus);
        return tracedNode({ store, bus });
      };
      const a = await node('a');
      const b = await node('b');
      const onB = await b.connect();
      const { settled } = a.askInAgentSpan();
      const requested = await onB.next('question/requested');
      expect((await onB.answer(requested.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
      expect(await settled).toEqual({ ok: true, value: redAnswer });
      const ask = onlySpan(a.otel.spans(), 'askseam.ask');
      const answer = onlySpan(b.otel.spans(), 'askseam.answer');
      expect(answer.links.map((link) => link.context.spanId)).toEqual([ask.spanContext().spanId]);
      expect(answer.attributes['askseam.rpc_id']).toBe(requested.rpcId);
      expect(eventsOf(ask).map((event) => event.name)).toEqual(['askseam.answered']);
    } finally {
      await cleanup();
      for (const closable of made.reverse()) await closable.close();
      await redis.stop();
    }
  });

  it('is an askseam.answer span on the answering node, linked to the ask span of the asking node, which learns it was answered', async () => {
    const store: QuestionStore = new MemoryQuestionStore();
    const hub = new MemoryQuestionBusHub();
    const a = await tracedNode({ store, bus: hub.connect('a') });
    const b = await tracedNode({ store, bus: hub.connect('b') });
    const onB = await b.connect();
    const { agentSpan, settled } = a.askInAgentSpan();
    const requested = await onB.next('question/requested');
    expect((await onB.answer(requested.rpcId, 'agent-a', redAnswer)).accepted).toBe(true);
    expect(await settled).toEqual({ ok: true, value: redAnswer });

    const ask = onlySpan(a.otel.spans(), 'askseam.ask');
    expect(ask.spanContext().traceId).toBe((await agentSpan).spanContext().traceId);
    expect(ask.attributes).toMatchObject({ 'askseam.outcome': 'answered', 'askseam.answered_by.principal': 'token', 'askseam.answered_by.via': 'websocket' });
    // Who answered on node B reached node A in the stored record (answeredBy).
    expect(eventsOf(ask)).toEqual([
      { name: 'askseam.answered', attributes: { 'askseam.outcome': 'answered', 'askseam.answered_by.principal': 'token', 'askseam.answered_by.via': 'websocket' } },
    ]);

    const answer = onlySpan(b.otel.spans(), 'askseam.answer');
    expect(answer.instrumentationScope.name).toBe('@askseam/host-ws');
    expect(answer.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId }))).toEqual([{ traceId: ask.spanContext().traceId, spanId: ask.spanContext().spanId }]);
    expect(answer.attributes).toEqual({
      'askseam.rpc_id': requested.rpcId,
      'askseam.session.id': 'agent-a',
      'askseam.agent.id': 'agent-a',
      'askseam.question.intent': 'question',
      'askseam.question.count': 1,
      'askseam.outcome': 'answered',
      'askseam.answered_by.principal': 'token',
      'askseam.answered_by.via': 'websocket',
    });
    expect(b.otel.spans().filter((span) => span.name === 'askseam.ask')).toEqual([]);

    // The asking node counts the question pending and done; the answering node times the answer, once.
    expect(await a.otel.points('askseam.question.pending')).toEqual(pendingPoints(0));
    expect(await a.otel.points('askseam.question.duration')).toEqual([]);
    expect(await b.otel.points('askseam.question.pending')).toEqual([]);
    expect(await b.otel.points('askseam.question.duration')).toEqual([
      { attributes: { 'askseam.outcome': 'answered', 'askseam.question.intent': 'question', 'askseam.channel': 'websocket' }, value: { count: 1 } },
    ]);
  });
});

describe('a question answered through an in-process channel', () => {
  it('names the channel as answered_by.via, and the person (answeredBy.user) only with recordContent', async () => {
    for (const recordContent of [false, true]) {
      const otel = recording();
      recordings.push(otel);
      const agents = rootAgents('agent-a');
      const telemetry = { ...otel.telemetry, recordContent };
      const userQuestions = new UserQuestions({ agents: agents.registry, telemetry });
      const { host } = await startHost({ userQuestions, telemetry });
      let shown!: (rpcId: string) => void;
      const question = new Promise<string>((resolve) => (shown = resolve));
      const channel = host.openChannel({ via: 'slack', onQuestion: (asked) => shown(asked.rpcId), onSettled: () => {} });
      const asking = userQuestions.ask({ questions: [colourQuestion], agent: agents.agent('agent-a') });
      const rpcId = await question;
      const receipt = await channel.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: redAnswer } }, { user: 'alex@example.com' });
      expect(receipt.accepted).toBe(true);
      await asking;
      const ask = onlySpan(otel.spans(), 'askseam.ask');
      expect(ask.attributes).toMatchObject({ 'askseam.answered_by.principal': 'channel:slack', 'askseam.answered_by.via': 'slack' });
      expect(ask.attributes['askseam.answered_by.user']).toBe(recordContent ? 'alex@example.com' : undefined);
      expect(await otel.points('askseam.question.duration')).toEqual([
        { attributes: { 'askseam.outcome': 'answered', 'askseam.question.intent': 'question', 'askseam.channel': 'slack' }, value: { count: 1 } },
      ]);
      expect(await otel.points('askseam.connection.active')).toEqual([{ attributes: { 'askseam.transport': 'channel' }, value: 1 }]);
      channel.close();
      expect(await otel.points('askseam.connection.active')).toEqual([{ attributes: { 'askseam.transport': 'channel' }, value: 0 }]);
    }
  });
});

describe('connections by transport', () => {
  it('counts a WebSocket and an event stream each under its transport, and takes a closed socket off', async () => {
    const node = await tracedNode();
    const socket = await node.connect();
    const base = await mount(node.host.fetchHandler(), 'node');
    const stream = await SseClient.open(`${base}/events?token=${TOKEN}`);
    await stream.waitFor((frame) => frame.type === 'hello');
    const byTransport = async () => Object.fromEntries((await node.otel.points('askseam.connection.active')).map((point) => [point.attributes['askseam.transport'], point.value]));
    expect(await byTransport()).toEqual({ websocket: 1, sse: 1 });
    await socket.close();
    await node.event('disconnected');
    expect(await byTransport()).toEqual({ websocket: 0, sse: 1 });
  });
});

describe('without providers', () => {
  it('records nothing and stores no trace context, even inside an agent span', async () => {
    const otel = recording();
    recordings.push(otel);
    const agents = rootAgents('agent-a');
    const userQuestions = new UserQuestions({ agents: agents.registry });
    const node = await startHost({ userQuestions });
    const client = await node.connect();
    const asking = otel.tracerProvider.getTracer('the-agent').startActiveSpan('agent.turn', async (span) => {
      try {
        return await userQuestions.ask({ questions: [colourQuestion], agent: agents.agent('agent-a') });
      } finally {
        span.end();
      }
    });
    const requested = await client.next('question/requested');
    await client.answer(requested.rpcId, 'agent-a', redAnswer);
    await asking;
    expect(otel.spans().map((span) => span.name)).toEqual(['agent.turn']);
    expect((await node.host.store.get(requested.rpcId))?.traceContext).toBeUndefined();
  });
});
