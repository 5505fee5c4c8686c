import { describe, expect, it } from 'vitest';
import { internalNameFinder, isInternalName } from './internal-names.js';
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

describe('the default phrasing keeps labels as written', () => {
  it.each([
    ['text', 'Wi-Fi network', 'What Wi-Fi network should I use?'],
    ['select', "McDonald's branch", "Which McDonald's branch should I use?"],
    ['multi_select', 'YouTube channels', 'Which YouTube channels should I include?'],
    ['text', 'iPhone model', 'What iPhone model should I use?'],
    ['text', 'O\'Brien account', "What O'Brien account should I use?"],
    ['text', 'CRM id', 'What CRM id should I use?'],
    ['text', 'Delivery date', 'What delivery date should I use?'],
    ['text', "Customer's e-mail", "What customer's e-mail should I use?"],
  ] as const)('a %s field labelled %j is asked as %j', (type, label, question) => {
    expect(defaultPhrase([field(type, label, type === 'text' ? [] : ['A', 'B'])], { tool: 't_1', goal: 'g', lang: 'en' })[0]?.question).toBe(question);
  });
});

describe('the default phrasing shows no code-style identifiers', () => {
  it('writes identifiers in a description or the goal as words', () => {
    const [address, weight] = defaultPhrase(
      [
        { ...field('text', 'Street address'), name: 'address', description: 'The first line, stored as addr_line_1.' },
        { ...field('number', 'Heaviest parcel'), name: 'weight', description: 'In kilograms (maxWeightKg); see $ref and SHIP_TO_CODE.' },
      ],
      { tool: 'ship_it', goal: 'update maxWeightKg for the order', lang: 'en' },
    );
    expect(address?.detail).toBe('For "update max weight kg for the order", I need 2 more details from you.\n\nThe first line, stored as addr line 1.');
    expect(weight?.detail).toBe('In kilograms (max weight kg); see ref and ship to code.');
  });

  it('writes an identifier used as a label as words', () => {
    const [question] = defaultPhrase([{ ...field('text', 'maxWeightKg'), name: 'weight' }], { tool: 't_1', goal: 'g', lang: 'en' });
    expect(question?.question).toBe('What max weight kg should I use?');
    expect(defaultPhrase([{ ...field('text', 'addr_line_1'), name: 'address' }], { tool: 't_1', goal: 'g', lang: 'zh' })[0]?.question).toBe('请提供addr line 1。');
  });

  // Every shape code gives a name, in every field type, label, sentence and language: the identifier
  // check the package already has (internalNameFinder) finds none of them in any wording, while the
  // ordinary words around them are still there.
  const words = ['addr', 'line', 'max', 'weight', 'kg', 'ship', 'to', 'code', 'cust', 'acct', 'no', 'user', 'id'];
  const identifiers = words.flatMap((a, i) => {
    const b = words[(i + 3) % words.length]!;
    const c = words[(i + 7) % words.length]!;
    const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
    return [`${a}_${b}`, `${a}_${b}_${i + 1}`, `${a}${cap(b)}`, `${a}${cap(b)}${cap(c)}`, `${a}_${b}`.toUpperCase(), `$${a}${b}`, `${a}.${b}${cap(c)}`, `__${a}_${b}__`, `${a}${cap(b)}${i}`];
  }).filter((identifier) => /^[a-z$_]/i.test(identifier) && !/^[a-z]{1}[A-Z]/.test(identifier));
  const sentences = [
    (id: string) => `Parcel stored as ${id}.`,
    (id: string) => `The parcel value of ${id}, e.g. 42`,
    (id: string) => `(${id}) parcel`,
    (id: string) => `parcel: ${id}; see the manual`,
    (id: string) => `请填写parcel的${id}字段`,
    (id: string) => `"${id}"-style parcel`,
  ];
  const types: MissingField['type'][] = ['text', 'textarea', 'number', 'date', 'select', 'multi_select', 'checkbox'];
  const labels = ['Parcel', 'Wi-Fi network', '包裹', (id: string) => id, (id: string) => `Parcel ${id}`];

  it('never shows an identifier-shaped token from a label, description or goal', () => {
    let checked = 0;
    for (const [i, identifier] of identifiers.entries()) {
      expect(isInternalName(identifier), identifier).toBe(true);
      const finder = internalNameFinder([identifier]);
      for (const lang of ['en', 'zh'] as const) {
        const sentence = sentences[i % sentences.length]!(identifier);
        const missing = types.map((type, t): MissingField => {
          const label = labels[(i + t) % labels.length]!;
          return {
            name: `field${t}`,
            label: typeof label === 'string' ? label : label(identifier),
            description: sentences[(i + t) % sentences.length]!(identifier),
            type,
            options: type === 'select' || type === 'multi_select' ? ['A', 'B'] : [],
            required: t % 2 === 0,
          };
        });
        const questions = defaultPhrase(missing, { tool: 'acme_tool', goal: sentence, lang });
        for (const question of questions) {
          for (const text of [question.question, question.header, question.detail, question.placeholder]) {
            if (text === undefined) continue;
            expect(finder(text), text).toBeUndefined();
            checked++;
          }
        }
        // The description was reworded, not dropped.
        expect(questions.every((question) => /parcel/i.test(question.detail ?? '')), sentence).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
