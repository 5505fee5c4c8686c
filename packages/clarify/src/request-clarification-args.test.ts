import { describe, expect, it } from 'vitest';
import { readRequestClarificationArgs } from './request-clarification-args.js';
import type { PendingAction } from './request-clarification-schema.js';

const furnaceCall = {
  tool_name: 'today_furnace_batches',
  goal: '查询今天炉次生产情况',
  known_arguments: { date: '2026-05-01' },
  missing_fields: [{ name: 'fnCode', label: '炉号', description: '需要明确具体炉体', options: ['9号炉', '11号炉', 'A号炉'] }],
};

function read(args: unknown): PendingAction {
  const result = readRequestClarificationArgs(args);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function problem(args: unknown): string {
  const result = readRequestClarificationArgs(args);
  if (result.ok) throw new Error('expected the call to be refused');
  expect(result.error.code).toBe('INVALID_ARGUMENTS');
  return result.error.message;
}

describe('reading request_clarification arguments', () => {
  it('reads the seed\'s call into a pending action with every field property decided', () => {
    expect(read(furnaceCall)).toEqual({
      tool: 'today_furnace_batches',
      args: { date: '2026-05-01' },
      missing: [{ name: 'fnCode', label: '炉号', description: '需要明确具体炉体', type: 'select', options: ['9号炉', '11号炉', 'A号炉'], required: true }],
      goal: '查询今天炉次生产情况',
    });
  });

  it('reads the arguments, the known arguments and the fields from JSON text', () => {
    const text = JSON.stringify({ ...furnaceCall, known_arguments: JSON.stringify(furnaceCall.known_arguments), missing_fields: JSON.stringify(furnaceCall.missing_fields) });
    expect(read(text)).toEqual(read(furnaceCall));
  });

  it('takes seed 001\'s question_goal for goal', () => {
    const { goal: _goal, ...rest } = furnaceCall;
    expect(read({ ...rest, question_goal: '查询今天炉次生产情况' }).goal).toBe('查询今天炉次生产情况');
  });

  it('reads optional fields sent as null (strict function calling) as left out', () => {
    const pending = read({ ...furnaceCall, known_arguments: null, missing_fields: [{ name: 'shift', label: 'Shift', description: '', type: null, options: null, required: null }] });
    expect(pending.args).toEqual({});
    expect(pending.missing).toEqual([{ name: 'shift', label: 'Shift', description: '', type: 'text', options: [], required: true }]);
  });

  it('makes the type agree with the options, as ask_clarification does', () => {
    const pending = read({
      ...furnaceCall,
      missing_fields: [
        { name: 'a', label: 'A', description: '', type: 'select' },
        { name: 'b', label: 'B', description: '', type: 'text', options: ['x', 'y'] },
        { name: 'c', label: 'C', description: '', type: 'checkbox', options: ['x', 'y'] },
        { name: 'd', label: 'D', description: '', type: 'number', options: [] },
      ],
    });
    expect(pending.missing.map(({ type, options }) => ({ type, options }))).toEqual([
      { type: 'text', options: [] },
      { type: 'select', options: ['x', 'y'] },
      { type: 'multi_select', options: ['x', 'y'] },
      { type: 'number', options: [] },
    ]);
  });

  it('reads type words, option lists and required flags the way models write them', () => {
    const pending = read({
      ...furnaceCall,
      missing_fields: [
        { name: 'qty', label: 'Quantity', description: '', type: 'integer', required: 'no' },
        { name: 'ok', label: 'Notify the customer', description: '', type: 'boolean' },
        { name: 'line', label: 'Line', description: '', options: '["L1", "L2", "l1", " "]' as unknown as string[] },
      ],
    });
    expect(pending.missing.map(({ type, options, required }) => ({ type, options, required }))).toEqual([
      { type: 'number', options: [], required: false },
      { type: 'checkbox', options: [], required: true },
      { type: 'select', options: ['L1', 'L2'], required: true },
    ]);
  });

  it('takes a field whose known value is null as missing, and drops that null', () => {
    expect(read({ ...furnaceCall, known_arguments: { date: '2026-05-01', fnCode: null } }).args).toEqual({ date: '2026-05-01' });
  });

  it('refuses unknown keys and lists the allowed ones', () => {
    expect(problem({ ...furnaceCall, question: 'Which furnace?' })).toBe(
      'Invalid arguments for request_clarification: the arguments has unknown field "question"; the allowed fields are tool_name, goal, known_arguments, missing_fields.',
    );
    expect(problem({ ...furnaceCall, missing_fields: [{ ...furnaceCall.missing_fields[0], placeholder: '9号炉' }] })).toContain(
      'missing_fields[0] has unknown field "placeholder"; the allowed fields are name, label, description, type, options, required.',
    );
  });

  it('says which required key is missing', () => {
    expect(problem({ tool_name: 'lookup', goal: 'find the account', missing_fields: [{ name: 'acct_no', description: 'x' }] })).toContain(
      'missing_fields[0].label is missing; it must be a string.',
    );
  });

  it.each([
    ['a blank tool name', { tool_name: ' ' }, 'tool_name is blank'],
    ['a blank goal', { goal: '' }, 'goal is blank'],
    ['nothing missing', { missing_fields: [] }, 'missing_fields is empty; if nothing is missing, call today_furnace_batches directly.'],
    ['a reserved name', { missing_fields: [{ name: '__proto__', label: 'x', description: '' }] }, 'missing_fields[0].name "__proto__" is reserved'],
    ['a name listed twice', { missing_fields: [{ name: 'a', label: 'A', description: '' }, { name: 'a', label: 'B', description: '' }] }, 'missing_fields[1].name "a" is listed twice'],
    ['a name that already has a value', { known_arguments: { fnCode: '9' } }, 'missing_fields[0].name "fnCode" already has a value in known_arguments'],
    ['a blank label', { missing_fields: [{ name: 'a', label: ' ', description: '' }] }, 'missing_fields[0].label (field "a") is blank'],
    ['known arguments that are not JSON', { known_arguments: { when: new Date(0) } }, 'known_arguments must hold plain JSON values'],
  ])('refuses %s', (_case, change, message) => {
    expect(problem({ ...furnaceCall, ...change })).toContain(message);
  });

  it('refuses a label or option that would show an argument or tool name to the user', () => {
    const labelled = (label: string, options?: string[]) => ({ ...furnaceCall, missing_fields: [{ name: 'cust_acct_no_v2', label, description: '', ...(options ? { options } : {}) }] });
    expect(problem(labelled('cust_acct_no_v2'))).toContain('shows "cust_acct_no_v2" to the user in its label or options');
    expect(problem(labelled('Account (today_furnace_batches)'))).toContain('shows "today_furnace_batches"');
    expect(problem({ ...labelled('Account'), known_arguments: { plant_id: 'P3' }, missing_fields: [{ name: 'acct', label: 'Account', description: '', options: ['plant_id P3'] }] })).toContain(
      'shows "plant_id"',
    );
  });

  it('refuses more than 16 fields and more than 24 options rather than asking half', () => {
    const fields = Array.from({ length: 17 }, (_, i) => ({ name: `f${i}`, label: `Field ${i}`, description: '' }));
    expect(problem({ ...furnaceCall, missing_fields: fields })).toContain('missing_fields has 17 entries, over the limit of 16');
    const options = Array.from({ length: 25 }, (_, i) => `Furnace ${i}`);
    expect(problem({ ...furnaceCall, missing_fields: [{ name: 'fnCode', label: '炉号', description: '', options }] })).toContain('has 25 options, over the limit of 24');
  });

  it('refuses arguments over 16 KB', () => {
    expect(problem({ ...furnaceCall, known_arguments: { note: 'x'.repeat(17_000) } })).toMatch(/the arguments are \d+ bytes, over the 16384-byte limit/);
  });

  it('refuses text that is not JSON and values that are not objects', () => {
    expect(problem('{"tool_name": ')).toContain('the arguments must be an object');
    expect(problem([furnaceCall])).toContain('the arguments must be an object');
  });
});
