import { describe, expect, it } from 'vitest';
import { prepareRequestClarification, type PreparedClarification } from '@askseam/clarify';
import { furnaceCall, ordersCall } from './exchanges.js';
import { llmPhrase } from './llm-phrase.js';

// A stand-in for the model behind the phrasing step: it keeps each prompt and answers from a script.
function scriptedModel(reply: string) {
  const prompts: string[] = [];
  const complete = async (prompt: string) => {
    prompts.push(prompt);
    return reply;
  };
  return { prompts, complete };
}

async function prepare(call: unknown, reply: string): Promise<{ prepared: PreparedClarification; prompts: string[] }> {
  const model = scriptedModel(reply);
  const result = await prepareRequestClarification(call, { phrase: llmPhrase(model.complete) });
  if (!result.ok) throw new Error(result.error.message);
  return { prepared: result.value, prompts: model.prompts };
}

describe('an LLM as the phrasing step', () => {
  it('words the questions the way the model wrote them', async () => {
    const { prepared } = await prepare(furnaceCall, '["请问您想查询哪台炉的生产情况？例如 9号炉、11号炉 或 A号炉。", "需要只看某一班吗？请填 1 到 3。"]');
    expect(prepared.request.questions.map((question) => question.question)).toEqual(['请问您想查询哪台炉的生产情况？例如 9号炉、11号炉 或 A号炉。', '需要只看某一班吗？请填 1 到 3。']);
    expect(prepared.phraseProblems).toEqual([]);
  });

  it('never puts an argument or tool name into the prompt', async () => {
    const { prompts } = await prepare(ordersCall, '["a?", "b?", "c?"]');
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('1. Customer account number: The number printed on the customer\'s contract.');
    expect(prompts[0]).not.toMatch(/crm_order_lookup|cust_acct_no_v2|since_dt|chan_codes|include_closed/);
  });

  it('falls back to the default wording when the model answers with something else', async () => {
    const { prepared } = await prepare(furnaceCall, 'Sure! Here are your questions:');
    expect(prepared.phraseProblems).toEqual([expect.stringMatching(/^The phrasing step failed \(.*JSON.*\); the default wording was used\.$/)]);
    expect(prepared.request.questions[0]?.question).toBe('请问要选择哪个炉号？');
  });
});
