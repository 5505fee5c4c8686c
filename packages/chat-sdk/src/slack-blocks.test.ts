import { approvalQuestions, type AskUserQuestionItem } from '@askseam/user-questions';
import { describe, expect, it } from 'vitest';
import { blockKitProblems } from '../test/slack-recorder.js';
import { decodeControl } from './codec.js';
import { slackQuestionCard, slackSettledCard } from './slack-blocks.js';

// Slack refuses a whole message when one element is over a limit; these cards must never be.
const long = (n: number, word = 'word ') => word.repeat(Math.ceil(n / word.length)).slice(0, n);
const options = (count: number, labelLength = 10) => Array.from({ length: count }, (_v, i) => ({ label: `${i + 1} ${long(labelLength)}`, description: long(200) }));
type Element = { type: string; value?: string; options?: { value: string }[] };
type Block = { type: string; elements?: Element[] };
const controls = (blocks: unknown[]) => (blocks as Block[]).flatMap((block) => (block.type === 'actions' ? (block.elements ?? []) : []));

describe('slackQuestionCard', () => {
  const cases: [string, AskUserQuestionItem[]][] = [
    ['long labels on buttons', [{ id: 'a', question: long(5000), header: long(400), options: options(4, 300) }]],
    ['a select over 100 options', [{ id: 'a', question: 'Pick', options: options(140, 200) }]],
    ['a select of 100 options', [{ id: 'a', question: 'Pick', options: options(100, 200) }]],
    ['a multi-select of 300 checkboxes', [{ id: 'a', question: 'Pick', multiSelect: true, options: options(300, 100) }]],
    ['a batch of 60 questions', Array.from({ length: 60 }, (_v, i) => ({ id: `q${i}`, question: long(300), detail: long(4000), options: options(3) }))],
    ['free text', [{ id: 'a', question: 'Why?', input: { kind: 'textarea' } }]],
    ['an approval with huge arguments', approvalQuestions({ tool: { name: long(500), input: { script: long(60_000) }, description: long(5000) } })],
  ];
  for (const [name, questions] of cases) {
    it(`keeps Slack's Block Kit limits: ${name}`, () => {
      const card = slackQuestionCard({ key: 'abcdefghij', questions });
      expect(blockKitProblems(card.blocks, 50)).toEqual([]);
      expect(blockKitProblems(slackSettledCard({ questions }, 'Answered by <@U1>.').blocks, 50)).toEqual([]);
      // Every control names its card and what it does, within the value limits.
      for (const element of controls(card.blocks)) {
        for (const value of [element.value, ...(element.options ?? []).map((option) => option.value)]) {
          if (value !== undefined && element.type !== 'checkboxes') expect(decodeControl(value)?.key).toBe('abcdefghij');
        }
      }
    });
  }

  it('offers every option of a long select: over 100 they are answered by form or reply, never cut off', () => {
    const questions = [{ id: 'a', question: 'Pick', options: options(140) }];
    const card = slackQuestionCard({ key: 'abcdefghij', questions });
    expect(controls(card.blocks).map((element) => element.type)).toEqual(['button']);
    expect(JSON.stringify(card.blocks)).toContain('Or reply in this thread');
  });

  it('shows the tool arguments as preformatted text, never mrkdwn', () => {
    const [question] = approvalQuestions({ tool: { name: 'deploy', input: { note: '*Approved* <https://evil.example|click>' } } });
    const card = slackQuestionCard({ key: 'abcdefghij', questions: [question!] });
    const preformatted = (card.blocks as { type: string; elements?: { type: string; elements: { text: string }[] }[] }[]).find((block) => block.type === 'rich_text');
    expect(preformatted?.elements?.[0]?.type).toBe('rich_text_preformatted');
    expect(preformatted?.elements?.[0]?.elements[0]?.text).toContain('*Approved* <https://evil.example|click>');
  });
});
