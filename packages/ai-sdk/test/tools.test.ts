// askseam's tools inside the real AI SDK loop: generateText, streamText and ToolLoopAgent with the
// SDK's own mock model scripting the calls, a real host, and a real client answering as the person.
import { PlanMode } from '@askseam/plan-mode';
import { askUserQuestionTool as askseamAskUserQuestion, executeAskUserQuestion } from '@askseam/tool-ask-user';
import { generateText, stepCountIs, streamText, ToolLoopAgent } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAskUserQuestionTool, createExitPlanModeTool, createRequestHumanInputTool, toAiSdkTool } from '../src/index.js';
import { personAtHost, type Person } from '@askseam/test-support';
import { scriptedModel, toolResultsSeen } from './scripted-model.js';

const databaseQuestion = {
  id: 'database',
  question: 'Which database should the service use?',
  header: 'Database',
  options: [
    { label: 'Postgres (Recommended)', description: 'Mature and already used by the team.' },
    { label: 'SQLite', description: 'No server to run, but one writer at a time.' },
  ],
};

let person: Person;
afterEach(async () => {
  await person?.close();
});

describe('ask_user_question in generateText', () => {
  it('asks the person, and the next model call reads askseam’s JSON answer', async () => {
    person = await personAtHost();
    const model = scriptedModel([{ toolCall: { name: 'ask_user_question', input: { questions: [databaseQuestion] } } }, { text: 'SQLite it is.' }]);
    const run = generateText({
      model,
      tools: { ask_user_question: createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent }) },
      prompt: 'Set up the service.',
      stopWhen: stepCountIs(3),
    });
    const question = await person.nextQuestion();
    expect(question.questions[0]).toMatchObject({ id: 'database', question: databaseQuestion.question });
    await question.answer({ answers: [{ id: 'database', selected: ['SQLite'] }] });
    const result = await run;

    expect(result.text).toBe('SQLite it is.');
    expect(toolResultsSeen(model, 1)).toEqual([
      expect.objectContaining({ type: 'tool-result', toolName: 'ask_user_question', output: { type: 'text', value: '{"answers":[{"id":"database","selected":["SQLite"]}]}' } }),
    ]);
  });

  it('sends the providers askseam’s own JSON Schema for the tool', async () => {
    person = await personAtHost();
    const model = scriptedModel([{ text: 'Nothing to ask.' }]);
    await generateText({ model, tools: { ask_user_question: createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent }) }, prompt: 'Hi' });
    const offered = model.doGenerateCalls[0]?.tools?.[0];
    expect(offered).toMatchObject({ type: 'function', name: 'ask_user_question', description: askseamAskUserQuestion.description });
    expect(offered && 'inputSchema' in offered ? offered.inputSchema : undefined).toEqual(askseamAskUserQuestion.jsonSchema);
  });

  it('answers a malformed call with askseam’s corrective text, never the SDK’s type validation error, and asks nobody', async () => {
    person = await personAtHost();
    // Two model mistakes at once: an unknown key, and a question without options.
    const badArgs = { questions: [{ id: 'database', question: 'Which database?', colour: 'red' }] };
    const model = scriptedModel([{ toolCall: { name: 'ask_user_question', input: badArgs } }, { text: 'I will fix the call.' }]);
    const result = await generateText({
      model,
      tools: { ask_user_question: createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent }) },
      prompt: 'Set up the service.',
      stopWhen: stepCountIs(3),
    });

    const expected = await executeAskUserQuestion(badArgs, { userQuestions: person.userQuestions });
    expect(expected.isError).toBe(true);
    const [seen] = toolResultsSeen(model, 1);
    expect(seen).toMatchObject({ type: 'tool-result', output: { type: 'error-text', value: expected.text } });
    expect(JSON.stringify(seen)).not.toMatch(/Type validation failed|InvalidToolInput/);
    expect(result.toolResults[0]?.output).toEqual({ isError: true, text: expected.text, code: 'INVALID_ARGUMENTS' });
    expect(person.shown).toEqual([]);
  });

  it('withdraws the question from the person when the run’s abort signal fires', async () => {
    person = await personAtHost();
    const model = scriptedModel([{ toolCall: { name: 'ask_user_question', input: { questions: [databaseQuestion] } } }, { text: 'unreached' }]);
    const controller = new AbortController();
    const run = generateText({
      model,
      tools: { ask_user_question: createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent }) },
      prompt: 'Set up the service.',
      stopWhen: stepCountIs(3),
      abortSignal: controller.signal,
    });
    run.catch(() => undefined);
    const question = await person.nextQuestion();
    const resolved = person.nextResolved();
    controller.abort();
    expect(await resolved).toMatchObject({ rpcId: question.rpcId, outcome: 'cancelled' });
    await expect(run).rejects.toThrow();
    expect(person.host.pending()).toEqual([]);
  });
});

describe('exit_plan_mode in streamText', () => {
  it('ends plan mode on the person’s approval, and the model reads that it may proceed', async () => {
    person = await personAtHost();
    const planMode = new PlanMode();
    planMode.enter(person.agent.id);
    const plan = '# Migrate\n1. Add the column\n2. Backfill';
    const model = scriptedModel([{ toolCall: { name: 'exit_plan_mode', input: { plan } } }, { text: 'Starting step 1.' }]);
    const result = streamText({
      model,
      tools: { exit_plan_mode: createExitPlanModeTool({ userQuestions: person.userQuestions, agent: person.agent, planMode }) },
      prompt: 'Plan the migration.',
      stopWhen: stepCountIs(3),
    });
    const review = await person.nextQuestion();
    expect(review.questions[0]?.intent).toMatchObject({ kind: 'plan-review' });
    const approve = (review.questions[0]?.intent as { approve: string }).approve;
    await review.answer({ answers: [{ id: review.questions[0]!.id, selected: [approve] }] });

    expect(await result.text).toBe('Starting step 1.');
    expect(planMode.isActive(person.agent.id)).toBe(false);
    const [seen] = toolResultsSeen(model, 1);
    expect(seen).toMatchObject({ type: 'tool-result', toolName: 'exit_plan_mode', output: { type: 'text' } });
  });
});

describe('request_human_input in a ToolLoopAgent', () => {
  it('asks the person and hands the model their answer', async () => {
    person = await personAtHost();
    const model = scriptedModel([{ toolCall: { name: 'request_human_input', input: { question: 'Deploy v1.2.3 to production?', format: 'yes_no' } } }, { text: 'Deploying.' }]);
    const agent = new ToolLoopAgent({
      model,
      tools: { request_human_input: createRequestHumanInputTool({ userQuestions: person.userQuestions, agent: person.agent }) },
      stopWhen: stepCountIs(3),
    });
    const run = agent.generate({ prompt: 'Ship it.' });
    const question = await person.nextQuestion();
    await question.answer({ answers: [{ id: question.questions[0]!.id, selected: ['Yes'] }] });
    const result = await run;

    expect(result.text).toBe('Deploying.');
    expect(toolResultsSeen(model, 1)).toEqual([expect.objectContaining({ output: { type: 'text', value: '{"answer":"Yes"}' } })]);
  });
});

describe('toAiSdkTool with a tool of askseam’s shape that throws', () => {
  it('turns the throw into an error output the model reads, and the loop goes on', async () => {
    const model = scriptedModel([{ toolCall: { name: 'lookup', input: {} } }, { text: 'Lookup failed; carrying on.' }]);
    const lookup = toAiSdkTool(
      {
        name: 'lookup',
        description: 'Looks something up.',
        jsonSchema: { type: 'object', properties: {} },
        execute: async () => {
          throw new Error('directory offline');
        },
      },
      {},
    );
    const result = await generateText({ model, tools: { lookup }, prompt: 'Look it up.', stopWhen: stepCountIs(3) });
    expect(result.text).toBe('Lookup failed; carrying on.');
    expect(toolResultsSeen(model, 1)).toEqual([
      expect.objectContaining({ output: { type: 'error-text', value: expect.stringMatching(/^Error: Asking the user failed: directory offline\n/) } }),
    ]);
  });
});

// One name, one shape (docs/decisions.md): `askUserQuestionTool` and its siblings are askseam's tool
// objects in every package that exports them; a factory that builds a framework's tool is `create…Tool`.
describe('the names of the tool factories', () => {
  const toolObjectNames = ['askUserQuestionTool', 'exitPlanModeTool', 'askClarificationTool', 'requestHumanInputTool', 'requestClarificationTool'];

  it('exports nothing under the name of an askseam tool object, and a create… factory for each', async () => {
    const exported: Record<string, unknown> = await import('../src/index.js');
    for (const name of toolObjectNames) {
      expect(exported, name).not.toHaveProperty(name);
      expect(typeof exported[`create${name[0]!.toUpperCase()}${name.slice(1)}`], name).toBe('function');
    }
  });
});
