import { afterEach, describe, expect, it } from 'vitest';
import { UserQuestionError, UserQuestions, type AgentRef, type AskUserQuestionAnswer, type AskUserQuestionRequest } from '@askseam/user-questions';
import { askClarificationTool, requestHumanInputTool } from './tools.js';

/** A real seam whose provider answers from `reply` and keeps each request it got. */
function seamAnswering(reply: (request: AskUserQuestionRequest) => AskUserQuestionAnswer | Promise<AskUserQuestionAnswer>) {
  const requests: AskUserQuestionRequest[] = [];
  const userQuestions = new UserQuestions();
  const dispose = userQuestions.registerProvider({
    ask: async (request) => {
      requests.push(request);
      return reply(request);
    },
  });
  return { userQuestions, requests, dispose };
}

let dispose = () => {};
afterEach(() => dispose());

describe('ask_clarification through the seam', () => {
  it('asks the compiled form and hands the model typed values by field name', async () => {
    const seam = seamAnswering(() => ({
      answers: [
        { id: 'project_name', selected: [], custom: 'demo' },
        { id: 'framework', selected: ['React'] },
        { id: 'init_git', selected: [], custom: 'false' },
      ],
    }));
    dispose = seam.dispose;
    const result = await askClarificationTool.execute(
      {
        question: 'Please complete the project setup',
        clarification_type: 'missing_info',
        fields: [
          { name: 'project_name', label: 'Project name', type: 'text', required: true },
          { name: 'framework', label: 'Framework', type: 'select', options: ['React', 'Vue'] },
          { name: 'init_git', label: 'Initialise Git', type: 'checkbox' },
        ],
      },
      { userQuestions: seam.userQuestions },
    );
    expect(result).toEqual({ isError: false, text: '{"answers":{"project_name":"demo","framework":"React","init_git":false}}' });
    expect(seam.requests[0]?.questions.map((q) => q.id)).toEqual(['project_name', 'framework', 'init_git']);
  });

  it('answers a single choice as {"answer": label}', async () => {
    const seam = seamAnswering(() => ({ answers: [{ id: 'answer', selected: ['HTML'] }] }));
    dispose = seam.dispose;
    const result = await askClarificationTool.execute('{"question":"Markdown or HTML?","clarification_type":"approach_choice","options":"Markdown\\nHTML"}', {
      userQuestions: seam.userQuestions,
    });
    expect(result).toEqual({ isError: false, text: '{"answer":"HTML"}' });
  });

  it('tells the model when the user skipped the question', async () => {
    const seam = seamAnswering(() => ({ answers: [{ id: 'answer', selected: [] }] }));
    dispose = seam.dispose;
    const result = await askClarificationTool.execute({ question: 'Any preference?', clarification_type: 'suggestion' }, { userQuestions: seam.userQuestions });
    expect(JSON.parse(result.text)).toEqual({ answer: null, note: expect.stringContaining('skipped') });
  });

  it('passes the agent, signal and timeout to the seam, whose gates apply', async () => {
    const seam = seamAnswering(() => ({ answers: [{ id: 'answer', selected: [] }] }));
    dispose = seam.dispose;
    const agent: AgentRef = { id: 'sub' };
    // The seam has no agent registry, so a named agent is not live: gate 4 answers, not the provider.
    const result = await askClarificationTool.execute({ question: 'Which?' }, { userQuestions: seam.userQuestions, agent, timeoutMs: 1000 });
    expect(result).toMatchObject({ isError: true, code: 'CALLER_NOT_LIVE' });
    expect(seam.requests).toHaveLength(0);
  });

  it('returns the seam\'s errors as error results with a hint', async () => {
    const seam = seamAnswering(() => {
      throw new UserQuestionError('ASK_CANCELLED', 'The user dismissed the questions.');
    });
    dispose = seam.dispose;
    const result = await askClarificationTool.execute({ question: 'Which?' }, { userQuestions: seam.userQuestions });
    expect(result).toMatchObject({ isError: true, code: 'ASK_CANCELLED', text: expect.stringMatching(/^Error: The user dismissed the questions\.\n/) });
  });

  it('refuses a call without a question as INVALID_ARGUMENTS, asking nobody', async () => {
    const seam = seamAnswering(() => ({ answers: [] }));
    dispose = seam.dispose;
    const result = await askClarificationTool.execute({ clarification_type: 'missing_info', options: ['A'] }, { userQuestions: seam.userQuestions });
    expect(result).toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' });
    expect(seam.requests).toHaveLength(0);
  });

  it('says there is nobody to ask when no seam is given', async () => {
    await expect(askClarificationTool.execute({ question: 'Which?' }, {})).resolves.toMatchObject({ isError: true, code: 'NO_PROVIDER' });
  });
});

describe('non-interactive runs', () => {
  it.each([
    ['ask_clarification', askClarificationTool],
    ['request_human_input', requestHumanInputTool],
  ] as const)('%s asks nobody and tells the model to proceed on stated assumptions', async (_name, tool) => {
    const seam = seamAnswering(() => ({ answers: [] }));
    dispose = seam.dispose;
    const result = await tool.execute({ question: 'Deploy to production?' }, { userQuestions: seam.userQuestions, interactive: false });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('"Deploy to production?" was not asked');
    expect(result.text).toContain('state it clearly');
    expect(seam.requests).toHaveLength(0);
  });
});

describe('request_human_input through the seam', () => {
  it('carries the urgency to the provider and answers with the chosen label', async () => {
    const seam = seamAnswering(() => ({ answers: [{ id: 'answer', selected: ['Yes'] }] }));
    dispose = seam.dispose;
    const result = await requestHumanInputTool.execute(
      { question: 'Deploy v1.2.3 to production?', context: 'Real users are affected.', urgency: 'high', format: 'yes_no' },
      { userQuestions: seam.userQuestions },
    );
    expect(result).toEqual({ isError: false, text: '{"answer":"Yes"}' });
    expect(seam.requests[0]?.urgency).toBe('high');
  });

  it('answers free text with the person\'s words', async () => {
    const seam = seamAnswering(() => ({ answers: [{ id: 'answer', selected: [], custom: 'After 6pm, please.' }] }));
    dispose = seam.dispose;
    const result = await requestHumanInputTool.execute({ question: 'When may I deploy?' }, { userQuestions: seam.userQuestions });
    expect(result.text).toBe('{"answer":"After 6pm, please."}');
  });
});
