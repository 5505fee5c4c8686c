import { describe, expect, it } from 'vitest';
import type { AskUserQuestionItem } from './schemas.js';
import { isSealedQuestionBatch, sealCheckedBatch } from './sealed.js';

const batch = (): AskUserQuestionItem[] => [{ id: 'env', question: 'Where?', options: [{ label: 'staging' }, { label: 'production', description: 'Live' }] }];

describe('sealed question batches', () => {
  it('freezes a checked batch all the way down and recognises it', () => {
    const sealed = sealCheckedBatch(batch());
    expect(isSealedQuestionBatch(sealed)).toBe(true);
    expect(Object.isFrozen(sealed)).toBe(true);
    expect(Object.isFrozen(sealed[0])).toBe(true);
    expect(Object.isFrozen(sealed[0]!.options)).toBe(true);
    expect(Object.isFrozen(sealed[0]!.options![1])).toBe(true);
    expect(() => {
      (sealed[0]!.options![1] as { label: string }).label = 'staging';
    }).toThrow(TypeError);
  });

  it('keeps every option exactly as checked, with or without a description', () => {
    const checked = batch();
    checked.push({ id: 'plain', question: 'Which?', options: [{ label: 'only a label' }] });
    const expected = structuredClone(checked);
    expect(sealCheckedBatch(checked)).toEqual(expected);
  });

  it('keeps every question field and its order (the wire text), whichever fields it has', () => {
    const checked: AskUserQuestionItem[] = [
      { id: 'five', question: 'Which features?', header: 'Scope', options: [{ label: 'A' }, { label: 'B' }], multiSelect: true },
      { id: 'three', question: 'Where?', options: [{ label: 'here' }] },
      { id: 'other', question: 'When?', header: 'Date', detail: 'Pick one.', options: [{ label: 'now' }], multiSelect: false, required: true },
      { id: 'bare', question: 'Why?' },
    ];
    const text = JSON.stringify(checked);
    const sealed = sealCheckedBatch(checked);
    expect(JSON.stringify(sealed)).toBe(text);
    for (const question of sealed) expect(Object.isFrozen(question)).toBe(true);
  });

  it('does not take a batch frozen by someone else, a copy of a sealed one, or a non-object for sealed', () => {
    const frozenElsewhere = Object.freeze(batch().map((question) => Object.freeze(question)));
    expect(isSealedQuestionBatch(frozenElsewhere)).toBe(false);
    expect(isSealedQuestionBatch([...sealCheckedBatch(batch())])).toBe(false);
    for (const value of [undefined, null, 'batch', 3, {}]) expect(isSealedQuestionBatch(value)).toBe(false);
  });
});
