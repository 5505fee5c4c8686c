import { describe, expect, it } from 'vitest';
import { askseamQuestionsOf, claudeAnswersOf, parseClaudeQuestions, skippedAnswerText, type ClaudeQuestion } from './claude-questions.js';

const layout: ClaudeQuestion = {
  question: 'Which layout?',
  header: 'Layout',
  multiSelect: false,
  options: [
    { label: 'Grid', description: 'Cards in rows.', preview: '[ ] [ ]\n[ ] [ ]' },
    { label: 'List', description: 'One per line.', preview: '```\n- a\n```' },
  ],
};
const extras: ClaudeQuestion = {
  question: 'Which extras?',
  header: 'Extras',
  multiSelect: true,
  options: [
    { label: 'Dark mode', description: 'A dark theme.' },
    { label: 'Offline', description: 'Works without a network.' },
  ],
};

describe('parseClaudeQuestions', () => {
  it('reads the AskUserQuestion input the CLI sends', () => {
    expect(parseClaudeQuestions({ questions: [layout, extras], metadata: { source: 'x' } })).toEqual({ ok: true, questions: [layout, extras] });
  });

  it('refuses two questions with the same text, since answers are keyed by it', () => {
    const parsed = parseClaudeQuestions({ questions: [extras, { ...extras, header: 'Again' }] });
    expect(parsed).toEqual({ ok: false, problem: 'AskUserQuestion asks "Which extras?" twice; every question text must be unique.' });
  });

  it('names the field that does not fit and says what to send', () => {
    const parsed = parseClaudeQuestions({ questions: [{ ...layout, options: [layout.options[0]] }] });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(/^AskUserQuestion input\.questions\.0\.options: .*Send 1-4 questions/);
  });
});

describe('askseamQuestionsOf', () => {
  it('gives stable ids and puts option previews into the detail, fenced so they cannot break out', () => {
    const [first, second] = askseamQuestionsOf([layout, extras]);
    expect(first).toMatchObject({ id: 'q1', header: 'Layout', multiSelect: false, options: [{ label: 'Grid', description: 'Cards in rows.' }, { label: 'List', description: 'One per line.' }] });
    expect(first!.detail).toBe('**Grid**\n\n```\n[ ] [ ]\n[ ] [ ]\n```\n\n**List**\n\n````\n```\n- a\n```\n````');
    expect(second).toEqual({ id: 'q2', question: 'Which extras?', header: 'Extras', multiSelect: true, options: extras.options });
    expect(askseamQuestionsOf([layout, extras])).toEqual([first, second]);
  });
});

describe('claudeAnswersOf', () => {
  it('keys answers by question text, joins multi-select labels with commas and adds the person\'s words', () => {
    const answer = { answers: [{ id: 'q1', selected: ['List'] }, { id: 'q2', selected: ['Dark mode', 'Offline'], custom: ' and big fonts ' }] };
    expect(claudeAnswersOf([layout, extras], answer)).toEqual({
      answers: { 'Which layout?': 'List', 'Which extras?': 'Dark mode, Offline, and big fonts' },
      annotations: { 'Which layout?': { preview: '```\n- a\n```' } },
    });
  });

  it('says a skipped question was skipped and adds no annotations when no preview was chosen', () => {
    expect(claudeAnswersOf([extras], { answers: [{ id: 'q1', selected: [] }] })).toEqual({ answers: { 'Which extras?': skippedAnswerText } });
  });
});
