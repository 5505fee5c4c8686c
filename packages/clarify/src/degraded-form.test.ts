import { describe, expect, it } from 'vitest';
import { compileAskClarification } from './ask-clarification-compile.js';
import type { CompiledClarification, CompileResult } from './compiled.js';
import { compileRequestHumanInput } from './request-human-input.js';

// A form too big to show as a form is asked as one plain question. The person must still learn
// everything it asked for, or be told plainly what was left out and how to give it.

function compiled(result: CompileResult): CompiledClarification {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const regions = Array.from({ length: 25 }, (_, i) => `Region ${i + 1}`);

/** What the person reads: in a chat (the plain text), in the seam's question, and in a UI (the payload's context). */
function shown(value: CompiledClarification): string[] {
  return [value.text, value.request.questions[0]?.detail ?? '', value.humanInput.context ?? ''];
}

describe('a form asked as one plain question names everything it asked for', () => {
  it('names all 25 options of a question with too many', () => {
    const value = compiled(compileAskClarification({ question: 'Which region?', options: regions }));
    expect(value.degraded?.reason).toBe('too-many-options');
    for (const text of shown(value)) for (const region of regions) expect(text).toMatch(new RegExp(`^- ${region}$`, 'm'));
  });

  it('names all 17 fields of a form with too many', () => {
    const fields = Array.from({ length: 17 }, (_, i) => ({ name: `field_${i + 1}`, label: `Detail ${i + 1}` }));
    const value = compiled(compileAskClarification({ question: 'Please fill in the order', fields }));
    expect(value.degraded?.reason).toBe('too-many-fields');
    for (const text of shown(value)) for (const field of fields) expect(text).toMatch(new RegExp(`^- ${field.label}$`, 'm'));
  });

  it('names every option of a field that has too many, and which fields take one or several', () => {
    const value = compiled(
      compileAskClarification({
        question: 'Where and what?',
        fields: [
          { name: 'region', label: 'Region', type: 'select', options: regions },
          { name: 'extras', label: 'Extras', type: 'multi_select', options: ['Lint', 'Tests'] },
          { name: 'owner', label: 'Owner' },
        ],
      }),
    );
    expect(value.degraded?.reason).toBe('too-many-options');
    expect(value.text).toContain(`- Region (one of: ${regions.join(' / ')})`);
    expect(value.text).toContain('- Extras (any of: Lint / Tests)');
    expect(value.text).toContain('- Owner');
  });

  it('names the top-level choices beside the fields', () => {
    const fields = Array.from({ length: 17 }, (_, i) => ({ name: `f_${i + 1}`, label: `Detail ${i + 1}` }));
    const value = compiled(compileAskClarification({ question: 'Which plan, and the details?', options: ['Basic', 'Pro'], fields }));
    expect(value.text).toContain('The choices:\n- Basic\n- Pro');
    expect(value.text).toContain('- Detail 17');
  });

  it('names them in Chinese for a Chinese question', () => {
    const value = compiled(compileAskClarification({ question: '请选择区域', fields: [{ name: 'region', label: '区域', type: 'select', options: regions }] }));
    expect(value.text).toContain(`请说明：\n- 区域（选一项：${regions.join(' / ')}）`);
  });

  it('says in Chinese what was left out', () => {
    const fields = Array.from({ length: 16 }, (_, i) => ({ name: `f_${i + 1}`, label: `字段${i + 1}`, type: 'select', options: Array.from({ length: 24 }, (_, j) => `选项 ${i + 1}-${j + 1} ${'这是一个很长的说明'.repeat(6)}`) }));
    const value = compiled(compileAskClarification({ question: '请补充配置', fields }));
    expect(value.text.length).toBeLessThanOrEqual(4000);
    expect(value.text).toMatch(/（为避免消息过长，另有 \d+ 个字段和 \d+ 个选项未列出：请用自己的话写明需要的内容，或要求查看完整列表。）/);
  });

  it('names all 25 choices of request_human_input', () => {
    const value = compiled(compileRequestHumanInput({ question: 'Which region?', format: 'multiple_choice', choices: regions }));
    expect(value.degraded?.reason).toBe('too-many-options');
    for (const text of shown(value)) expect(text).toMatch(/^- Region 25$/m);
  });

  it('says how many were left out, and how to give them, when the list cannot fit the message', () => {
    const long = (i: number, j: number) => `Option ${i}-${j} ${'with a long description of what it means '.repeat(2)}`.trim();
    const fields = Array.from({ length: 16 }, (_, i) => ({ name: `f_${i + 1}`, label: `Field ${i + 1}`, type: 'select', options: Array.from({ length: 24 }, (_, j) => long(i + 1, j + 1)) }));
    const value = compiled(compileAskClarification({ question: 'Set everything up', context: 'For the new site.', fields }));
    expect(value.degraded?.reason).toBe('too-large');
    expect(value.text.length).toBeLessThanOrEqual(4000);
    // What was listed plus what the note counts is everything the form asked for.
    const listedFields = (value.text.match(/^- Field \d+/gm) ?? []).length;
    const listedOptions = (value.text.match(/Option \d+-\d+/g) ?? []).length;
    const note = /(\d+) more fields? and (\d+) more choices? are not listed here to keep this message short; write what you need in your own words, or ask for the full list\./.exec(value.text);
    expect(note, value.text).not.toBeNull();
    expect(listedFields + Number(note![1])).toBe(16);
    expect(listedOptions + Number(note![2])).toBe(16 * 24);
    expect(value.degraded?.fields).toHaveLength(16);
    expect(value.degraded?.fields.every((field) => field.options.length === 24)).toBe(true);
  });

  it('keeps the whole list and stays within the budget when a long context has to give way', () => {
    const value = compiled(compileAskClarification({ question: 'Which region?', context: 'Some background. '.repeat(400), options: regions }, { budget: 1500 }));
    expect(value.text.length).toBeLessThanOrEqual(1500);
    for (const region of regions) expect(value.text).toMatch(new RegExp(`^- ${region}$`, 'm'));
    expect(value.text).toContain('left out or shortened');
  });
});

describe('the list and the budget', () => {
  it('shows the whole list when it just fits, and counts what stays out one character less', () => {
    const ask = (budget?: number) => compiled(compileAskClarification({ question: 'Which region?', context: 'For the new shop.', options: regions }, budget === undefined ? {} : { budget }));
    const full = ask().text;
    expect(ask(full.length).text).toBe(full);
    const tighter = ask(full.length - 1).text;
    expect(tighter.length).toBeLessThanOrEqual(full.length - 1);
    expect(tighter).toContain('For the new shop.');
    const listed = (tighter.match(/^- Region \d+$/gm) ?? []).length;
    expect(listed + Number(/(\d+) more choices? (is|are) not listed here/.exec(tighter)?.[1])).toBe(25);
  });

  it('stays within every budget, naming or counting everything', () => {
    const fields = Array.from({ length: 17 }, (_, i) => ({ name: `f_${i + 1}`, label: `Field ${i + 1}`, type: 'select', options: ['North', 'South'] }));
    for (let budget = 400; budget <= 1400; budget += 50) {
      const value = compiled(compileAskClarification({ question: 'Set up', fields }, { budget }));
      expect(value.text.length, `budget ${budget}`).toBeLessThanOrEqual(budget);
      const listed = (value.text.match(/^- Field \d+ /gm) ?? []).length;
      const note = /(\d+) more fields?/.exec(value.text);
      expect(listed + Number(note?.[1] ?? 0), value.text).toBe(17);
    }
  });
});
