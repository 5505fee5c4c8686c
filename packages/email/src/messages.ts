import type { TextLang } from '@askseam/text';

/** Every sentence the e-mail channel adds around `@askseam/text`'s rendering, in each language. */
export interface MailMessages {
  urgent: string;
  approvalSubject(tool: string): string;
  manySubject(count: number, first: string): string;
  replyHow: string;
  link: string;
  linkText(url: string): string;
  correctionIntro: string;
  correctionStillOpen: string;
  alreadyAnswered(by: string | undefined): string;
  settledBy(who: string, via: string): string;
  settled: Record<'answered' | 'cancelled' | 'aborted' | 'timed_out', string>;
  noReplyNeeded: string;
}

const en: MailMessages = {
  urgent: '[Urgent] ',
  approvalSubject: (tool) => `Approval needed: ${tool}`,
  manySubject: (count, first) => `${count} questions: ${first}`,
  replyHow: 'Reply to this e-mail with your answer at the top; the quoted text under it is ignored.',
  link: 'Answer on the page instead',
  linkText: (url) => `Or answer on the page: ${url}`,
  correctionIntro: 'Your reply could not be used:',
  correctionStillOpen: 'The question is still open: reply to this e-mail with a corrected answer.',
  alreadyAnswered: (by) => `This question is no longer open${by === undefined ? '' : ` (${by})`}, so your reply changed nothing.`,
  settledBy: (who, via) => `answered by ${who} in ${via}`,
  settled: {
    answered: 'This question has been answered',
    cancelled: 'This question was dismissed',
    aborted: 'The agent withdrew this question',
    timed_out: 'This question timed out without an answer',
  },
  noReplyNeeded: 'No reply is needed.',
};

const zh: MailMessages = {
  urgent: '【紧急】',
  approvalSubject: (tool) => `需要审批：${tool}`,
  manySubject: (count, first) => `${count} 个问题：${first}`,
  replyHow: '请直接回复本邮件，把答案写在最上面；下面引用的内容会被忽略。',
  link: '改为在网页上回答',
  linkText: (url) => `也可以在网页上回答：${url}`,
  correctionIntro: '无法使用你的回复：',
  correctionStillOpen: '问题仍待回答：请回复本邮件，写上修改后的答案。',
  alreadyAnswered: (by) => `这个问题已经结束${by === undefined ? '' : `（${by}）`}，你的回复没有改变任何内容。`,
  settledBy: (who, via) => `由 ${who} 在 ${via} 回答`,
  settled: {
    answered: '这个问题已经有了回答',
    cancelled: '这个问题已被关闭',
    aborted: '智能体撤回了这个问题',
    timed_out: '这个问题已超时，没有回答',
  },
  noReplyNeeded: '无需回复。',
};

export const mailMessages: Record<TextLang, MailMessages> = { en, zh };
