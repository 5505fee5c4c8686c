import { afterEach, describe, expect, it } from 'vitest';
import { UserQuestionError, UserQuestions, type AgentRef, type AskUserQuestionRequest } from '@askseam/user-questions';
import { parseTextReply, renderText } from '@askseam/text';
import { requestClarificationTool } from './tools.js';

/**
 * A real seam whose provider is a person in a chat: it renders each request as plain text, keeps
 * what it showed, and answers with the next scripted reply, read the way the text channel reads it.
 */
function chatSeam(replies: string[]) {
  const shown: string[] = [];
  const requests: AskUserQuestionRequest[] = [];
  const userQuestions = new UserQuestions();
  const dispose = userQuestions.registerProvider({
    ask: async (request) => {
      requests.push(request);
      shown.push(renderText(request));
      const reply = replies.shift();
      if (reply === undefined) throw new UserQuestionError('ASK_CANCELLED', 'The person closed the chat.');
      const read = parseTextReply(request, reply);
      if (!read.ok) throw new Error(`The scripted reply does not fit: ${read.problems.map((problem) => problem.message).join(' ')}`);
      return read.answer;
    },
  });
  return { userQuestions, requests, shown, dispose };
}

let dispose = () => {};
afterEach(() => dispose());

const crmCall = {
  tool_name: 'crm_order_lookup_v3',
  goal: 'look up the open orders of a customer',
  known_arguments: { region_cd: 'EU' },
  missing_fields: [
    { name: 'cust_acct_no_v2', label: 'Customer account number', description: 'The number on the customer\'s contract.' },
    { name: 'ord_since_dt', label: 'Earliest order date', description: 'Only orders placed on or after this day.', type: 'date', required: false },
    { name: 'chan_cd_list', label: 'Sales channels', description: 'Where the orders came in.', type: 'multi_select', options: ['Web shop', 'Phone', 'Partner'] },
    { name: 'max_rows_n', label: 'Most orders to list', description: '', type: 'number' },
  ],
};
const internalNames = /crm_order_lookup_v3|region_cd|cust_acct_no_v2|ord_since_dt|chan_cd_list|max_rows_n/i;

describe('request_clarification through the seam', () => {
  it('asks the person, merges the reply into the call and tells the model to run its tool', async () => {
    const seam = chatSeam(['1: 10-4471\n3: 1, 2\n4: 25']);
    dispose = seam.dispose;
    const result = await requestClarificationTool.execute(crmCall, { userQuestions: seam.userQuestions });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.text)).toEqual({
      tool: 'crm_order_lookup_v3',
      arguments: { region_cd: 'EU', cust_acct_no_v2: '10-4471', chan_cd_list: ['Web shop', 'Phone'], max_rows_n: 25 },
      skipped: ['ord_since_dt'],
      next: 'The user gave the missing values and skipped the optional field in "skipped". Call crm_order_lookup_v3 now with exactly these arguments; do not ask for the skipped one again.',
    });
  });

  it('shows the person no internal name anywhere in what reaches the provider', async () => {
    const seam = chatSeam(['1: 10-4471\n3: 1\n4: 25']);
    dispose = seam.dispose;
    await requestClarificationTool.execute(crmCall, { userQuestions: seam.userQuestions });
    expect(JSON.stringify(seam.requests[0]?.questions)).not.toMatch(internalNames);
    expect(seam.shown[0]).not.toMatch(internalNames);
    expect(seam.shown[0]).toContain('What customer account number should I use? (required)');
  });

  it('asks seed 001\'s furnace question in Chinese and merges the chosen furnace', async () => {
    const seam = chatSeam(['11号炉']);
    dispose = seam.dispose;
    const result = await requestClarificationTool.execute(
      {
        tool_name: 'today_furnace_batches',
        question_goal: '查询今天炉次生产情况',
        missing_fields: [{ name: 'fnCode', label: '炉号', description: '需要明确具体炉体', options: ['9号炉', '11号炉', 'A号炉'] }],
      },
      { userQuestions: seam.userQuestions },
    );
    expect(seam.shown[0]).toContain('请问要选择哪个炉号？');
    expect(seam.shown[0]).not.toMatch(/fnCode|today_furnace_batches/);
    expect(result.text).toBe(
      '{"tool":"today_furnace_batches","arguments":{"fnCode":"11号炉"},"next":"The user gave the missing values. Call today_furnace_batches now with exactly these arguments."}',
    );
  });

  it('words the questions with the phrasing step from the context, and still keeps names out', async () => {
    const seam = chatSeam(['1: 10-4471\n3: 2\n4: 5']);
    dispose = seam.dispose;
    const seen: string[] = [];
    await requestClarificationTool.execute(crmCall, {
      userQuestions: seam.userQuestions,
      phrase: async (missing, { tool, lang }) => {
        seen.push(`${tool}/${lang}`);
        // A careless model: it writes the argument name into the second question.
        return missing.map((field, index) => ({ id: field.name, question: index === 1 ? `Value for ${field.name}?` : `May I have the ${field.label.toLowerCase()}?` }));
      },
    });
    expect(seen).toEqual(['crm_order_lookup_v3/en']);
    expect(seam.requests[0]?.questions.map((question) => question.question)).toEqual([
      'May I have the customer account number?',
      'What earliest order date should I use?',
      'May I have the sales channels?',
      'May I have the most orders to list?',
    ]);
    expect(seam.shown[0]).not.toMatch(internalNames);
  });

  it('passes the agent, signal and timeout to the seam, whose gates apply', async () => {
    const seam = chatSeam(['1: x']);
    dispose = seam.dispose;
    const agent: AgentRef = { id: 'sub' };
    // No agent registry: a named agent is not live, so gate 4 answers and nobody is asked.
    const result = await requestClarificationTool.execute(crmCall, { userQuestions: seam.userQuestions, agent, timeoutMs: 1000 });
    expect(result).toMatchObject({ isError: true, code: 'CALLER_NOT_LIVE' });
    expect(seam.requests).toHaveLength(0);

    const aborted = await requestClarificationTool.execute(crmCall, { userQuestions: seam.userQuestions, signal: AbortSignal.abort() });
    expect(aborted).toMatchObject({ isError: true, code: 'ASK_ABORTED' });
  });

  it('returns the seam\'s errors as error results with a hint', async () => {
    const seam = chatSeam([]);
    dispose = seam.dispose;
    const result = await requestClarificationTool.execute(crmCall, { userQuestions: seam.userQuestions });
    expect(result).toMatchObject({ isError: true, code: 'ASK_CANCELLED', text: 'Error: The person closed the chat.\nThe user dismissed the questions. Do not ask again; stop and wait for their next message.' });
  });

  it('refuses a bad call as INVALID_ARGUMENTS, asking nobody', async () => {
    const seam = chatSeam(['1: x']);
    dispose = seam.dispose;
    const result = await requestClarificationTool.execute({ ...crmCall, missing_fields: [] }, { userQuestions: seam.userQuestions });
    expect(result).toEqual({
      isError: true,
      code: 'INVALID_ARGUMENTS',
      text: 'Error: Invalid arguments for request_clarification: missing_fields is empty; if nothing is missing, call crm_order_lookup_v3 directly.\nFix the arguments as described above and call the tool again.',
    });
    expect(seam.requests).toHaveLength(0);
  });

  it('says there is nobody to ask when no seam is given', async () => {
    await expect(requestClarificationTool.execute(crmCall, {})).resolves.toMatchObject({ isError: true, code: 'NO_PROVIDER' });
  });
});

describe('request_clarification in a run without a human', () => {
  it('asks nobody and tells the model to go on with stated assumptions or report what is missing', async () => {
    const seam = chatSeam(['1: x']);
    dispose = seam.dispose;
    const result = await requestClarificationTool.execute(crmCall, { userQuestions: seam.userQuestions, interactive: false });
    expect(result).toEqual({
      isError: false,
      text:
        'Nobody can answer questions in this run (it is not interactive), so the missing arguments of crm_order_lookup_v3 (cust_acct_no_v2, ord_since_dt, chan_cd_list, max_rows_n) were not asked for. ' +
        'Do not wait and do not ask again: if reasonable values can be assumed, call crm_order_lookup_v3 with them and state each assumption clearly; otherwise do not call it, and list what is missing in your final result.',
    });
    expect(seam.requests).toHaveLength(0);
  });

  it('still refuses a bad call, so the model learns to fix it', async () => {
    await expect(requestClarificationTool.execute({ tool_name: 'x' }, { interactive: false })).resolves.toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' });
  });
});
