import { describe, expect, it } from 'vitest';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { renderText, shorten } from './render.js';

const db: AskUserQuestionItem = {
  id: 'db',
  header: 'Database',
  question: 'Which database should the service use?',
  options: [
    { label: 'Postgres (Recommended)', description: 'Mature, and the team runs it already.' },
    { label: 'SQLite', description: 'One file, nothing to operate.' },
  ],
};

const form: AskUserQuestionItem[] = [
  { id: 'project_name', header: 'Project name', question: 'What should the project be called?', input: { kind: 'text', maxLength: 40 }, required: true, placeholder: 'my-app' },
  { id: 'framework', question: 'Which framework?', options: [{ label: 'React' }, { label: 'Vue' }], input: { kind: 'select' }, required: true },
  { id: 'features', question: 'Which extras?', options: [{ label: 'Lint' }, { label: 'CI' }], multiSelect: true },
  { id: 'init_git', question: 'Initialise Git?', input: { kind: 'checkbox' } },
  { id: 'due', question: 'Deadline?', input: { kind: 'date', min: '2026-01-01', max: '2026-12-31' } },
  { id: 'replicas', question: 'Replicas?', input: { kind: 'number', min: 1, max: 9, step: 1 } },
  { id: 'notes', question: 'Anything else?', input: { kind: 'textarea', maxLength: 500 } },
];

describe('renderText: one question', () => {
  it('writes the question, numbered options with descriptions and the Recommended mark, and how to reply', () => {
    expect(renderText([db])).toBe(
      [
        '[Database] Which database should the service use?',
        '1. Postgres (Recommended) — Mature, and the team runs it already.',
        '2. SQLite — One file, nothing to operate.',
        'Pick one by number or label, or write your own answer.',
        '',
        'Reply with your answer, or "skip" to leave it open.',
      ].join('\n'),
    );
  });

  it('shows the context before the options', () => {
    const text = renderText([{ ...db, detail: 'We expect 10k writes a second.' }]);
    expect(text).toContain('Context:\nWe expect 10k writes a second.\n1. Postgres');
  });

  it('does not offer "skip" for a required question', () => {
    expect(renderText([{ ...db, required: true }])).toContain('(required)\n');
    expect(renderText([{ ...db, required: true }])).toMatch(/Reply with your answer\.$/);
  });

  it('marks the urgency of a request', () => {
    expect(renderText({ questions: [db], urgency: 'high' })).toMatch(/^\[Urgent\]\n/);
    expect(renderText({ questions: [db], urgency: 'low' })).toMatch(/^\[No rush\]\n/);
    expect(renderText({ questions: [db], urgency: 'medium' })).toMatch(/^\[Database\]/);
  });
});

describe('renderText: a form', () => {
  const text = renderText(form);

  it('numbers the questions and introduces them', () => {
    expect(text).toMatch(/^Please answer these 7 questions\.\n\n1\. \[Project name\] What should the project be called\? \(required\)\n/);
    expect(text).toContain('\n7. Anything else?\n');
  });

  it.each([
    ['text', 'Answer with one line of text, at most 40 characters. For example: my-app'],
    ['select', '   1) React\n   2) Vue\n   Pick one by number or label, or write your own answer.'],
    ['multi-select', '3. Which extras? (multiple allowed)\n   1) Lint\n   2) CI\n   Pick any by number or label (like "1, 3")'],
    ['checkbox', 'Initialise Git?\n   Answer yes or no.'],
    ['date', 'Answer with a date, YYYY-MM-DD, from 2026-01-01 to 2026-12-31.'],
    ['number', 'Answer with a number from 1 to 9, in steps of 1.'],
    ['textarea', 'Answer with text; several lines are fine, at most 500 characters.'],
  ])('gives the %s input its hint', (_kind, hint) => {
    expect(text).toContain(hint);
  });

  it('ends with how to reply to several questions', () => {
    expect(text).toMatch(/Reply with one line per question, like "1: …" and "2: …".*"skip".*$/);
  });
});

describe('renderText: Chinese', () => {
  const zh: AskUserQuestionItem[] = [
    { id: 'project_name', header: '项目名称', question: '项目叫什么？', input: { kind: 'text' }, required: true },
    { id: 'framework', header: '技术栈', question: '用哪个框架？', options: [{ label: 'React（推荐）' }, { label: 'Vue' }], required: true },
    { id: 'init_git', question: '要初始化 Git 吗？', input: { kind: 'checkbox' } },
  ];

  it('writes Chinese around Chinese questions', () => {
    expect(renderText(zh)).toBe(
      [
        '请回答以下 3 个问题。',
        '',
        '1. [项目名称] 项目叫什么？（必填）',
        '   请填写一行文字。',
        '',
        '2. [技术栈] 用哪个框架？（必填）',
        '   1) React（推荐）',
        '   2) Vue',
        '   请回复选项编号或名称，也可以写自己的答案。',
        '',
        '3. 要初始化 Git 吗？',
        '   请回答“是”或“否”。',
        '',
        '请每行回答一个问题，如“1: …”和“2: …”（也可写在一行：“1: …; 2: …”）。不想回答的问题可以不写或写“跳过”。',
      ].join('\n'),
    );
  });

  it('writes the language asked for', () => {
    expect(renderText(zh, { lang: 'en' })).toMatch(/^Please answer these 3 questions\./);
    expect(renderText([db], { lang: 'zh' })).toContain('1. Postgres（推荐） — Mature');
  });
});

describe('renderText: the budget', () => {
  const plan = Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: do the thing number ${i + 1} carefully.`).join('\n\n');
  const review: AskUserQuestionItem[] = [{ ...db, detail: plan }];

  it('leaves a text within the budget untouched', () => {
    const full = renderText(review, { budget: 100_000 });
    expect(full).toContain(plan);
    expect(renderText(review, { budget: full.length })).toBe(full);
  });

  it('shortens a long context at a paragraph end and says so', () => {
    const text = renderText(review, { budget: 1000 });
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text).toContain('Step 1: do the thing number 1 carefully.');
    expect(text).toMatch(/carefully\. …\n1\. Postgres/);
    expect(text).toMatch(/\(Shortened to fit: context of the question left out or shortened\.\)$/);
  });

  it('leaves the context out when a shortened one would say too little', () => {
    const text = renderText(review, { budget: 390 });
    expect(text.length).toBeLessThanOrEqual(390);
    expect(text).not.toContain('Step 1');
    expect(text).toContain('— Mature, and the team runs it already.');
  });

  it('leaves option descriptions out next', () => {
    const text = renderText(review, { budget: 300 });
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toContain('1. Postgres (Recommended)\n');
    expect(text).toContain('option descriptions left out');
  });

  it('as a last resort keeps the leading whole lines and how to reply, and counts the lines left out', () => {
    const many = Array.from({ length: 30 }, (_, i): AskUserQuestionItem => ({ id: `q${i}`, question: `Question number ${i + 1}?`, options: [{ label: 'Yes' }, { label: 'No' }] }));
    const text = renderText(many, { budget: 600 });
    expect(text.length).toBeLessThanOrEqual(600);
    expect(text).toMatch(/^Please answer these 30 questions\./);
    expect(text).toMatch(/\nReply with one line per question.*\n\(Shortened to fit: option descriptions left out; the last \d+ lines left out\.\)$/);
    const full = renderText(many, { budget: 100_000 }).split('\n');
    for (const line of text.split('\n').slice(0, -3)) expect(full).toContain(line);
  });

  it('never cuts inside a line or a word, at any budget', () => {
    const batch: AskUserQuestionItem[] = [{ ...db, detail: plan }, ...form];
    const full = renderText(batch, { budget: 100_000 });
    const words = new Set(full.split(/\s+/));
    for (let budget = 250; budget <= full.length; budget += 97) {
      const text = renderText(batch, { budget });
      expect(text.length, `budget ${budget}`).toBeLessThanOrEqual(budget);
      const body = text.split('\n').filter((line) => !line.startsWith('(Shortened'));
      for (const word of body.join(' ').split(/\s+/)) if (word !== '…') expect(words, `budget ${budget}`).toContain(word);
    }
  });

  it('writes the cut note in Chinese for Chinese questions', () => {
    const text = renderText([{ id: 'q', question: '批准这个计划吗？', detail: '计划第一步。'.repeat(300), options: [{ label: '批准' }] }], { budget: 300 });
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/（为适应长度已省略：问题的背景说明（删去或缩短）.*。）$/);
  });
});

describe('shorten', () => {
  it('prefers a paragraph end, then a line end, then a sentence end, then a space', () => {
    expect(shorten('aaaa aaaa.\n\nbbbb bbbb', 16)).toBe('aaaa aaaa. …');
    expect(shorten('aaaa aaaa.\nbbbb bbbb', 16)).toBe('aaaa aaaa. …');
    expect(shorten('aaaa aaaa. bbbb bbbb', 16)).toBe('aaaa aaaa. …');
    expect(shorten('aaaa aaaa bbbb bbbb', 16)).toBe('aaaa aaaa bbbb …');
    expect(shorten('aaaa aaaa bbbbbbbbb', 16)).toBe('aaaa aaaa …');
  });

  it('gives nothing rather than a fragment when no boundary keeps a third of the room', () => {
    expect(shorten('a'.repeat(100), 30)).toBeUndefined();
  });
});
