import type { TextLang } from '@askseam/text';

/** The words of the terminal provider around the questions, in each language. */
export interface TerminalMessages {
  ownAnswer: string;
  ownAnswerPrompt: string;
  skip: string;
  cancel: string;
  yes: string;
  no: string;
  required: string;
  cancelHint: string;
  endOfReply: string;
  cancelledByUser: string;
  inputEnded: string;
  noUsableReply(attempts: number): string;
  blank: string;
  /** An approval (a tool call waiting for a yes or no). */
  approvalTool: string;
  /** Every top-level key of the arguments, named above them. */
  approvalKeys(keys: readonly string[]): string;
  /** The label over the model's words (what the tool does, why): nobody checked them. */
  approvalAgent: string;
  approvalDescription: string;
  approvalReason: string;
  approvalArguments: string;
  denyWithReason: string;
  reasonPrompt: string;
}

export const terminalMessages: Readonly<Record<TextLang, TerminalMessages>> = {
  en: {
    ownAnswer: 'Type my own answer',
    ownAnswerPrompt: 'Your answer:',
    skip: 'Skip this question',
    cancel: 'Cancel (dismiss all questions)',
    yes: 'Yes',
    no: 'No',
    required: '(required)',
    cancelHint: 'Ctrl+C dismisses the questions.',
    endOfReply: 'End your reply with an empty line. "/cancel" dismisses the questions.',
    cancelledByUser: 'The user dismissed the questions at the terminal.',
    inputEnded: 'The input ended before a usable reply arrived.',
    noUsableReply: (attempts) => `No usable reply after ${attempts} attempts.`,
    blank: 'Please type an answer.',
    approvalTool: 'Tool: ',
    approvalKeys: (keys) => (keys.length === 0 ? 'Argument names: none' : `Argument names (${keys.length}): ${keys.join(', ')}`),
    approvalAgent: 'The agent says (unverified):',
    approvalDescription: 'What it does: ',
    approvalReason: 'Why:',
    approvalArguments: 'Arguments:',
    denyWithReason: 'Deny, and say why',
    reasonPrompt: 'Your reason:',
  },
  zh: {
    ownAnswer: '自己输入答案',
    ownAnswerPrompt: '你的答案：',
    skip: '跳过此题',
    cancel: '取消（忽略全部问题）',
    yes: '是',
    no: '否',
    required: '（必填）',
    cancelHint: '按 Ctrl+C 可取消全部问题。',
    endOfReply: '回复完毕请输入一个空行；输入“/cancel”可取消全部问题。',
    cancelledByUser: '用户在终端取消了问题。',
    inputEnded: '输入在得到有效回复之前结束了。',
    noUsableReply: (attempts) => `尝试 ${attempts} 次后仍没有有效回复。`,
    blank: '请输入答案。',
    approvalTool: '工具：',
    approvalKeys: (keys) => (keys.length === 0 ? '参数名：无' : `参数名（共 ${keys.length} 个）：${keys.join(', ')}`),
    approvalAgent: '智能体的说法（未经核实）：',
    approvalDescription: '用途：',
    approvalReason: '原因：',
    approvalArguments: '参数：',
    denyWithReason: '拒绝，并说明理由',
    reasonPrompt: '你的理由：',
  },
};
