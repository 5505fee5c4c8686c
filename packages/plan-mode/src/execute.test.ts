import { askToolErrorHints } from '@askseam/tool-ask-user';
import { UserQuestionError, UserQuestions, type AgentRef, type AskUserQuestionAnswer } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { agentRegistry, scriptedProvider, waitForAbort, type ScriptedProvider } from '@askseam/user-questions/testing';
import { executeExitPlanMode, type ExitPlanModeContext } from './execute.js';
import { planModeErrorHints } from './hints.js';
import { PlanMode } from './plan-mode.js';

const plan = '# Add login\n\n1. Add a `/login` route.\n2. Store sessions in Redis.\n';

const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

interface Setup {
  agent: AgentRef;
  planMode: PlanMode;
  provider: ScriptedProvider;
  context: ExitPlanModeContext;
}

/** A real seam with one root agent in plan mode, answered by `reply`. */
function planning(reply: Parameters<typeof scriptedProvider>[0], options: { delegated?: boolean } = {}): Setup {
  const agent: AgentRef = { id: 'main' };
  const registry = options.delegated ? agentRegistry([{ id: 'boss' }], [agent]) : agentRegistry([agent]);
  const userQuestions = new UserQuestions({ agents: registry });
  const provider = scriptedProvider(reply);
  disposers.push(userQuestions.registerProvider(provider));
  const planMode = new PlanMode();
  planMode.enter(agent.id);
  return { agent, planMode, provider, context: { userQuestions, agent, planMode } };
}

function answering(item: AskUserQuestionAnswer['answers'][number]) {
  return () => ({ answers: [item] });
}

describe('exit_plan_mode asks for a review', () => {
  it('asks exactly one plan-review question carrying the plan, for the calling agent', async () => {
    const { provider, context, agent } = planning(answering({ id: 'plan-review', selected: ['Keep planning'] }));
    await executeExitPlanMode({ plan }, context);
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]?.agent).toBe(agent);
    expect(provider.requests[0]?.questions).toEqual([
      {
        id: 'plan-review',
        question: 'Approve this plan and start implementing?',
        header: 'Plan review',
        detail: plan,
        options: [
          { label: 'Approve', description: 'Leave plan mode and implement the plan as written.' },
          { label: 'Keep planning', description: 'Stay in plan mode and refine the plan first.' },
        ],
        intent: { kind: 'plan-review', approve: 'Approve' },
      },
    ]);
  });

  it('accepts the arguments as JSON text', async () => {
    const { provider, context } = planning(answering({ id: 'plan-review', selected: ['Keep planning'] }));
    await executeExitPlanMode(JSON.stringify({ plan }), context);
    expect(provider.requests[0]?.questions[0]?.detail).toBe(plan);
  });

  it('accepts a plan whose title follows blank lines', async () => {
    const { provider, context } = planning(answering({ id: 'plan-review', selected: ['Keep planning'] }));
    const result = await executeExitPlanMode({ plan: '\n  \n# Title\nstep' }, context);
    expect(result.isError).toBe(false);
    expect(provider.requests).toHaveLength(1);
  });
});

describe('exit_plan_mode consent', () => {
  it('ends plan mode and tells the model to implement when the user approves', async () => {
    const { planMode, context, agent } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    const result = await executeExitPlanMode({ plan }, context);
    expect(result).toEqual({ isError: false, text: 'The user approved the plan. Plan mode is off: implement the plan as written.' });
    expect(planMode.isActive(agent.id)).toBe(false);
  });

  it('approves only one of two reviews that were open at once: the second approval changes nothing', async () => {
    const { planMode, context, agent } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    const otherPlan = '# Rewrite everything\n\n1. Start over.\n';
    const [first, second] = await Promise.all([executeExitPlanMode({ plan }, context), executeExitPlanMode({ plan: otherPlan }, context)]);
    expect(first).toEqual({ isError: false, text: 'The user approved the plan. Plan mode is off: implement the plan as written.' });
    expect(second).toMatchObject({ isError: true, code: 'NOT_IN_PLAN_MODE' });
    expect(second.text).toContain('left plan mode while this plan was under review');
    expect(planMode.isActive(agent.id)).toBe(false);
  });

  it('ends plan mode only for the calling agent', async () => {
    const { planMode, context } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    planMode.enter('other');
    await executeExitPlanMode({ plan }, context);
    expect(planMode.isActive('other')).toBe(true);
  });

  it('keeps planning when the user chooses "Keep planning"', async () => {
    const { planMode, context, agent } = planning(answering({ id: 'plan-review', selected: ['Keep planning'] }));
    const result = await executeExitPlanMode({ plan }, context);
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^The user did not approve the plan\. You are still in plan mode: do not start implementing\./);
    expect(planMode.isActive(agent.id)).toBe(true);
  });

  it('keeps planning when the user skips the review', async () => {
    const { planMode, context, agent } = planning(answering({ id: 'plan-review', selected: [] }));
    const result = await executeExitPlanMode({ plan }, context);
    expect(result.text).toContain('You are still in plan mode');
    expect(planMode.isActive(agent.id)).toBe(true);
  });

  it('keeps planning and passes the user’s feedback on word for word', async () => {
    const feedback = 'Use Postgres, not Redis.\n\n- keep `/login` **rate-limited**\n- "quotes" & <tags> stay as typed';
    const { planMode, context, agent } = planning(answering({ id: 'plan-review', selected: [], custom: feedback }));
    const result = await executeExitPlanMode({ plan }, context);
    expect(result).toEqual({
      isError: false,
      text: `The user did not approve the plan yet and wrote:\n\n${feedback}\n\nYou are still in plan mode: revise the plan with this feedback, then call exit_plan_mode again.`,
    });
    expect(planMode.isActive(agent.id)).toBe(true);
  });
});

describe('exit_plan_mode checks, in order', () => {
  it('needs a calling agent', async () => {
    const { provider, context } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    const result = await executeExitPlanMode({ plan }, { ...context, agent: undefined });
    expect(result).toMatchObject({ isError: true, code: 'NO_AGENT' });
    expect(result.text.endsWith(`\n${planModeErrorHints.NO_AGENT}`)).toBe(true);
    expect(provider.requests).toHaveLength(0);
  });

  it('needs plan mode to be on for that agent', async () => {
    const { provider, context, planMode, agent } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    planMode.exit(agent.id);
    const result = await executeExitPlanMode({ plan }, context);
    expect(result).toEqual({
      isError: true,
      code: 'NOT_IN_PLAN_MODE',
      text: `Error: Agent "main" is not in plan mode.\n${planModeErrorHints.NOT_IN_PLAN_MODE}`,
    });
    expect(provider.requests).toHaveLength(0);
  });

  const badArguments: Array<[string, unknown, string]> = [
    ['a missing plan', {}, 'plan is missing'],
    ['a plan that is not text', { plan: ['# Title'] }, 'plan must be a string of Markdown, not an array'],
    ['an unknown field', { plan, approve: true }, 'unknown field "approve"'],
    ['no arguments object', null, 'must be an object {"plan": "..."}, not null'],
    ['JSON text that does not parse', '{"plan": ', 'not valid JSON'],
  ];

  it.each(badArguments)('refuses %s with INVALID_ARGUMENTS', async (_case, args, fix) => {
    const { provider, context } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    const result = await executeExitPlanMode(args, context);
    expect(result).toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' });
    expect(result.text).toContain(fix);
    expect(result.text.endsWith(`\n${askToolErrorHints.INVALID_ARGUMENTS}`)).toBe(true);
    expect(provider.requests).toHaveLength(0);
  });

  const badPlans: Array<[string, string, string]> = [
    ['an empty plan', '  \n\n', 'The plan is empty.'],
    ['a plan without a title', 'Add a login route.', 'its first line is "Add a login route."'],
    ['a plan that starts with a second-level heading', '## Steps\n1. Do it', 'its first line is "## Steps"'],
    ['a title without the space', '#Login', 'its first line is "#Login"'],
    ['a title with no text', '# \n1. Do it', 'its first line is "#"'],
  ];

  it.each(badPlans)('refuses %s with INVALID_PLAN', async (_case, badPlan, why) => {
    const { provider, context, planMode, agent } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    const result = await executeExitPlanMode({ plan: badPlan }, context);
    expect(result).toMatchObject({ isError: true, code: 'INVALID_PLAN' });
    expect(result.text).toContain(why);
    expect(result.text.endsWith(`\n${planModeErrorHints.INVALID_PLAN}`)).toBe(true);
    expect(provider.requests).toHaveLength(0);
    expect(planMode.isActive(agent.id)).toBe(true);
  });

  it('needs a seam', async () => {
    const { context } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    const result = await executeExitPlanMode({ plan }, { ...context, userQuestions: undefined });
    expect(result).toMatchObject({ isError: true, code: 'NO_SEAM' });
  });

  it('reports a missing agent before a plan-mode problem or a bad plan', async () => {
    const { context } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    const planMode = new PlanMode();
    expect(await executeExitPlanMode({ plan: 'no title' }, { ...context, agent: undefined, planMode })).toMatchObject({ code: 'NO_AGENT' });
  });

  it('reports plan mode being off before a bad plan', async () => {
    const { context } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    expect(await executeExitPlanMode({ plan: 'no title' }, { ...context, planMode: new PlanMode() })).toMatchObject({ code: 'NOT_IN_PLAN_MODE' });
  });

  it('reports a bad plan before a missing seam', async () => {
    const { context } = planning(answering({ id: 'plan-review', selected: ['Approve'] }));
    expect(await executeExitPlanMode({ plan: 'no title' }, { ...context, userQuestions: undefined })).toMatchObject({ code: 'INVALID_PLAN' });
  });
});

describe('exit_plan_mode review failures', () => {
  it('rewrites a dismissed review: the user wants to speak, so stay in plan mode and wait', async () => {
    const { context, planMode, agent } = planning(() => {
      throw new UserQuestionError('ASK_CANCELLED', 'The user dismissed the questions.');
    });
    const result = await executeExitPlanMode({ plan }, context);
    expect(result).toEqual({
      isError: true,
      code: 'ASK_CANCELLED',
      text: 'Error: The user dismissed the plan review to speak instead.\nStay in plan mode and wait for their message.',
    });
    expect(result.text).not.toContain('ask_user_question');
    expect(planMode.isActive(agent.id)).toBe(true);
  });

  it('keeps the seam’s message for other errors, with the tool hint and a note that the plan was not approved', async () => {
    const agent: AgentRef = { id: 'main' };
    const planMode = new PlanMode();
    planMode.enter(agent.id);
    const result = await executeExitPlanMode({ plan }, { userQuestions: new UserQuestions({ agents: agentRegistry([agent]) }), agent, planMode });
    expect(result).toEqual({
      isError: true,
      code: 'NO_PROVIDER',
      text:
        'Error: No user-question provider is registered, so there is no one to ask.\n' +
        `${askToolErrorHints.NO_PROVIDER}\nThe plan was not approved; you are still in plan mode.`,
    });
    expect(planMode.isActive(agent.id)).toBe(true);
  });

  it('returns DELEGATED_CALLER unchanged for a delegated agent', async () => {
    const { context, provider } = planning(answering({ id: 'plan-review', selected: ['Approve'] }), { delegated: true });
    const result = await executeExitPlanMode({ plan }, context);
    expect(result).toMatchObject({ isError: true, code: 'DELEGATED_CALLER' });
    expect(result.text).toMatch(/^Error: Agent "main" is a delegated agent/);
    expect(provider.requests).toHaveLength(0);
  });

  it('passes the signal through, so aborting withdraws the review with ASK_ABORTED', async () => {
    const controller = new AbortController();
    const { context, planMode, agent } = planning((request) => {
      queueMicrotask(() => controller.abort());
      return waitForAbort(request);
    });
    const result = await executeExitPlanMode({ plan }, { ...context, signal: controller.signal });
    expect(result).toMatchObject({ isError: true, code: 'ASK_ABORTED' });
    expect(planMode.isActive(agent.id)).toBe(true);
  });

  it('passes timeoutMs through, so an unanswered review ends with ASK_TIMEOUT', async () => {
    const { context, provider } = planning(waitForAbort);
    const result = await executeExitPlanMode({ plan }, { ...context, timeoutMs: 5 });
    expect(provider.requests[0]?.timeoutMs).toBe(5);
    expect(result).toMatchObject({ isError: true, code: 'ASK_TIMEOUT' });
  });

  it('keeps the message of a provider that throws a plain error', async () => {
    const { context } = planning(() => {
      throw new Error('browser tab closed');
    });
    const result = await executeExitPlanMode({ plan }, context);
    expect(result).toMatchObject({ isError: true, code: 'PROVIDER_FAILED', text: expect.stringContaining('browser tab closed') });
  });

  it('returns BAD_ANSWER, and stays in plan mode, when a provider approves with words beside the choice', async () => {
    // Single-select: "Approve" plus custom text does not fit the question, so the seam refuses it.
    const { context, planMode, agent } = planning(answering({ id: 'plan-review', selected: ['Approve'], custom: 'but hurry' }));
    const result = await executeExitPlanMode({ plan }, context);
    expect(result).toMatchObject({ isError: true, code: 'BAD_ANSWER' });
    expect(planMode.isActive(agent.id)).toBe(true);
  });
});
