// ask_user_question as a LangGraph interrupt: a real StateGraph (examples/asking-graph.ts: model node + ToolNode), LangChain's
// fakeModel emitting the tool calls, SQLite or in-memory checkpoints, and for the person a real
// host and client through the interrupt bridge.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askUserQuestionTool } from '@askseam/tool-ask-user';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { Command, INTERRUPT, isInterrupted, MemorySaver, type BaseCheckpointSaver, type Interrupt } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { personAtHost, type Person } from '@askseam/test-support';
import { langGraphInterrupts } from './interrupt-bridge.js';
import { createAskUserQuestionInterruptTool } from './interrupt-tool.js';
import { createAskingGraph } from '../examples/asking-graph.js';

const cleanups: (() => unknown)[] = [];
let person: Person | undefined;
afterEach(async () => {
  await person?.close();
  person = undefined;
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

// Everything the schema allows, multi_select included: none of it may be lost on the way to the person.
const stackQuestion = {
  id: 'stack',
  question: 'Which parts should the release include?',
  header: 'Release',
  options: [
    { label: 'API', description: 'The HTTP service' },
    { label: 'Web', description: 'The browser app' },
    { label: 'CLI' },
  ],
  multi_select: true,
};
const twoLabels = { answers: [{ id: 'stack', selected: ['API', 'CLI'] }] };
const twoLabelsText = '{"answers":[{"id":"stack","selected":["API","CLI"]}]}';

type FakeModel = ReturnType<typeof fakeModel>;

// The example's graph: the model node, the tool node with the interrupt tool, back to the model.
const agentGraph = (model: FakeModel, checkpointer: BaseCheckpointSaver) => createAskingGraph(model, checkpointer);

function asking(args: unknown): FakeModel {
  return fakeModel()
    .respondWithTools([{ name: 'ask_user_question', args: args as Record<string, unknown>, id: 'call-1' }])
    .respond(new AIMessage('Shipping it.'));
}

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

function checkpointFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-interrupt-tool-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'checkpoints.db');
}

const thread = (id: string) => ({ configurable: { thread_id: id } });

/** The interrupts a graph's result says it paused at (none when it ran to the end). */
function interruptsOf(result: unknown): Interrupt[] {
  return isInterrupted(result) ? result[INTERRUPT] : [];
}

describe('createAskUserQuestionInterruptTool', () => {
  it('offers the model askseam’s ask_user_question schema and description', () => {
    expect(convertToOpenAITool(createAskUserQuestionInterruptTool())).toEqual({
      type: 'function',
      function: { name: 'ask_user_question', description: askUserQuestionTool.description, parameters: askUserQuestionTool.jsonSchema },
    });
  });

  it('pauses the thread with every question field, and after a restart resumes the model with the answer', async () => {
    const file = checkpointFile();
    const before = agentGraph(asking({ questions: [stackQuestion] }), SqliteSaver.fromConnString(file));
    const paused = await before.invoke({ messages: [{ role: 'user', content: 'Cut the release.' }] }, thread('release'));
    const [pending, ...more] = interruptsOf(paused);
    expect(more).toEqual([]);
    expect(pending?.value).toEqual({
      questions: [
        {
          id: 'stack',
          question: 'Which parts should the release include?',
          header: 'Release',
          options: [{ label: 'API', description: 'The HTTP service' }, { label: 'Web', description: 'The browser app' }, { label: 'CLI' }],
          multiSelect: true,
        },
      ],
    });

    // A new process: a new graph, a new model, the same checkpoint file.
    const model = fakeModel().respond(new AIMessage('Shipping API and CLI.'));
    const after = agentGraph(model, SqliteSaver.fromConnString(file));
    const done = await after.invoke(new Command({ resume: { [pending!.id!]: twoLabels } }), thread('release'));

    expect(toolMessages(done.messages)).toMatchObject([{ tool_call_id: 'call-1', status: 'success', content: twoLabelsText }]);
    expect(toolMessages(model.calls[0]!.messages).map((message) => message.content)).toEqual([twoLabelsText]);
    expect(done.messages.at(-1)?.content).toBe('Shipping API and CLI.');
  });

  it('asks the person a multi-select question through the bridge and gives the model both labels', async () => {
    const model = asking({ questions: [stackQuestion] });
    const graph = agentGraph(model, new MemorySaver());
    let interrupts: ReturnType<typeof langGraphInterrupts> | undefined;
    person = await personAtHost({ host: { onResume: (record) => interrupts?.onResume(record) } });
    let finish: (result: unknown) => void = () => undefined;
    const finished = new Promise<unknown>((resolve) => (finish = resolve));
    interrupts = langGraphInterrupts({ graph, sessionId: 'assistant', onDone: (_threadId, result) => finish(result) });
    interrupts.useHost(person.host);

    await interrupts.invoke({ messages: [{ role: 'user', content: 'Cut the release.' }] }, 'thread-multi');
    const asked = await person.nextQuestion();
    expect(asked.questions).toEqual([
      {
        id: 'stack',
        question: 'Which parts should the release include?',
        header: 'Release',
        options: [{ label: 'API', description: 'The HTTP service' }, { label: 'Web', description: 'The browser app' }, { label: 'CLI' }],
        multiSelect: true,
      },
    ]);
    await asked.answer(twoLabels);

    const result = (await finished) as { messages: BaseMessage[] };
    expect(toolMessages(model.calls[1]!.messages).map((message) => message.content)).toEqual([twoLabelsText]);
    expect(result.messages.at(-1)?.content).toBe('Shipping it.');
  });

  it('answers a malformed call with askseam’s corrective text and does not pause the thread', async () => {
    const model = asking({ questions: [{ id: 'stack', question: 'Which parts?', multiSelect: true }] });
    const result = await agentGraph(model, new MemorySaver()).invoke({ messages: [{ role: 'user', content: 'Cut the release.' }] }, thread('bad'));

    expect(interruptsOf(result)).toEqual([]);
    const [reply] = toolMessages(model.calls[1]!.messages);
    expect(reply).toMatchObject({ tool_call_id: 'call-1', status: 'error' });
    expect(reply?.content).toBe(
      'Error: Invalid arguments for ask_user_question: questions[0] (question "stack") has unknown field "multiSelect" (use "multi_select"); the allowed fields are id, question, header, options, multi_select.\n' +
        'Fix the arguments as described above and call the tool again.',
    );
  });

  it('gives the model a BAD_ANSWER error, not the value, when the thread is resumed with an answer that does not fit', async () => {
    const model = asking({ questions: [{ id: 'stack', question: 'Which part?', options: [{ label: 'API' }, { label: 'CLI' }] }] });
    const graph = agentGraph(model, new MemorySaver());
    const paused = await graph.invoke({ messages: [{ role: 'user', content: 'Cut the release.' }] }, thread('mismatch'));
    // Two labels for a single-select question.
    await graph.invoke(new Command({ resume: { [interruptsOf(paused)[0]!.id!]: twoLabels } }), thread('mismatch'));

    const [reply] = toolMessages(model.calls[1]!.messages);
    expect(reply).toMatchObject({ status: 'error' });
    expect(reply?.content).toMatch(/^Error: The thread was resumed with an answer that does not fit the questions: .+\nThe answer that came back did not fit your questions/);
  });
});
