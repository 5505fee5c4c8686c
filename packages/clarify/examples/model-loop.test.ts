import { afterEach, describe, expect, it } from 'vitest';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { clarifyTools, runClarifyCall } from './model-loop.js';

describe('the clarification tools in a model loop', () => {
  let dispose = () => {};
  afterEach(() => dispose());

  const agent: AgentRef = { id: 'main' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });

  it('offers the three tools as OpenAI-style function tools', () => {
    expect(clarifyTools.map((tool) => tool.function.name)).toEqual(['ask_clarification', 'request_human_input', 'request_clarification']);
  });

  it('runs a call the model made and returns the tool message', async () => {
    dispose = userQuestions.registerProvider({ ask: async () => ({ answers: [{ id: 'answer', selected: ['HTML'] }] }) });
    const call = { id: 'call_1', function: { name: 'ask_clarification', arguments: '{"question":"Markdown or HTML?","clarification_type":"approach_choice","options":["Markdown","HTML"]}' } };
    await expect(runClarifyCall(call, userQuestions, agent)).resolves.toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"answer":"HTML"}' });
  });

  it('runs a request_clarification call and hands back the merged arguments', async () => {
    dispose = userQuestions.registerProvider({ ask: async () => ({ answers: [{ id: 'field-1', selected: ['9号炉'] }] }) });
    const args = { tool_name: 'today_furnace_batches', goal: '查询今天炉次生产情况', missing_fields: [{ name: 'fnCode', label: '炉号', description: '需要明确具体炉体', options: ['9号炉', '11号炉'] }] };
    const message = await runClarifyCall({ id: 'call_2', function: { name: 'request_clarification', arguments: JSON.stringify(args) } }, userQuestions, agent);
    expect(JSON.parse(message?.content ?? '{}')).toMatchObject({ tool: 'today_furnace_batches', arguments: { fnCode: '9号炉' } });
  });

  it('leaves calls of other tools alone', async () => {
    await expect(runClarifyCall({ id: 'c', function: { name: 'search', arguments: '{}' } }, userQuestions, agent)).resolves.toBeUndefined();
  });
});
