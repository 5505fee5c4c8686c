// The askseam tools inside a real LangChain agent (createAgent + fakeModel), asked through a real
// host and answered by a real client.
import { askClarificationTool } from '@askseam/clarify';
import { exitPlanModeTool, PlanMode } from '@askseam/plan-mode';
import { askUserQuestionTool } from '@askseam/tool-ask-user';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { personAtHost, type Person } from '@askseam/test-support';
import { toLangChainTool } from './tool.js';

let person: Person | undefined;
afterEach(async () => {
  await person?.close();
  person = undefined;
});

const question = { id: 'db', question: 'Which database?', header: 'Database', options: [{ label: 'Postgres' }, { label: 'SQLite' }] };

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe('toLangChainTool', () => {
  it('hands the model the JSON Schema of the askseam tool exactly as given', () => {
    const lcTool = toLangChainTool(askUserQuestionTool, { userQuestions: { ask: () => Promise.reject(new Error('not asked')) } });
    expect(convertToOpenAITool(lcTool)).toEqual({
      type: 'function',
      function: { name: 'ask_user_question', description: askUserQuestionTool.description, parameters: askUserQuestionTool.jsonSchema },
    });
  });

  it('lets LangChain’s own tool() take the exported JSON Schema as given', async () => {
    // LangChain's validator edits the schema it is handed; the exported copy must allow it.
    const plain = tool(async () => 'ran', { name: 'ask_user_question', description: 'Ask the user.', schema: askUserQuestionTool.jsonSchema });
    await expect(plain.invoke({ questions: [question] })).resolves.toBe('ran');
  });

  it('asks the person and gives the agent’s model their answer as the tool message', async () => {
    person = await personAtHost();
    const model = fakeModel()
      .respondWithTools([{ name: 'ask_user_question', args: { questions: [question] }, id: 'call-1' }])
      .respond(new AIMessage('Postgres it is.'));
    const agent = createAgent({ model, tools: [toLangChainTool(askUserQuestionTool, { userQuestions: person.userQuestions, agent: person.agent })] });

    const run = agent.invoke({ messages: [{ role: 'user', content: 'Set up the app.' }] });
    const asked = await person.nextQuestion();
    expect(asked.questions).toMatchObject([{ id: 'db', question: 'Which database?' }]);
    await asked.answer({ answers: [{ id: 'db', selected: ['Postgres'] }] });

    const [reply] = toolMessages((await run).messages);
    expect(reply).toMatchObject({ tool_call_id: 'call-1', status: 'success', content: '{"answers":[{"id":"db","selected":["Postgres"]}]}' });
    // The model's second call reads the answer.
    expect(toolMessages(model.calls[1]!.messages)[0]?.content).toBe('{"answers":[{"id":"db","selected":["Postgres"]}]}');
  });

  it('returns askseam’s corrective text, not LangChain’s schema error, for a model mistake', async () => {
    person = await personAtHost();
    const context = { userQuestions: person.userQuestions, agent: person.agent };
    // The question text is missing: LangChain's validator would say only "did not match expected schema".
    const badArgs = { questions: [{ id: 'db', header: 'Database', options: question.options }] };
    const model = fakeModel()
      .respondWithTools([{ name: 'ask_user_question', args: badArgs, id: 'call-1' }])
      .respond(new AIMessage('Let me fix that.'));
    const agent = createAgent({ model, tools: [toLangChainTool(askUserQuestionTool, context)] });
    let asked = false;
    person.client.on('requested', () => (asked = true));

    const [reply] = toolMessages((await agent.invoke({ messages: [{ role: 'user', content: 'Set up the app.' }] })).messages);
    const expected = await askUserQuestionTool.execute(badArgs, context);
    expect(expected).toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' });
    expect(reply).toMatchObject({ tool_call_id: 'call-1', status: 'error', content: expected.text });
    expect(reply?.content).not.toContain('did not match expected schema');
    expect(asked).toBe(false);
  });

  it('ends plan mode through exit_plan_mode when the person approves the plan', async () => {
    person = await personAtHost();
    const planMode = new PlanMode();
    planMode.enter(person.agent.id);
    const model = fakeModel()
      .respondWithTools([{ name: 'exit_plan_mode', args: { plan: '# Add the audit table\n\n1. Add the table.\n2. Backfill it.' }, id: 'call-1' }])
      .respond(new AIMessage('Starting.'));
    const agent = createAgent({ model, tools: [toLangChainTool(exitPlanModeTool, { userQuestions: person.userQuestions, agent: person.agent, planMode })] });

    const run = agent.invoke({ messages: [{ role: 'user', content: 'Plan the migration.' }] });
    const review = await person.nextQuestion();
    await review.answer({ answers: [{ id: review.questions[0]!.id, selected: [review.questions[0]!.options![0]!.label] }] });

    const [reply] = toolMessages((await run).messages);
    expect(reply?.status).toBe('success');
    expect(planMode.isActive(person.agent.id)).toBe(false);
  });

  it('asks a clarify tool’s question and returns its answer text', async () => {
    person = await personAtHost();
    const context = { userQuestions: person.userQuestions, agent: person.agent };
    const args = { question: 'Which region should the bucket live in?', clarification_type: 'missing_info' };
    const model = fakeModel().respondWithTools([{ name: 'ask_clarification', args, id: 'call-1' }]).respond(new AIMessage('Thanks.'));
    const agent = createAgent({ model, tools: [toLangChainTool(askClarificationTool, context)] });

    const run = agent.invoke({ messages: [{ role: 'user', content: 'Make a bucket.' }] });
    const asked = await person.nextQuestion();
    await asked.answer({ answers: [{ id: asked.questions[0]!.id, selected: [], custom: 'eu-west-1' }] });

    const [reply] = toolMessages((await run).messages);
    expect(reply).toMatchObject({ status: 'success' });
    expect(reply?.content).toContain('eu-west-1');
  });

  it('withdraws the question when LangChain’s run signal aborts, and tells the model so', async () => {
    person = await personAtHost();
    const lcTool = toLangChainTool(askUserQuestionTool, { userQuestions: person.userQuestions, agent: person.agent });
    const controller = new AbortController();
    const result = lcTool.invoke({ questions: [question] }, { signal: controller.signal });
    await person.nextQuestion();
    const resolved = new Promise((resolve) => person!.client.on('resolved', resolve));
    controller.abort();
    await expect(result).resolves.toMatch(/^Error: The question was aborted/);
    await expect(resolved).resolves.toMatchObject({ outcome: 'cancelled' });
  });
});
