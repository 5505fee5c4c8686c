import { describe, expect, it } from 'vitest';
import type { AskUserQuestionItem } from './schemas.js';
import { answerMismatch } from './match.js';
import { isSensitiveQuestion, namesSecret, redactedAnswerText, redactSensitiveAnswers } from './sensitive.js';

describe('namesSecret', () => {
  it.each([
    'Paste your API token',
    'Your GitHub personal access token',
    'apiKey',
    'db_password',
    'DATABASE_PASSWORD',
    'The passphrase of your SSH key',
    'Client secret',
    'AWS secret access key',
    'Enter the PIN',
    'Your 2FA code',
    'Private key (PEM)',
    'credentials for the registry',
    '请输入密码',
    '你的 API 密钥',
    '访问令牌',
    '短信验证码',
  ])('finds a secret in %j', (text) => {
    expect(namesSecret(text)).toBe(true);
  });

  it.each([
    'Which database?',
    'How many max tokens should the summary use?',
    'Which sort key?',
    'Which version should we pin?',
    'Keyboard layout',
    'Your username',
    'Your email address',
    '你的用户名',
    'Tokenizer name',
    'Which secret manager do you use?',
    'Path to the credentials file?',
    'What should the password policy say?',
    'Print the working directory (pwd) first?',
  ])(
    'finds none in %j',
    (text) => {
      expect(namesSecret(text)).toBe(false);
    },
  );
});

describe('isSensitiveQuestion', () => {
  it('takes the sensitive flag whatever the wording', () => {
    expect(isSensitiveQuestion({ id: 'x', question: 'What is it?', sensitive: true })).toBe(true);
  });

  it('finds a typed question whose wording or id names a secret', () => {
    expect(isSensitiveQuestion({ id: 'q', question: 'Paste your OpenAI API key' })).toBe(true);
    expect(isSensitiveQuestion({ id: 'db_password', question: 'For the database', input: { kind: 'text' } })).toBe(true);
  });

  it('counts a number only when it is flagged: "Minimum password length?" asks for no secret', () => {
    expect(isSensitiveQuestion({ id: 'q', question: 'Minimum password length?', input: { kind: 'number', min: 8 } })).toBe(false);
    expect(isSensitiveQuestion({ id: 'q', question: 'Your PIN?', input: { kind: 'number' }, sensitive: true })).toBe(true);
  });

  it('never counts a choice or a checkbox, whose values are not typed', () => {
    expect(isSensitiveQuestion({ id: 'q', question: 'Rotate the API key now?', options: [{ label: 'Yes' }, { label: 'No' }] })).toBe(false);
    expect(isSensitiveQuestion({ id: 'q', question: 'Store the password in the keychain?', input: { kind: 'checkbox' } })).toBe(false);
  });
});

describe('redactSensitiveAnswers', () => {
  const questions: AskUserQuestionItem[] = [
    { id: 'name', question: 'Your name?' },
    { id: 'token', question: 'Paste your API token', input: { kind: 'text' } },
    { id: 'pin', question: 'Code?', sensitive: true },
  ];

  it('replaces the typed text of sensitive questions only, and keeps a skip a skip', () => {
    const answer = { answers: [{ id: 'name', selected: [], custom: 'Ada' }, { id: 'token', selected: [], custom: 'sk-live-123' }, { id: 'pin', selected: [] }] };
    expect(redactSensitiveAnswers(questions, answer)).toEqual({
      answers: [{ id: 'name', selected: [], custom: 'Ada' }, { id: 'token', selected: [], custom: redactedAnswerText }, { id: 'pin', selected: [] }],
    });
    // The caller's answer is untouched: the asker still gets the real value.
    expect(answer.answers[1]!.custom).toBe('sk-live-123');
  });

  it('returns the same answer when nothing is sensitive', () => {
    const answer = { answers: [{ id: 'name', selected: [], custom: 'Ada' }] };
    expect(redactSensitiveAnswers([questions[0]!], answer)).toBe(answer);
  });
});

describe('answerMismatch on a secret', () => {
  it('never quotes the typed value of a sensitive date or checkbox in its message', () => {
    const born: AskUserQuestionItem = { id: 'born', question: 'Date of birth', input: { kind: 'date', min: '1900-01-01' }, sensitive: true };
    const agreed: AskUserQuestionItem = { id: 'agreed', question: 'Agreed?', input: { kind: 'checkbox' }, sensitive: true };
    for (const [question, custom] of [[born, '1899-12-31'], [born, 'hunter2'], [agreed, 'hunter2']] as const) {
      const mismatch = answerMismatch([question], { answers: [{ id: question.id, selected: [], custom }] });
      expect(mismatch?.message).toBeDefined();
      expect(mismatch!.message).not.toContain(custom);
      expect(mismatch!.message).toContain(redactedAnswerText);
    }
  });

  it('never quotes the typed value of a sensitive number in its message', () => {
    const pin: AskUserQuestionItem = { id: 'pin', question: 'Card check', input: { kind: 'number', min: 0, max: 9999 }, sensitive: true };
    for (const custom of ['12ab', '98765']) {
      const mismatch = answerMismatch([pin], { answers: [{ id: 'pin', selected: [], custom }] });
      expect(mismatch?.questionId).toBe('pin');
      expect(mismatch?.message).not.toContain(custom);
    }
  });
});
