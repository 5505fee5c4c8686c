import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTextReply } from '@askseam/text';
import {
  askClarificationToolDescription,
  clarificationResultText,
  compileAskClarification,
  compileRequestHumanInput,
  nonInteractiveText,
  requestHumanInputToolDescription,
  type CompiledClarification,
  type CompileResult,
} from '@askseam/clarify';
import { approvalAnswer, approvalCall, formAnswer, formCall, formReply } from './exchanges.js';

// docs/forms.md quotes code and exchanges; every block must be what the code is and does.
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const page = read('../../../docs/forms.md');
const blocks = (lang: string) => [...page.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => (match[1] ?? '').trimEnd());
const normalise = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');

const sourceDirs = ['text/examples', 'text/src', 'clarify/examples', 'clarify/src', 'provider-terminal/examples', 'provider-terminal/src'];
const sources = sourceDirs.flatMap((dir) =>
  readdirSync(new URL(`../../${dir}/`, import.meta.url))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => read(`../../${dir}/${name}`)),
);

function compiled(result: CompileResult): CompiledClarification {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('docs/forms.md', () => {
  const form = compiled(compileAskClarification(formCall));
  const approval = compiled(compileRequestHumanInput(approvalCall));
  const formReplyRead = parseTextReply(form.request, formReply);

  it('quotes only code that exists in an example or source file', () => {
    expect(blocks('ts').length).toBeGreaterThan(0);
    for (const block of blocks('ts')) expect(sources.some((source) => normalise(source).includes(normalise(block))), block).toBe(true);
  });

  it('shows only texts the code really writes', () => {
    const written = [
      askClarificationToolDescription,
      requestHumanInputToolDescription,
      nonInteractiveText('Deploy to production?'),
      form.text,
      formReply,
      approval.text,
    ];
    for (const block of blocks('text')) expect(written, block).toContain(block);
  });

  it('shows only calls, payloads and results of the exchanges the tests run', () => {
    expect(formReplyRead).toEqual({ ok: true, answer: formAnswer });
    const shown = [
      formCall,
      { ...form.humanInput, text: `${form.text.split('\n').slice(0, 3).join('\n')}\n\n…` },
      JSON.parse(clarificationResultText(form, formAnswer)) as unknown,
      approvalCall,
      JSON.parse(clarificationResultText(approval, approvalAnswer)) as unknown,
    ];
    const jsonBlocks = blocks('json');
    expect(jsonBlocks).toHaveLength(shown.length);
    jsonBlocks.forEach((block, index) => expect(JSON.parse(block), block).toEqual(shown[index]));
    expect(approval.request.urgency).toBe('high');
  });
});
