import { describe, expect, it } from 'vitest';
import type { AskUserQuestionAnswer, AskUserQuestionAnswerItem } from '@askseam/user-questions';
import { ClarifyError } from './errors.js';
import { isPendingAction, resumePendingAction } from './pending-action.js';
import type { JsonValue, MissingField, PendingAction } from './request-clarification-schema.js';

const field = (name: string, type: MissingField['type'], extra: Partial<MissingField> = {}): MissingField => ({
  name,
  label: name.replace(/_/g, ' '),
  description: '',
  type,
  options: [],
  required: true,
  ...extra,
});

const pendingWith = (...missing: MissingField[]): PendingAction => ({ tool: 'acme_tool', args: { region_cd: 'EU' }, missing, goal: 'do it' });

/** The answer as a store would hand it back: through JSON, like every persisted record. */
const answerOf = (...items: Array<Omit<AskUserQuestionAnswerItem, 'id'>>): AskUserQuestionAnswer => ({ answers: items.map((item, index) => ({ id: `field-${index + 1}`, ...item })) });

function expectClarifyError(run: () => unknown, code: ClarifyError['code'], message: string | RegExp): void {
  try {
    run();
  } catch (error) {
    expect(ClarifyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code, name: 'ClarifyError' });
    expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error('expected a ClarifyError');
}

describe('merging an answer into the pending call', () => {
  it.each<[string, MissingField, Omit<AskUserQuestionAnswerItem, 'id'>, JsonValue]>([
    ['text', field('acct_no', 'text'), { selected: [], custom: '10-4471' }, '10-4471'],
    ['textarea', field('note_txt', 'textarea'), { selected: [], custom: 'line one\nline two' }, 'line one\nline two'],
    ['number', field('batch_qty', 'number'), { selected: [], custom: '12.5' }, 12.5],
    ['a negative number', field('offset_n', 'number'), { selected: [], custom: '-3' }, -3],
    ['a number a JS number would round', field('serial_no', 'number'), { selected: [], custom: '12345678901234567890' }, '12345678901234567890'],
    ['date', field('ship_dt', 'date'), { selected: [], custom: '2026-02-28' }, '2026-02-28'],
    ['a ticked checkbox', field('notify_flg', 'checkbox'), { selected: [], custom: 'true' }, true],
    ['an unticked checkbox', field('notify_flg', 'checkbox'), { selected: [], custom: 'false' }, false],
    ['a chosen option', field('fn_code', 'select', { options: ['9号炉', '11号炉'] }), { selected: ['11号炉'] }, '11号炉'],
    ['own words instead of an option', field('fn_code', 'select', { options: ['9号炉'] }), { selected: [], custom: 'A号炉' }, 'A号炉'],
    ['several options and own words', field('line_ids', 'multi_select', { options: ['L1', 'L2', 'L3'] }), { selected: ['L1', 'L3'], custom: 'L9' }, ['L1', 'L3', 'L9']],
  ])('merges %s typed by its input', (_case, missing, item, value) => {
    const resumed = resumePendingAction(pendingWith(missing), answerOf(item));
    expect(resumed).toEqual({ tool: 'acme_tool', args: { region_cd: 'EU', [missing.name]: value }, skipped: [] });
  });

  it('resumes the same after the pending call and the answer went through JSON', () => {
    const pending = pendingWith(field('ship_dt', 'date'), field('notify_flg', 'checkbox'), field('batch_qty', 'number'));
    const answer = answerOf({ selected: [], custom: '2026-08-20' }, { selected: [], custom: 'true' }, { selected: [], custom: '40' });
    const stored = JSON.parse(JSON.stringify({ pending, answer })) as { pending: unknown; answer: unknown };
    expect(resumePendingAction(stored.pending, stored.answer)).toEqual({ tool: 'acme_tool', args: { region_cd: 'EU', ship_dt: '2026-08-20', notify_flg: true, batch_qty: 40 }, skipped: [] });
  });

  it('leaves a skipped optional field out of the arguments and lists it', () => {
    const pending = pendingWith(field('acct_no', 'text'), field('ship_dt', 'date', { required: false }));
    expect(resumePendingAction(pending, answerOf({ selected: [], custom: '7' }, { selected: [] }))).toEqual({ tool: 'acme_tool', args: { region_cd: 'EU', acct_no: '7' }, skipped: ['ship_dt'] });
  });

  it('treats an item left out of the answer as skipped', () => {
    const pending = pendingWith(field('acct_no', 'text'), field('ship_dt', 'date', { required: false }));
    expect(resumePendingAction(pending, { answers: [{ id: 'field-1', selected: [], custom: '7' }] }).skipped).toEqual(['ship_dt']);
  });

  it('refuses an answer that skips a required field, naming each one by label and name', () => {
    const pending = pendingWith(field('acct_no', 'text', { label: 'Customer account number' }), field('fn_code', 'select', { label: 'Furnace', options: ['9'] }));
    expectClarifyError(
      () => resumePendingAction(pending, answerOf({ selected: [] }, { selected: [] })),
      'REQUIRED_FIELD_MISSING',
      'The answer leaves out "Customer account number" (acct_no), "Furnace" (fn_code), which acme_tool needs; ask for them again before calling acme_tool.',
    );
  });

  it('refuses a value the field\'s input does not allow', () => {
    expectClarifyError(() => resumePendingAction(pendingWith(field('ship_dt', 'date')), answerOf({ selected: [], custom: '2026-02-30' })), 'ANSWER_MISMATCH', /^The answer for "ship dt" \(ship_dt\) does not fit: /);
    expectClarifyError(() => resumePendingAction(pendingWith(field('fn_code', 'select', { options: ['9'] })), answerOf({ selected: ['10'] })), 'ANSWER_MISMATCH', /fn_code/);
  });

  it('refuses an answer to a question that was not asked, or answered twice', () => {
    const pending = pendingWith(field('acct_no', 'text'));
    expectClarifyError(() => resumePendingAction(pending, { answers: [{ id: 'acct_no', selected: [], custom: '7' }] }), 'ANSWER_MISMATCH', 'The answer has an item for "acct_no", which is none of the questions for acme_tool (field-1).');
    expectClarifyError(
      () => resumePendingAction(pending, { answers: [{ id: 'field-1', selected: [], custom: '7' }, { id: 'field-1', selected: [], custom: '8' }] }),
      'ANSWER_MISMATCH',
      'The answer has two items for "field-1".',
    );
    expectClarifyError(() => resumePendingAction(pending, { answers: 'yes' }), 'ANSWER_MISMATCH', /is not \{ answers/);
  });

  it('refuses state that is not a pending action', () => {
    expectClarifyError(() => resumePendingAction({ kind: 'something-else' }, answerOf()), 'INVALID_PENDING_ACTION', /^This is not a pending action from request_clarification \(tool: /);
    expectClarifyError(() => resumePendingAction({ ...pendingWith(field('__proto__', 'text')) }, answerOf()), 'INVALID_PENDING_ACTION', /"__proto__" is reserved/);
    expectClarifyError(() => resumePendingAction(pendingWith(field('a_1', 'text'), field('a_1', 'date')), answerOf()), 'INVALID_PENDING_ACTION', /listed twice/);
  });

  it('lets a known argument stand beside the merged ones without being copied into the pending call', () => {
    const pending = pendingWith(field('acct_no', 'text'));
    const resumed = resumePendingAction(pending, answerOf({ selected: [], custom: '7' }));
    expect(resumed.args).toEqual({ region_cd: 'EU', acct_no: '7' });
    expect(pending.args).toEqual({ region_cd: 'EU' });
  });

  it('tells a pending action from other state', () => {
    expect(isPendingAction(pendingWith(field('acct_no', 'text')))).toBe(true);
    expect(isPendingAction({ kind: 'pending-tool-call', tool: 'x', args: {}, missing: ['a'] })).toBe(false);
    expect(isPendingAction(null)).toBe(false);
  });
});
