import { describe, expect, it } from 'vitest';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { PhraseContext, PhraseMissingFields } from './phrase.js';
import { detachedClarificationAsk, prepareRequestClarification, type PrepareClarificationOptions, type PreparedClarification } from './request-clarification.js';
import type { MissingField } from './request-clarification-schema.js';

// Internal names chosen to be unmistakable in any text: if one shows up, a test sees it.
const crmCall = {
  tool_name: 'crm_order_lookup_v3',
  goal: 'look up the open orders of a customer',
  known_arguments: { region_cd: 'EU', include_closed: false },
  missing_fields: [
    { name: 'cust_acct_no_v2', label: 'Customer account number', description: 'The number on the customer\'s contract.' },
    { name: 'ord_since_dt', label: 'Earliest order date', description: 'Only orders placed on or after this day.', type: 'date', required: false },
    { name: 'chan_cd_list', label: 'Sales channels', description: 'Where the orders came in.', type: 'multi_select', options: ['Web shop', 'Phone', 'Partner'] },
  ],
};
const internalNames = ['crm_order_lookup_v3', 'region_cd', 'include_closed', 'cust_acct_no_v2', 'ord_since_dt', 'chan_cd_list'];

async function prepare(args: unknown, options?: PrepareClarificationOptions): Promise<PreparedClarification> {
  const result = await prepareRequestClarification(args, options);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Every text a person can read: the question words (not the ids) and the plain-text fallback. */
function visibleTexts(prepared: PreparedClarification): string[] {
  const words = prepared.request.questions.flatMap(({ question, header, detail, placeholder, options }) => [question, header, detail, placeholder, ...(options ?? []).flatMap((option) => [option.label, option.description])]);
  return [...words.filter((text): text is string => text !== undefined), prepared.text];
}

function expectNoInternalNames(prepared: PreparedClarification): void {
  for (const text of visibleTexts(prepared)) for (const name of internalNames) expect(text.toLowerCase(), text).not.toContain(name.toLowerCase());
}

describe('preparing a request_clarification call', () => {
  it('words the questions with the default phrasing and keeps the pending call', async () => {
    const prepared = await prepare(crmCall);
    expect(prepared.request.questions.map((question) => question.question)).toEqual([
      'What customer account number should I use?',
      'What earliest order date should I use?',
      'Which sales channels should I include?',
    ]);
    expect(prepared.pending).toEqual({
      tool: 'crm_order_lookup_v3',
      args: { region_cd: 'EU', include_closed: false },
      missing: [
        { name: 'cust_acct_no_v2', label: 'Customer account number', description: 'The number on the customer\'s contract.', type: 'text', options: [], required: true },
        { name: 'ord_since_dt', label: 'Earliest order date', description: 'Only orders placed on or after this day.', type: 'date', options: [], required: false },
        { name: 'chan_cd_list', label: 'Sales channels', description: 'Where the orders came in.', type: 'multi_select', options: ['Web shop', 'Phone', 'Partner'], required: true },
      ],
      goal: 'look up the open orders of a customer',
    });
    expect(prepared.phraseProblems).toEqual([]);
  });

  it('never shows an internal name: not in the questions, not in the plain text, not as an id', async () => {
    const prepared = await prepare(crmCall);
    expectNoInternalNames(prepared);
    expect(prepared.request.questions.map((question) => question.id)).toEqual(['field-1', 'field-2', 'field-3']);
    expect(prepared.text).toContain('What customer account number should I use? (required)');
  });

  it('writes the plain-text fallback in the language of the goal and labels', async () => {
    const prepared = await prepare({
      tool_name: 'today_furnace_batches',
      goal: '查询今天炉次生产情况',
      missing_fields: [{ name: 'fnCode', label: '炉号', description: '需要明确具体炉体', options: ['9号炉', '11号炉', 'A号炉'] }],
    });
    expect(prepared.lang).toBe('zh');
    expect(prepared.text).toContain('请问要选择哪个炉号？');
    expect(prepared.text).not.toMatch(/fnCode|today_furnace_batches/i);
  });

  it('uses a custom phrasing step\'s words, given the fields and the context', async () => {
    const calls: Array<{ missing: readonly MissingField[]; context: PhraseContext }> = [];
    const phrase: PhraseMissingFields = async (missing, context) => {
      calls.push({ missing, context });
      return missing.map((field) => ({ id: 'ignored', question: `Could you tell me the ${field.label.toLowerCase()}?`, placeholder: 'e.g. 10-4471' }));
    };
    const signal = new AbortController().signal;
    const prepared = await prepare(crmCall, { phrase, signal });
    expect(prepared.request.questions[0]).toEqual({
      id: 'field-1',
      question: 'Could you tell me the customer account number?',
      placeholder: 'e.g. 10-4471',
      input: { kind: 'text' },
      required: true,
    });
    expect(calls).toEqual([{ missing: prepared.pending.missing, context: { tool: 'crm_order_lookup_v3', goal: 'look up the open orders of a customer', lang: 'en', signal } }]);
    expect(prepared.phraseProblems).toEqual([]);
  });

  it('accepts a phrasing step that answers synchronously', async () => {
    const prepared = await prepare(crmCall, { phrase: (missing) => missing.map((field) => ({ id: '', question: `${field.label}, please.` })) });
    expect(prepared.request.questions[2]?.question).toBe('Sales channels, please.');
  });

  it('never lets the phrasing step change ids, input kinds, options or required', async () => {
    const sneaky: AskUserQuestionItem = { id: 'chan_cd_list', question: 'Which channels?', options: [{ label: 'Anything' }], input: { kind: 'text' }, required: false, multiSelect: false };
    const prepared = await prepare(crmCall, { phrase: (missing) => missing.map(() => sneaky) });
    const { id, question, input, options, required, multiSelect } = prepared.request.questions[2]!;
    expect({ id, question, input, options, required, multiSelect }).toEqual({
      id: 'field-3',
      question: 'Which channels?',
      input: { kind: 'multi_select' },
      options: [{ label: 'Web shop' }, { label: 'Phone' }, { label: 'Partner' }],
      required: true,
      multiSelect: true,
    });
  });

  it('replaces a phrased question that mentions an internal name with the default wording, and says so', async () => {
    const leaky: PhraseMissingFields = (missing) =>
      missing.map((field, index) => (index === 0 ? { id: 'q', question: '请提供 cust_acct_no_v2' } : index === 1 ? { id: 'q', question: 'Since when?', detail: 'For CRM_ORDER_LOOKUP_V3.' } : { id: 'q', question: `Which ${field.label}?` }));
    const prepared = await prepare(crmCall, { phrase: leaky });
    expect(prepared.request.questions.map((question) => question.question)).toEqual([
      'What customer account number should I use?',
      'What earliest order date should I use?',
      'Which Sales channels?',
    ]);
    expect(prepared.phraseProblems).toEqual([
      'Question 1 (Customer account number): the phrasing mentioned "cust_acct_no_v2"; the default wording was used.',
      'Question 2 (Earliest order date): the phrasing mentioned "CRM_ORDER_LOOKUP_V3"; the default wording was used.',
    ]);
    expectNoInternalNames(prepared);
  });

  it('checks the phrasing against the known arguments\' names too', async () => {
    const prepared = await prepare(crmCall, { phrase: (missing) => missing.map(() => ({ id: 'q', question: 'Which account in region_cd EU?' })) });
    expect(prepared.phraseProblems).toHaveLength(3);
    expectNoInternalNames(prepared);
  });

  it('falls back to the default wording when the phrasing step throws, returns the wrong count, or gives blank questions', async () => {
    const failing = await prepare(crmCall, {
      phrase: async () => {
        throw new Error('model overloaded');
      },
    });
    expect(failing.phraseProblems).toEqual(['The phrasing step failed (model overloaded); the default wording was used.']);
    expect(failing.request.questions[0]?.question).toBe('What customer account number should I use?');

    const short = await prepare(crmCall, { phrase: () => [{ id: 'q', question: 'Which account?' }] });
    expect(short.phraseProblems).toEqual(['The phrasing step returned 1 questions for 3 fields; the default wording was used.']);

    const blank = await prepare(crmCall, { phrase: (missing) => missing.map(() => ({ id: 'q', question: ' ' })) });
    expect(blank.phraseProblems[0]).toBe('Question 1 (Customer account number): the phrasing gave no usable question text; the default wording was used.');
    expect(blank.request.questions[0]?.question).toBe('What customer account number should I use?');
  });

  it('falls back to the label alone when even the description would show a name', async () => {
    const prepared = await prepare({ ...crmCall, missing_fields: [{ name: 'acct', label: 'Account', description: 'Same as region_cd, but for the account.' }] });
    expect(prepared.request.questions[0]).toEqual({ id: 'field-1', question: 'What account should I use?', input: { kind: 'text' }, required: true });
  });

  it('keeps a mixed-case label as written and shows no identifier from a description, in the questions or the text', async () => {
    const prepared = await prepare({
      tool_name: 'venue_booking',
      goal: 'book the team dinner',
      missing_fields: [
        { name: 'net', label: 'Wi-Fi network', description: 'The network the kiosk joins (wifi_ssid in the venue sheet).' },
        { name: 'branch', label: "McDonald's branch", description: 'Parcels up to maxWeightKg are delivered; see addr_line_1.', type: 'select', options: ['Central', 'Airport'] },
      ],
    });
    expect(prepared.request.questions.map((question) => question.question)).toEqual(['What Wi-Fi network should I use?', "Which McDonald's branch should I use?"]);
    expect(prepared.request.questions[1]?.detail).toBe('Parcels up to max weight kg are delivered; see addr line 1.');
    for (const text of visibleTexts(prepared)) for (const identifier of ['wifi_ssid', 'maxWeightKg', 'addr_line_1']) expect(text, text).not.toContain(identifier);
  });

  it('refuses the call, asking nobody, when the arguments are wrong', async () => {
    await expect(prepareRequestClarification({ tool_name: 'x' })).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });
});

describe('the detached-ask payload', () => {
  it('holds the questions and the pending call as JSON state, as fresh copies', async () => {
    const prepared = await prepare(crmCall);
    const ask = detachedClarificationAsk(prepared);
    expect(ask).toEqual({ questions: prepared.request.questions, state: prepared.pending });
    expect(JSON.parse(JSON.stringify(ask.state))).toEqual(prepared.pending);
    ask.state.args.region_cd = 'US';
    expect(prepared.pending.args.region_cd).toBe('EU');
  });
});
