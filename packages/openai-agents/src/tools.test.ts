// askseam's tools inside the real Agents SDK loop: the real Runner, the SDK's own ScriptedModel
// playing the model, a real host and a real client answering as the person.
import { askClarificationTool as askClarificationSource, requestClarificationTool as requestClarificationSource, requestHumanInputTool as requestHumanInputSource } from '@askseam/clarify';
import { exitPlanModeTool as exitPlanModeSource, PlanMode } from '@askseam/plan-mode';
import { answerText, askUserQuestionTool as askUserQuestionSource } from '@askseam/tool-ask-user';
import { Agent, Runner, type FunctionTool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupPeople, startPerson } from '../test/person.js';
import { createAskClarificationTool, createAskUserQuestionTool, createExitPlanModeTool, createRequestClarificationTool, createRequestHumanInputTool } from './index.js';

afterEach(cleanupPeople);

const runner = new Runner({ tracingDisabled: true });
const colourQuestion = { questions: [{ id: 'colour', question: 'Which colour?', header: 'Colour', multi_select: false, options: [{ label: 'Red', description: 'Warm.' }, { label: 'Blue', description: 'Cool.' }] }] };

/** What the model was sent as the output of call `callId`, on its last call. */
function outputSeen(model: ScriptedModel, callId: string): unknown {
  const input = model.lastCall?.request.input;
  const item = Array.isArray(input) ? input.find((each) => each.type === 'function_call_result' && each.callId === callId) : undefined;
  return item?.type === 'function_call_result' ? item.output : undefined;
}

describe('createAskUserQuestionTool in the real Runner', () => {
  it('asks the person, and the model’s next call reads askseam’s JSON answer', async () => {
    const person = await startPerson();
    const model = new ScriptedModel([[functionCall('ask_user_question', colourQuestion, { callId: 'call-1' })], [assistantMessage('Blue it is.')]]);
    const agent = new Agent({ name: 'coder', model, tools: [createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent })] });

    const run = runner.run(agent, 'Paint the shed.');
    const question = await person.nextQuestion();
    expect(question.questions[0]?.question).toBe('Which colour?');
    await question.answer({ answers: [{ id: question.questions[0]!.id, selected: ['Blue'] }] });
    const result = await run;

    expect(result.finalOutput).toBe('Blue it is.');
    expect(outputSeen(model, 'call-1')).toEqual({ type: 'text', text: answerText({ answers: [{ id: 'colour', selected: ['Blue'] }] }) });
    model.assertComplete();
  });

  it('sends the model askseam’s strict schema in strict mode', async () => {
    const person = await startPerson();
    const model = new ScriptedModel([[assistantMessage('Nothing to ask.')]]);
    const agent = new Agent({ name: 'coder', model, tools: [createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent })] });
    await runner.run(agent, 'Hi.');
    const sent = model.firstCall?.request.tools.find((each) => each.name === 'ask_user_question');
    expect(sent).toMatchObject({ type: 'function', strict: true, description: askUserQuestionSource.description, parameters: askUserQuestionSource.strictJsonSchema });
  });

  it('answers a malformed call with askseam’s corrective text, and asks nobody', async () => {
    const person = await startPerson();
    const bad = { questions: [{ id: 'colour', question: 'Which colour?', header: 'Colour', multiSelect: false, options: [{ label: 'Red', description: 'Warm.' }, { label: 'Blue', description: 'Cool.' }] }] };
    const model = new ScriptedModel([[functionCall('ask_user_question', bad, { callId: 'call-bad' })], [assistantMessage('I will fix the call.')]]);
    const agent = new Agent({ name: 'coder', model, tools: [createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent })] });

    await runner.run(agent, 'Paint the shed.');

    const corrective = await askUserQuestionSource.execute(bad, { userQuestions: person.userQuestions, agent: person.agent });
    expect(corrective.isError).toBe(true);
    expect(corrective.text).toMatch(/^Error: /);
    expect(outputSeen(model, 'call-bad')).toEqual({ type: 'text', text: corrective.text });
    expect(person.shown).toEqual([]);
  });

  it('withdraws the waiting question when the run is aborted', async () => {
    const person = await startPerson();
    const model = new ScriptedModel([[functionCall('ask_user_question', colourQuestion, { callId: 'call-1' })]]);
    const agent = new Agent({ name: 'coder', model, tools: [createAskUserQuestionTool({ userQuestions: person.userQuestions, agent: person.agent })] });
    const controller = new AbortController();

    const run = runner.run(agent, 'Paint the shed.', { signal: controller.signal });
    run.catch(() => undefined);
    const question = await person.nextQuestion();
    controller.abort();

    await expect(run).rejects.toThrow();
    await expect.poll(() => person.resolved).toEqual([expect.objectContaining({ rpcId: question.rpcId, outcome: 'cancelled' })]);
    expect(person.host.pending()).toEqual([]);
  });
});

describe('the plan-mode and clarify tools', () => {
  it('offers exit_plan_mode in strict mode with its schema, and ends plan mode on approval', async () => {
    const person = await startPerson();
    const planMode = new PlanMode();
    planMode.enter(person.agent.id);
    const plan = '# Paint the shed\n1. Sand it.\n2. Paint it blue.';
    const model = new ScriptedModel([[functionCall('exit_plan_mode', { plan }, { callId: 'call-plan' })], [assistantMessage('Starting.')]]);
    const agent = new Agent({ name: 'coder', model, tools: [createExitPlanModeTool({ userQuestions: person.userQuestions, agent: person.agent, planMode })] });

    const run = runner.run(agent, 'Plan first.');
    const review = await person.nextQuestion();
    await review.answer({ answers: [{ id: review.questions[0]!.id, selected: [review.questions[0]!.options![0]!.label] }] });
    await run;

    expect(model.firstCall?.request.tools.find((each) => each.name === 'exit_plan_mode')).toMatchObject({ strict: true, parameters: exitPlanModeSource.jsonSchema });
    expect(planMode.isActive(person.agent.id)).toBe(false);
  });

  it('offers the clarify tools with their plain schemas, not strict', () => {
    const context = { userQuestions: { ask: async () => ({ answers: [] }) } };
    const pairs: [FunctionTool, { name: string; jsonSchema: object }][] = [
      [createAskClarificationTool(context), askClarificationSource],
      [createRequestHumanInputTool(context), requestHumanInputSource],
      [createRequestClarificationTool(context), requestClarificationSource],
    ];
    for (const [made, source] of pairs) {
      expect({ name: made.name, strict: made.strict, parameters: made.parameters }).toEqual({ name: source.name, strict: false, parameters: source.jsonSchema });
    }
  });
});

// One name, one shape (docs/decisions.md): `askUserQuestionTool` and its siblings are askseam's tool
// objects in every package that exports them; a factory that builds a framework's tool is `create…Tool`.
describe('the names of the tool factories', () => {
  const toolObjectNames = ['askUserQuestionTool', 'exitPlanModeTool', 'askClarificationTool', 'requestHumanInputTool', 'requestClarificationTool'];

  it('exports nothing under the name of an askseam tool object, and a create… factory for each', async () => {
    const exported: Record<string, unknown> = await import('./index.js');
    for (const name of toolObjectNames) {
      expect(exported, name).not.toHaveProperty(name);
      expect(typeof exported[`create${name[0]!.toUpperCase()}${name.slice(1)}`], name).toBe('function');
    }
  });
});
