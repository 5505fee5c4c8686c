import { describe, expect, it } from 'vitest';
import { defaultPhrase } from './phrase.js';
import type { MissingField } from './request-clarification-schema.js';

const field = (type: MissingField['type'], label: string, options: string[] = []): MissingField => ({ name: 'x_1', label, description: '', type, options, required: true });

describe('the default phrasing', () => {
  it('writes one friendly English question per field, by its type', () => {
    const questions = defaultPhrase(
      [
        field('text', 'Customer account number'),
        field('number', 'Batch size'),
        field('date', 'Delivery date'),
        field('select', 'Furnace', ['9', '11']),
        field('multi_select', 'Production lines', ['L1', 'L2']),
        field('checkbox', 'Notify the customer'),
        field('textarea', 'CRM note'),
      ],
      { tool: 'acme_tool', goal: 'look up the order', lang: 'en' },
    );
    expect(questions.map((question) => question.question)).toEqual([
      'What customer account number should I use?',
      'What batch size should I use?',
      'What delivery date should I use?',
      'Which furnace should I use?',
      'Which production lines should I include?',
      'Notify the customer?',
      'What CRM note should I use?',
    ]);
  });

  it('writes them in Chinese', () => {
    const questions = defaultPhrase(
      [
        field('text', '客户账号'),
        field('number', '批量'),
        field('date', '交货日期'),
        field('select', '炉号', ['9号炉']),
        field('multi_select', '产线', ['L1']),
        field('checkbox', '通知客户'),
      ],
      { tool: 'acme_tool', goal: '查询订单', lang: 'zh' },
    );
    expect(questions.map((question) => question.question)).toEqual(['请提供客户账号。', '请问批量是多少？', '请问交货日期是哪一天？', '请问要选择哪个炉号？', '请问要包含哪些产线？', '是否通知客户？']);
  });

  it('puts the goal and the chip on the first question and each description as context', () => {
    const questions = defaultPhrase(
      [
        { ...field('select', '炉号', ['9号炉', '11号炉']), description: '需要明确具体炉体' },
        { ...field('text', '班次'), description: '' },
      ],
      { tool: 'today_furnace_batches', goal: '查询今天炉次生产情况', lang: 'zh' },
    );
    expect(questions[0]).toMatchObject({ header: '缺少信息', detail: '关于「查询今天炉次生产情况」，还需要您补充 2 项信息。\n\n需要明确具体炉体' });
    expect(questions[1]).not.toHaveProperty('detail');
    expect(questions[1]).not.toHaveProperty('header');
  });

  it('counts one detail in words', () => {
    const [question] = defaultPhrase([field('text', 'Account')], { tool: 't_1', goal: 'find the order', lang: 'en' });
    expect(question?.detail).toBe('For "find the order", I need one more detail from you.');
  });

  it('leaves out a goal or description that mentions a field or tool name', () => {
    const [question] = defaultPhrase([{ ...field('text', 'Account'), name: 'cust_acct_no_v2', description: 'Goes into cust_acct_no_v2 of crm_lookup.' }], {
      tool: 'crm_lookup',
      goal: 'run crm_lookup',
      lang: 'en',
    });
    expect(question?.detail).toBe('I need one more detail from you.');
  });

  it('gives the questions opaque ids and takes input, options and required from the field', () => {
    const questions = defaultPhrase([{ ...field('multi_select', 'Lines', ['L1', 'L2']), required: false }, field('date', 'Day')], { tool: 't_1', goal: 'g', lang: 'en' });
    expect(questions.map(({ id, input, options, multiSelect, required }) => ({ id, input, options, multiSelect, required }))).toEqual([
      { id: 'field-1', input: { kind: 'multi_select' }, options: [{ label: 'L1' }, { label: 'L2' }], multiSelect: true, required: undefined },
      { id: 'field-2', input: { kind: 'date' }, options: undefined, multiSelect: undefined, required: true },
    ]);
  });

  it('does not double a question mark the label already has', () => {
    expect(defaultPhrase([field('checkbox', 'Urgent?')], { tool: 't_1', goal: 'g', lang: 'en' })[0]?.question).toBe('Urgent?');
    expect(defaultPhrase([field('checkbox', '加急？')], { tool: 't_1', goal: 'g', lang: 'zh' })[0]?.question).toBe('是否加急？');
  });
});
