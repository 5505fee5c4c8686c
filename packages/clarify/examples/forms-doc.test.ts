import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTextReply, renderText } from '@askseam/text';
import { UserQuestions } from '@askseam/user-questions';
import {
  askClarificationToolDescription,
  nonInteractiveClarificationText,
  prepareRequestClarification,
  requestClarificationTool,
  requestClarificationToolDescription,
  type PreparedClarification,
  clarificationResultText,
  compileAskClarification,
  compileRequestHumanInput,
  nonInteractiveText,
  requestHumanInputToolDescription,
  type CompiledClarification,
  type CompileResult,
} from '@askseam/clarify';
import { approvalAnswer, approvalCall, formAnswer, formCall, formReply, ordersCall, ordersReply } from './exchanges.js';

// docs/forms.md and its one page per tool shape (docs/tools/) quote code and exchanges; every
// block must be what the code is and does.
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const pages = ['docs/forms.md', 'docs/tools/ask-clarification.md', 'docs/tools/request-human-input.md', 'docs/tools/request-clarification.md'];
const page = pages.map((path) => read(`../../../${path}`)).join('\n');
const blocks = (lang: string) => [...page.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => (match[1] ?? '').trimEnd());
function compiled(result: CompileResult): CompiledClarification {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

async function prepared(call: unknown): Promise<PreparedClarification> {
  const result = await prepareRequestClarification(call);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** request_clarification's exchange as it really runs: the tool, a real seam, a person replying in text. */
async function ordersExchange(): Promise<{ shown: string; result: string }> {
  const userQuestions = new UserQuestions();
  let shown = '';
  const dispose = userQuestions.registerProvider({
    ask: async (request) => {
      shown = renderText(request);
      const read = parseTextReply(request, ordersReply);
      if (!read.ok) throw new Error(read.problems.map((problem) => problem.message).join(' '));
      return read.answer;
    },
  });
  try {
    const result = await requestClarificationTool.execute(ordersCall, { userQuestions });
    return { shown, result: result.text };
  } finally {
    dispose();
  }
}

describe('docs/forms.md and docs/tools/', () => {
  const form = compiled(compileAskClarification(formCall));
  const approval = compiled(compileRequestHumanInput(approvalCall));
  const formReplyRead = parseTextReply(form.request, formReply);

  it('shows only texts the code really writes', async () => {
    const orders = await prepared(ordersCall);
    const written = [
      askClarificationToolDescription,
      requestHumanInputToolDescription,
      nonInteractiveText('Deploy to production?'),
      form.text,
      formReply,
      approval.text,
      requestClarificationToolDescription,
      orders.text,
      ordersReply,
      nonInteractiveClarificationText(orders.pending),
    ];
    for (const block of blocks('text')) expect(written, block).toContain(block);
  });

  it('shows only calls, payloads and results of the exchanges the tests run', async () => {
    const orders = await prepared(ordersCall);
    const ordersRun = await ordersExchange();
    expect(formReplyRead).toEqual({ ok: true, answer: formAnswer });
    const shown = [
      formCall,
      { ...form.humanInput, text: `${form.text.split('\n').slice(0, 3).join('\n')}\n\n…` },
      JSON.parse(clarificationResultText(form, formAnswer)) as unknown,
      approvalCall,
      JSON.parse(clarificationResultText(approval, approvalAnswer)) as unknown,
      ordersCall,
      JSON.parse(ordersRun.result) as unknown,
    ];
    const jsonBlocks = blocks('json');
    expect(jsonBlocks).toHaveLength(shown.length);
    jsonBlocks.forEach((block, index) => expect(JSON.parse(block), block).toEqual(shown[index]));
    expect(approval.request.urgency).toBe('high');
    expect(ordersRun.shown).toBe(orders.text);
  });
});
