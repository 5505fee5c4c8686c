import { UserQuestionError } from './errors.js';
import type { ApprovalQuorum, ApprovalTool, AskUserQuestionAnswer, AskUserQuestionItem, AskUserQuestionUrgency, ToolApprovalIntent } from './schemas.js';
import type { AgentRef, AnsweredBy } from './types.js';
import type { UserQuestions } from './user-questions.js';

// "May I run this tool with these arguments?" as an ordinary question with a tool-approval intent
// (docs/approvals.md). Three pieces, so that every way of asking shares one question and one
// reading of the answer: `approvalQuestions` builds the batch, `approvalDecisionOf` reads an
// answer back, and `askApproval` does both around a blocking `ask`. A detached ask (the WebSocket
// host's `askApprovalDetached` / `approvalFromRecord`) uses the first two.

/** What the person decided. `reason` is their own words when they denied with some. */
export type ApprovalDecision = { approved: true } | { approved: false; reason?: string };

/**
 * What `askApproval` resolves with: the decision and, when the provider says, who made it (`by`:
 * the person whose answer decided, or every approver of a quorum, in the order they voted; the
 * one person who denied). Absent with a provider that cannot say who answered.
 */
export type ApprovalOutcome = ApprovalDecision & { by?: readonly AnsweredBy[] };

/** The languages the approval question is worded in. */
export type ApprovalLang = 'en' | 'zh';

/** What the approval question is about. */
export interface ApprovalQuestionRequest {
  /** The tool call: its name, its arguments as JSON (at most 64 KiB), and what the tool does. */
  tool: ApprovalTool;
  /** Why the agent wants to run it: shown as the question's Markdown `detail` (sanitised like any detail). */
  reason?: string;
  /** The words of the question and of its two options. Defaults to `en`. */
  lang?: ApprovalLang;
  /** Several approvers: `approvals` distinct people must approve, any one may deny (docs/approvals.md, "Quorum"). */
  quorum?: ApprovalQuorum;
}

export interface AskApprovalOptions extends ApprovalQuestionRequest {
  /** The asking agent (the WebSocket host needs it to route the question to a session). */
  agent?: AgentRef;
  /** Aborting it withdraws the question: `askApproval` rejects `ASK_ABORTED`. */
  signal?: AbortSignal;
  /** Give up after this many milliseconds: `askApproval` rejects `ASK_TIMEOUT`. No timeout by default. */
  timeoutMs?: number;
  urgency?: AskUserQuestionUrgency;
}

/** The id of the one question an approval batch holds (the answer's `id`). */
export const approvalQuestionId = 'tool-approval';

const words: Record<ApprovalLang, { header: string; question: (tool: string) => string; approve: string; approveNote: string; deny: string; denyNote: string }> = {
  en: {
    header: 'Tool approval',
    question: (tool) => `Allow the agent to run ${tool}?`,
    approve: 'Approve',
    approveNote: 'Run the tool with these arguments.',
    deny: 'Deny',
    denyNote: 'Do not run it. To tell the agent why, answer in your own words instead.',
  },
  zh: {
    header: '工具审批',
    question: (tool) => `允许智能体运行 ${tool} 吗？`,
    approve: '批准',
    approveNote: '用这些参数运行该工具。',
    deny: '拒绝',
    denyNote: '不运行。若要告诉智能体原因，请改用自己的话回答。',
  },
};

/**
 * The question batch of an approval: one single-select question with the options Approve / Deny
 * (批准 / 拒绝 in `zh`) and a tool-approval intent naming Approve. A reason to deny is the
 * question's custom answer. Nothing is checked here: the seam's gate 6 (or the host's detached
 * ask) checks the tool when the batch is asked.
 */
export function approvalQuestions(request: ApprovalQuestionRequest): AskUserQuestionItem[] {
  if (typeof request?.tool !== 'object' || request.tool === null) {
    throw new UserQuestionError('BAD_INTENT', 'An approval needs the tool call it is about: pass tool: { name, input, description? }.');
  }
  const text = words[request.lang === 'zh' ? 'zh' : 'en'];
  const tool: ApprovalTool = { name: request.tool.name, input: request.tool.input };
  if (request.tool.description !== undefined) tool.description = request.tool.description;
  const question: AskUserQuestionItem = {
    id: approvalQuestionId,
    header: text.header,
    question: text.question(request.tool.name),
    options: [
      { label: text.approve, description: text.approveNote },
      { label: text.deny, description: text.denyNote },
    ],
    intent: { kind: 'tool-approval', approve: text.approve, tool, ...(request.quorum === undefined ? {} : { quorum: request.quorum }) },
  };
  if (request.reason !== undefined) question.detail = request.reason;
  return [question];
}

/**
 * What an answer to an approval batch means. Approved is exactly one thing: the approve option
 * chosen alone. Anything else is a denial: the other option, a skip, or the person's own words,
 * which become the `reason`. Throws `INVALID_QUESTIONS` when no question of `questions` carries a
 * tool-approval intent (the batch is not an approval).
 */
export function approvalDecisionOf(questions: readonly AskUserQuestionItem[], answer: AskUserQuestionAnswer): ApprovalDecision {
  const question = questions.find((each) => each.intent?.kind === 'tool-approval');
  if (question === undefined) {
    throw new UserQuestionError('INVALID_QUESTIONS', 'These questions are not an approval: none carries a tool-approval intent. Build them with approvalQuestions().');
  }
  const intent = question.intent as ToolApprovalIntent;
  const item = answer.answers.find((each) => each.id === question.id);
  const reason = item?.custom?.trim();
  if (reason !== undefined && reason !== '') return { approved: false, reason };
  if (item !== undefined && item.selected.length === 1 && item.selected[0] === intent.approve) return { approved: true };
  return { approved: false };
}

/**
 * Ask a person whether a tool may run, and wait for their decision. Resolves only with what the
 * person decided; every other end rejects with the seam's `UserQuestionError`, never a denial:
 * `ASK_CANCELLED` (they dismissed the card), `ASK_TIMEOUT`, `ASK_ABORTED`, or a gate's code
 * (`BAD_INTENT` for a blank tool name or an input that is not JSON or over 64 KiB). Whoever
 * calls this decides what those mean; the tool must not run on any of them.
 */
export async function askApproval(userQuestions: UserQuestions, options: AskApprovalOptions): Promise<ApprovalOutcome> {
  const questions = approvalQuestions(options);
  const { agent, signal, timeoutMs, urgency } = options;
  let by: readonly AnsweredBy[] | undefined;
  const answer = await userQuestions.ask({ questions, agent, signal, timeoutMs, urgency, answeredBy: (people) => (by = people.map((person) => ({ ...person }))) });
  const decision: ApprovalOutcome = approvalDecisionOf(questions, answer);
  return by === undefined ? decision : { ...decision, by };
}
