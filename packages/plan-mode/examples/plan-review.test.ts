import type { AskUserQuestionAnswer, UserQuestionProvider } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlanningAgent } from './plan-review.js';

const agents: Array<{ dispose(): void }> = [];
afterEach(() => {
  for (const agent of agents.splice(0)) agent.dispose();
});

/** A person at the other end, scripted: they answer the plan review with `answer`. */
function reviewer(answer: AskUserQuestionAnswer['answers'][number]): UserQuestionProvider {
  return { ask: async () => ({ answers: [answer] }) };
}

function planningAgent(provider: UserQuestionProvider) {
  const created = createPlanningAgent(provider);
  agents.push(created);
  return created;
}

const plan = JSON.stringify({ plan: '# Add login\n\n1. Add the route.\n2. Add the form.' });

describe('the plan review example', () => {
  it('offers both tools to the model', () => {
    expect(planningAgent(reviewer({ id: 'plan-review', selected: [] })).tools.map((tool) => tool.function.name)).toEqual([
      'ask_user_question',
      'exit_plan_mode',
    ]);
  });

  it('leaves plan mode when the user approves', async () => {
    const { handleToolCall, planMode, agent } = planningAgent(reviewer({ id: 'plan-review', selected: ['Approve'] }));
    const result = await handleToolCall('exit_plan_mode', plan);
    expect(result?.isError).toBe(false);
    expect(planMode.isActive(agent.id)).toBe(false);
  });

  it('keeps planning and hands the model the user’s feedback', async () => {
    const { handleToolCall, planMode, agent } = planningAgent(reviewer({ id: 'plan-review', selected: [], custom: 'Add tests first.' }));
    const result = await handleToolCall('exit_plan_mode', plan);
    expect(result?.text).toContain('\n\nAdd tests first.\n\n');
    expect(planMode.isActive(agent.id)).toBe(true);
  });

  it('still answers ordinary questions while planning', async () => {
    const { handleToolCall } = planningAgent(reviewer({ id: 'scope', selected: [], custom: 'Only the web app.' }));
    const result = await handleToolCall('ask_user_question', JSON.stringify({ questions: [{ id: 'scope', question: 'Which apps are in scope?' }] }));
    expect(result?.text).toBe('{"answers":[{"id":"scope","selected":[],"custom":"Only the web app."}]}');
  });
});
