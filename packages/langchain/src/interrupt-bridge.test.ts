// The LangGraph bridge in one process: real graphs and agents (MemorySaver, fakeModel), a real
// host and a real client. The restart across a SIGKILL is in examples/durable-graph.test.ts.
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { Annotation, END, interrupt, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { personAtHost, type Person } from '@askseam/test-support';
import { langGraphInterrupts, type LangGraphInterruptsOptions } from './interrupt-bridge.js';

let person: Person | undefined;
afterEach(async () => {
  await person?.close();
  person = undefined;
});

const Notes = Annotation.Root({ topic: Annotation<string>(), reply: Annotation<string>() });

/** A graph whose one node asks `value` through interrupt() and keeps what it is resumed with. */
function askingGraph(value: unknown) {
  return new StateGraph(Notes)
    .addNode('ask', () => ({ reply: JSON.stringify(interrupt(value)) }))
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
}

/** The bridge on a real host whose onResume it is, and a promise of the first finished thread. */
async function bridged(graph: LangGraphInterruptsOptions['graph'], extra: Partial<LangGraphInterruptsOptions> = {}) {
  let interrupts: ReturnType<typeof langGraphInterrupts> | undefined;
  person = await personAtHost({ host: { onResume: (record) => interrupts?.onResume(record) } });
  let finish: (value: { threadId: string; result: unknown }) => void = () => undefined;
  const done = new Promise<{ threadId: string; result: unknown }>((resolve) => (finish = resolve));
  interrupts = langGraphInterrupts({ graph, sessionId: 'assistant', onDone: (threadId, result) => finish({ threadId, result }), ...extra });
  interrupts.useHost(person.host);
  return { interrupts, done, person };
}

describe('langGraphInterrupts', () => {
  it('asks a string interrupt as a free-text question and resumes with the text', async () => {
    const { interrupts, done, person } = await bridged(askingGraph('What should the release notes stress?'));
    await interrupts.invoke({ topic: 'v2' }, 'thread-text');
    const question = await person.nextQuestion();
    expect(question.questions).toMatchObject([{ id: 'reply', question: 'What should the release notes stress?', input: { kind: 'textarea' }, required: true }]);
    await question.answer({ answers: [{ id: 'reply', selected: [], custom: 'The new importer.' }] });
    expect(await done).toMatchObject({ threadId: 'thread-text', result: { topic: 'v2', reply: '"The new importer."' } });
  });

  it('resumes a thread once, however often the same answer is delivered', async () => {
    let runs = 0;
    const graph = new StateGraph(Notes)
      .addNode('ask', () => ({ reply: interrupt('Anything else?') as string }))
      .addNode('count', () => {
        runs++;
        return {};
      })
      .addEdge(START, 'ask')
      .addEdge('ask', 'count')
      .addEdge('count', END)
      .compile({ checkpointer: new MemorySaver() });
    const finished: string[] = [];
    let finishedOnce: () => void = () => undefined;
    const firstFinish = new Promise<void>((resolve) => (finishedOnce = resolve));
    const { interrupts, person } = await bridged(graph, {
      onDone: (threadId) => {
        finished.push(threadId);
        finishedOnce();
      },
    });
    await interrupts.invoke({ topic: 'v2' }, 'thread-once');
    const question = await person.nextQuestion();
    await question.answer({ answers: [{ id: 'reply', selected: [], custom: 'No.' }] });
    await firstFinish;
    // onResume delivers at least once across a crash: a second delivery finds no pending interrupt.
    const record = await person.host.store.get(question.rpcId);
    await interrupts.onResume(record!);
    await interrupts.onResume(record!);
    expect(runs).toBe(1);
    expect(finished).toEqual(['thread-once']);
  });

  it('does not ask twice about an interrupt already asked', async () => {
    const { interrupts, person } = await bridged(askingGraph('Which branch?'));
    await interrupts.invoke({ topic: 'v2' }, 'thread-dedupe');
    await person.nextQuestion();
    expect(await interrupts.askPending('thread-dedupe')).toBe(0);
    expect(await person.host.store.listPending('all')).toHaveLength(1);
  });

  it('leaves the thread paused and tells onDismissed when the person dismisses the question', async () => {
    let told: (value: string[]) => void = () => undefined;
    const dismissed = new Promise<string[]>((resolve) => (told = resolve));
    const graph = askingGraph('Which branch?');
    const { interrupts, person } = await bridged(graph, { onDismissed: (threadId, interruptId) => told([threadId, interruptId]) });
    await interrupts.invoke({ topic: 'v2' }, 'thread-dismiss');
    await (await person.nextQuestion()).cancel();
    const snapshot = await graph.getState({ configurable: { thread_id: 'thread-dismiss' } });
    expect(await dismissed).toEqual(['thread-dismiss', snapshot.tasks[0]?.interrupts[0]?.id]);
    // Still paused at the same interrupt: nothing was resumed.
    expect(snapshot.next).toEqual(['ask']);
  });

  it('asks the interrupts of one node in turn, each answer going to its own interrupt()', async () => {
    const Pair = Annotation.Root({ first: Annotation<string>(), second: Annotation<string>() });
    const graph = new StateGraph(Pair)
      .addNode('ask', () => ({ first: interrupt('First name?') as string, second: interrupt('Last name?') as string }))
      .addEdge(START, 'ask')
      .addEdge('ask', END)
      .compile({ checkpointer: new MemorySaver() });
    const { interrupts, done, person } = await bridged(graph);
    await interrupts.invoke({}, 'thread-two');
    const first = await person.nextQuestion();
    expect(first.questions[0]?.question).toBe('First name?');
    await first.answer({ answers: [{ id: 'reply', selected: [], custom: 'Ada' }] });
    const second = await person.nextQuestion();
    expect(second.questions[0]?.question).toBe('Last name?');
    await second.answer({ answers: [{ id: 'reply', selected: [], custom: 'Lovelace' }] });
    expect(await done).toMatchObject({ result: { first: 'Ada', second: 'Lovelace' } });
  });

  it('refuses an interrupt value it cannot ask about with UNKNOWN_INTERRUPT', async () => {
    const { interrupts } = await bridged(askingGraph({ pick: 3 }));
    await expect(interrupts.invoke({ topic: 'v2' }, 'thread-unknown')).rejects.toMatchObject({ name: 'LangGraphBridgeError', code: 'UNKNOWN_INTERRUPT' });
  });

  it('asks questionsFor’s questions for a value of the app’s own, and resumes with the answer', async () => {
    const { interrupts, done, person } = await bridged(askingGraph({ pick: 3 }), {
      questionsFor: (value) => [{ id: 'n', question: `Pick ${(value as { pick: number }).pick}?`, options: [{ label: 'Yes' }, { label: 'No' }] }],
    });
    await interrupts.invoke({ topic: 'v2' }, 'thread-custom');
    const question = await person.nextQuestion();
    await question.answer({ answers: [{ id: 'n', selected: ['Yes'] }] });
    expect(await done).toMatchObject({ result: { reply: '{"answers":[{"id":"n","selected":["Yes"]}]}' } });
  });

  it('refuses to run before it has a host, with NO_HOST', async () => {
    const interrupts = langGraphInterrupts({ graph: askingGraph('Hi?'), sessionId: 'assistant' });
    await expect(interrupts.invoke({ topic: 'v2' }, 'thread-no-host')).rejects.toMatchObject({ code: 'NO_HOST' });
  });
});

describe('langGraphInterrupts with humanInTheLoopMiddleware', () => {
  const sent: unknown[] = [];
  const sendEmail = tool(
    async (args) => {
      sent.push(args);
      return `Sent to ${args.to}.`;
    },
    { name: 'send_email', description: 'Sends an email.', schema: z.object({ to: z.string(), subject: z.string() }) },
  );
  const calls = [
    { name: 'send_email', args: { to: 'board@example.com', subject: 'Q3' }, id: 'call-1' },
    { name: 'send_email', args: { to: 'team@example.com', subject: 'Offsite' }, id: 'call-2' },
  ];

  function reviewedAgent() {
    sent.length = 0;
    const model = fakeModel().respondWithTools(calls).respond(new AIMessage('Done.'));
    return createAgent({
      model,
      tools: [sendEmail],
      middleware: [humanInTheLoopMiddleware({ interruptOn: { send_email: true } })],
      checkpointer: new MemorySaver(),
    });
  }

  function toolMessages(result: unknown): ToolMessage[] {
    return (result as { messages: BaseMessage[] }).messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
  }

  it('asks one detached card per paused call, an edit form on Edit, and resumes with every decision', async () => {
    const { interrupts, done, person } = await bridged(reviewedAgent(), { tools: [sendEmail] });
    await interrupts.invoke({ messages: [{ role: 'user', content: 'Mail both.' }] }, 'thread-hitl');

    const first = await person.nextQuestion();
    expect(first.questions[0]).toMatchObject({ intent: { kind: 'tool-approval', tool: { name: 'send_email', input: calls[0]!.args, description: 'Sends an email.' } } });
    await first.answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    const second = await person.nextQuestion();
    expect(second.questions[0]).toMatchObject({ intent: { tool: { input: calls[1]!.args } } });
    await second.answer({ answers: [{ id: 'tool-approval', selected: ['Edit'] }] });

    const form = await person.nextQuestion();
    expect(form.questions.map((question) => question.id)).toEqual(['edit:to', 'edit:subject']);
    await form.answer({ answers: [{ id: 'edit:to', selected: [] }, { id: 'edit:subject', selected: [], custom: 'Offsite, moved' }] });

    const { result } = await done;
    expect(sent).toEqual([calls[0]!.args, { to: 'team@example.com', subject: 'Offsite, moved' }]);
    expect(toolMessages(result).map((message) => message.tool_call_id)).toEqual(['call-1', 'call-2']);
  });

  it('resumes with a rejection carrying the person’s words', async () => {
    const { interrupts, done, person } = await bridged(reviewedAgent());
    await interrupts.invoke({ messages: [{ role: 'user', content: 'Mail both.' }] }, 'thread-hitl-reject');
    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Not the board.' }] });
    await (await person.nextQuestion()).answer({ answers: [{ id: 'tool-approval', selected: ['Approve'] }] });

    const { result } = await done;
    expect(sent).toEqual([]);
    expect(toolMessages(result)[0]).toMatchObject({ tool_call_id: 'call-1', status: 'error', content: 'Not the board.' });
  });
});
