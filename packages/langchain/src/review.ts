import {
  approvalQuestions,
  type AgentRef,
  type AskUserQuestionAnswer,
  type AskUserQuestionItem,
  type UserQuestions,
} from '@askseam/user-questions';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { editForm } from './edit-form.js';
import type { HitlActionRequest, HitlDecision, HitlRequest, HitlResponse, HitlReviewConfig } from './hitl-types.js';

export type ReviewLang = 'en' | 'zh';

const editWords: Record<ReviewLang, { label: string; note: string; rejected: (tool: string) => string }> = {
  en: { label: 'Edit', note: 'Change the arguments in a form, then run it.', rejected: (tool) => `The user denied running ${tool}.` },
  zh: { label: '编辑', note: '在表单中修改参数，然后运行。', rejected: (tool) => `用户拒绝运行 ${tool}。` },
};

/** The choice the person made on one action's card. */
export type CardChoice = { kind: 'decided'; decision: HitlDecision } | { kind: 'edit' } | { kind: 'not-allowed' };

/**
 * The approval card of one action: the seam's tool-approval question (Approve, Deny, words for a
 * reason) with only the decisions the middleware allows, plus **Edit** when editing is allowed.
 * The middleware's description of the call is the card's reason.
 */
export function actionCard(action: HitlActionRequest, review: HitlReviewConfig, options: { lang?: ReviewLang; toolDescription?: string } = {}): AskUserQuestionItem[] {
  const lang = options.lang ?? 'en';
  const tool = { name: action.name, input: action.args, ...(options.toolDescription === undefined ? {} : { description: options.toolDescription }) };
  const [card] = approvalQuestions({ tool, lang, ...(action.description === undefined ? {} : { reason: action.description }) });
  if (card === undefined) throw new Error('approvalQuestions returned no question');
  const [approve, deny] = card.options ?? [];
  const allowed = new Set(review.allowedDecisions);
  const offered = [
    ...(allowed.has('approve') && approve ? [approve] : []),
    ...(allowed.has('edit') ? [{ label: editWords[lang].label, description: editWords[lang].note }] : []),
    ...(allowed.has('reject') && deny ? [deny] : []),
  ];
  // Without Approve there is nothing to consent to: a plain question, not an approval.
  if (!allowed.has('approve')) {
    const { intent: _intent, ...plain } = card;
    return [{ ...plain, options: offered }];
  }
  return [{ ...card, options: offered }];
}

/** What the person's answer to `actionCard` means for the middleware. */
export function cardChoiceOf(action: HitlActionRequest, review: HitlReviewConfig, card: AskUserQuestionItem[], answer: AskUserQuestionAnswer, lang: ReviewLang = 'en'): CardChoice {
  const question = card[0];
  const item = answer.answers.find((each) => each.id === question?.id);
  const allowed = new Set(review.allowedDecisions);
  const reason = item?.custom?.trim();
  const picked = reason === undefined || reason === '' ? item?.selected[0] : undefined;
  const approveLabel = question?.intent?.kind === 'tool-approval' ? question.intent.approve : undefined;
  if (picked !== undefined && picked === approveLabel && allowed.has('approve')) return { kind: 'decided', decision: { type: 'approve' } };
  if (picked === editWords[lang].label && allowed.has('edit')) return { kind: 'edit' };
  // Deny, the person's own words, or a skip: a rejection, the words being the message for the model.
  if (!allowed.has('reject')) return { kind: 'not-allowed' };
  return { kind: 'decided', decision: { type: 'reject', message: reason !== undefined && reason !== '' ? reason : editWords[lang].rejected(action.name) } };
}

/** The review config of the action at `index`: the one at the same place, else the one naming its tool. */
export function reviewConfigFor(request: HitlRequest, index: number): HitlReviewConfig {
  const action = request.actionRequests[index];
  const same = request.reviewConfigs[index];
  const review = same !== undefined && same.actionName === action?.name ? same : request.reviewConfigs.find((each) => each.actionName === action?.name);
  // The middleware writes one per interrupted call; none means approve, edit and reject are all its defaults.
  return review ?? { actionName: action?.name ?? '', allowedDecisions: ['approve', 'edit', 'reject'] };
}

/**
 * The review config as offered: without `edit` when the form would have nothing a person can
 * change (only objects and arrays), so Edit never opens an empty form.
 */
export function offeredReview(action: HitlActionRequest, review: HitlReviewConfig, jsonSchema: Record<string, unknown> | undefined): HitlReviewConfig {
  if (editForm(action.args, review.argsSchema ?? jsonSchema).questions.length > 0) return review;
  return { ...review, allowedDecisions: review.allowedDecisions.filter((type) => type !== 'edit') };
}

/** The JSON Schema of a LangChain tool's arguments (zod or JSON Schema), for typing the edit form. */
export function toolJsonSchemaOf(tool: { schema?: unknown } | undefined): Record<string, unknown> | undefined {
  return tool?.schema === undefined ? undefined : (toJsonSchema(tool.schema as never) as Record<string, unknown>);
}

export interface ReviewActionsOptions {
  /** The calling agent, the registry's own object (the WebSocket host needs it). */
  agent?: AgentRef;
  /** Aborting it withdraws the open card (`ASK_ABORTED`). */
  signal?: AbortSignal;
  /** Give up on each card or form after this many milliseconds (`ASK_TIMEOUT`). */
  timeoutMs?: number;
  /** `en` (default) or `zh`. */
  lang?: ReviewLang;
  /**
   * The agent's tools (the array given to `createAgent`): the card shows what the tool does, and
   * the edit form is typed from its schema (else from the arguments the model sent).
   */
  tools?: readonly { name: string; description: string; schema?: unknown }[];
}

/**
 * Ask a person to review every action of a humanInTheLoopMiddleware interrupt, one approval card
 * each, and return the decisions exactly as the middleware takes them, in order:
 * `agent.invoke(new Command({ resume: await reviewActions(userQuestions, request, options) }), config)`.
 * Rejects with the seam's `UserQuestionError` (`ASK_CANCELLED`, `ASK_TIMEOUT`, `ASK_ABORTED`, …)
 * when nobody decided: resume nothing then, and the call does not run.
 */
export async function reviewActions(userQuestions: Pick<UserQuestions, 'ask'>, request: HitlRequest, options: ReviewActionsOptions = {}): Promise<HitlResponse> {
  const decisions: HitlDecision[] = [];
  for (const [index, action] of request.actionRequests.entries()) {
    decisions.push(await reviewAction(userQuestions, action, reviewConfigFor(request, index), options));
  }
  return { decisions };
}

async function reviewAction(userQuestions: Pick<UserQuestions, 'ask'>, action: HitlActionRequest, asked: HitlReviewConfig, options: ReviewActionsOptions): Promise<HitlDecision> {
  const lang = options.lang ?? 'en';
  const known = options.tools?.find((tool) => tool.name === action.name);
  const jsonSchema = toolJsonSchemaOf(known);
  const review = offeredReview(action, asked, jsonSchema);
  const form = editForm(action.args, review.argsSchema ?? jsonSchema);
  const ask = (questions: AskUserQuestionItem[]) =>
    userQuestions.ask({
      questions,
      ...(options.agent === undefined ? {} : { agent: options.agent }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
  const card = actionCard(action, review, { lang, ...(known?.description === undefined ? {} : { toolDescription: known.description }) });
  for (;;) {
    const choice = cardChoiceOf(action, review, card, await ask(card), lang);
    if (choice.kind === 'decided') return choice.decision;
    if (choice.kind === 'edit') {
      return { type: 'edit', editedAction: { name: action.name, args: form.argsFrom(await ask(form.questions)) } };
    }
    // A denial the middleware does not allow for this tool: ask again, the person must pick an option.
  }
}
