import { afterEach, describe, expect, it } from 'vitest';
import { UserQuestions, type AgentRef } from '@askseam/user-questions';
import { clarifyTools, runClarifyCall } from './model-loop.js';

describe('the clarification tools in a model loop', () => {
  let dispose = () => {};
  afterEach(() => dispose());

  const agent: AgentRef = { id: 'main' };
  const userQuestions = new UserQuestions({ agents: { get: (id) => (id === agent.id ? agent : undefined), roots: () => [agent] } });

  it('offers both tools as OpenAI-style function tools', () => {
    expect(clarifyTools.map((tool) => tool.function.name)).toEqual(['ask_clarification', 'request_human_input']);
  });

  it('runs a call the model made and returns the tool message', async () => {
    dispose = userQuestions.registerProvider({ ask: async () => ({ answers: [{ id: 'answer', selected: ['HTML'] }] }) });
    const call = { id: 'call_1', function: { name: 'ask_clarification', arguments: '{"question":"Markdown or HTML?","clarification_type":"approach_choice","options":["Markdown","HTML"]}' } };
    await expect(runClarifyCall(call, userQuestions, agent)).resolves.toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"answer":"HTML"}' });
  });

  it('leaves calls of other tools alone', async () => {
    await expect(runClarifyCall({ id: 'c', function: { name: 'search', arguments: '{}' } }, userQuestions, agent)).resolves.toBeUndefined();
  });
});
