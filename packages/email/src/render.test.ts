import { describe, expect, it } from 'vitest';
import { parseTextReply } from '@askseam/text';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { questionMail } from './render.js';

const framework: AskUserQuestionItem = {
  id: 'framework',
  header: 'Framework',
  question: 'Which framework?',
  options: [{ label: 'React (Recommended)', description: 'Most <b>used</b>' }, { label: 'Vue' }],
};
const base = { rpcId: 'r1', sessionId: 's', askedBy: 'agent', askedAt: '2026-12-01T10:00:00.000Z' };

describe('questionMail', () => {
  it('has a subject with the header and question, the options numbered with the recommended one marked, how to reply, and the link', () => {
    const mail = questionMail({ ...base, questions: [framework] }, { link: 'https://app.example.com/q?link=abc' });
    expect(mail.subject).toBe('Framework: Which framework?');
    expect(mail.text).toContain('1. React (Recommended) — Most <b>used</b>');
    expect(mail.text).toContain('2. Vue');
    expect(mail.text).toContain('Pick one by number or label');
    expect(mail.text).toContain('Reply to this e-mail');
    expect(mail.text).toContain('https://app.example.com/q?link=abc');
    // The HTML shows the same words, escaped: the description's markup is text, not markup.
    expect(mail.html).toContain('<strong>1. React (Recommended) — Most &lt;b&gt;used&lt;/b&gt;</strong>');
    expect(mail.html).not.toContain('<b>used</b>');
    expect(mail.html).toContain('<a href="https://app.example.com/q?link=abc">');
  });

  it('shows an approval\'s tool and arguments as inert text, and its urgency in the subject', () => {
    const approval: AskUserQuestionItem = {
      id: 'tool-approval',
      question: 'Run deploy?',
      options: [{ label: 'Approve' }, { label: 'Deny' }],
      intent: { kind: 'tool-approval', approve: 'Approve', tool: { name: 'deploy', input: { service: '<script>alert(1)</script>', when: 'now\nFrom: ceo' } } },
    };
    const mail = questionMail({ ...base, urgency: 'high', questions: [approval] });
    expect(mail.subject).toBe('[Urgent] Approval needed: deploy');
    expect(mail.text).toContain('Tool: deploy');
    expect(mail.text).toContain('"service": "<script>alert(1)</script>"');
    expect(mail.text).toContain('deny: not on a Friday');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    // What the mail says to reply is what the reply parser reads.
    expect(parseTextReply([approval], 'deny: not on a Friday')).toMatchObject({ ok: true, answer: { answers: [{ selected: [], custom: 'not on a Friday' }] } });
  });

  it('keeps the subject one line, its bidi controls shown, cut at a word', () => {
    const long = questionMail({ ...base, questions: [{ id: 'q', question: `Ship\u202e it?\n${'word '.repeat(60)}` }] });
    expect(long.subject).not.toMatch(/[\n\u202e]/);
    expect(long.subject.length).toBeLessThanOrEqual(120);
    expect(long.subject.endsWith('…')).toBe(true);
  });

  it('writes a Chinese question\'s mail in Chinese, its own sentences included', () => {
    const mail = questionMail({ ...base, questions: [{ id: 'env', header: '环境', question: '部署到哪个环境？', options: [{ label: '生产（推荐）' }, { label: '预发' }] }] });
    expect(mail.subject).toBe('环境: 部署到哪个环境？');
    expect(mail.text).toContain('1. 生产（推荐）');
    expect(mail.text).toContain('请直接回复本邮件');
    expect(mail.html).toContain('<strong>1. 生产（推荐）</strong>');
  });
});
