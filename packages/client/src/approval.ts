import { toolInputText, type AskUserQuestionItem } from '@askseam/user-questions';

/** What the approval card shows: the tool call, and the labels of its two buttons. */
export interface ToolApproval {
  /** The question's id (the answer's `id`). */
  id: string;
  question: string;
  header?: string;
  /** Why the agent wants to run the tool: the question's Markdown `detail`, when it has one. */
  reason?: string;
  /** The tool's name: show it as text. */
  toolName: string;
  /** What the tool does: show it as text, never as Markdown. */
  toolDescription?: string;
  /** The call's arguments, as the JSON value the seam checked. */
  input: unknown;
  /**
   * The arguments as indented JSON text (two spaces, `toolInputText`), directional formatting
   * characters written as escapes: show it as text, never as Markdown or HTML.
   */
  inputJson: string;
  /** The label that means "run it", exactly as offered. */
  approve: string;
  /** The other option's label (a denial without words), when there is one. */
  deny?: string;
  /** How many distinct people must approve (`intent.quorum.approvals`), for a quorum approval; any one may deny. */
  approvalsNeeded?: number;
}

/**
 * The approval card for a batch, or `undefined` when the generic composer must render it. Like
 * `planReviewOf`, a batch qualifies only when the card offers every answer the composer would:
 * one single-select question with a tool-approval intent, at most two options, one of them the
 * approve label; the card's reason box is the question's custom answer.
 */
export function approvalOf(questions: readonly AskUserQuestionItem[]): ToolApproval | undefined {
  if (questions.length !== 1) return undefined;
  const question = questions[0]!;
  const intent = question.intent;
  if (intent?.kind !== 'tool-approval') return undefined;
  if (question.multiSelect === true || (question.input !== undefined && question.input.kind !== 'select')) return undefined;
  const options = question.options ?? [];
  if (options.length > 2) return undefined;
  if (!options.some((option) => option.label === intent.approve)) return undefined;
  // Arguments that have no JSON text (only possible for questions that did not pass the seam) get no card.
  const inputJson = toolInputText(intent.tool.input);
  if (inputJson === undefined) return undefined;

  const approval: ToolApproval = {
    id: question.id,
    question: question.question,
    toolName: intent.tool.name,
    input: intent.tool.input,
    inputJson,
    approve: intent.approve,
  };
  if (question.header !== undefined) approval.header = question.header;
  if (question.detail !== undefined) approval.reason = question.detail;
  if (intent.tool.description !== undefined) approval.toolDescription = intent.tool.description;
  const deny = options.find((option) => option.label !== intent.approve)?.label;
  if (deny !== undefined) approval.deny = deny;
  if (intent.quorum !== undefined) approval.approvalsNeeded = intent.quorum.approvals;
  return approval;
}
