import { approvalQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { approvalOf } from './approval.js';

const tool = { name: 'send_email', input: { to: ['a@example.com'], subject: 'Hi', draft: false }, description: 'Sends an email.' };

function approval(overrides: Partial<AskUserQuestionItem> = {}): AskUserQuestionItem {
  return { ...approvalQuestions({ tool, reason: 'The user asked for it.' })[0]!, ...overrides };
}

describe('approvalOf', () => {
  it('claims the question askApproval builds, with the tool, its arguments as indented JSON and both labels', () => {
    expect(approvalOf([approval()])).toEqual({
      id: 'tool-approval',
      question: 'Allow the agent to run send_email?',
      header: 'Tool approval',
      reason: 'The user asked for it.',
      toolName: 'send_email',
      toolDescription: 'Sends an email.',
      input: tool.input,
      inputJson: '{\n  "to": [\n    "a@example.com"\n  ],\n  "subject": "Hi",\n  "draft": false\n}',
      approve: 'Approve',
      deny: 'Deny',
    });
  });

  it('takes the deny label from the option that is not the approve one, whatever the order', () => {
    const claimed = approvalOf([approval({ options: [{ label: 'Deny' }, { label: 'Approve' }] })]);
    expect(claimed).toMatchObject({ approve: 'Approve', deny: 'Deny' });
  });

  it('leaves deny, reason, header and description out when the question has none', () => {
    const claimed = approvalOf([
      { id: 'a', question: 'Run it?', options: [{ label: 'Yes' }], intent: { kind: 'tool-approval', approve: 'Yes', tool: { name: 'ls', input: null } } },
    ]);
    expect(claimed).toEqual({ id: 'a', question: 'Run it?', toolName: 'ls', input: null, inputJson: 'null', approve: 'Yes' });
  });

  it.each<[string, AskUserQuestionItem[]]>([
    ['a batch of two questions', [approval(), { id: 'other', question: 'And this?' }]],
    ['an empty batch', []],
    ['a question without an intent', [approval({ intent: undefined })]],
    ['a plan review', [approval({ detail: 'plan', intent: { kind: 'plan-review', approve: 'Approve' } })]],
    ['a multi-select question', [approval({ multiSelect: true })]],
    ['three options', [approval({ options: [{ label: 'Approve' }, { label: 'Deny' }, { label: 'Later' }] })]],
    ['an approve label that is not offered', [approval({ intent: { kind: 'tool-approval', approve: 'Go', tool } })]],
    ['arguments with no JSON form', [approval({ intent: { kind: 'tool-approval', approve: 'Approve', tool: { name: 'x', input: undefined } } })]],
  ])('leaves %s to the composer', (_name, questions) => {
    expect(approvalOf(questions)).toBeUndefined();
  });
});
