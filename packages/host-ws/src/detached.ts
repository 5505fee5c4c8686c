import { questionUrgencySchema, type JsonValue, type QuestionUrgency } from '@askseam/store';
import { UserQuestionError, askUserQuestionsSchema, checkQuestionIntents, questionBatchProblem, type AgentRef, type AskUserQuestionItem } from '@askseam/user-questions';
// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';
import { WebSocketHostError } from './errors.js';

/** A question asked without waiting: `askDetached` returns its rpcId at once and the answer goes to `onResume`. */
export interface DetachedAskRequest {
  questions: AskUserQuestionItem[];
  /** The asking agent; its id is the session. Give this or `sessionId`. */
  agent?: AgentRef;
  /** The session whose clients see the question, when no live agent object is at hand (a cron job, a webhook). */
  sessionId?: string;
  /** Your JSON, kept with the question and handed back unchanged to `onResume` (never sent to clients). */
  state?: JsonValue;
  urgency?: QuestionUrgency;
}

export interface CheckedDetachedAsk {
  sessionId: string;
  askedBy: string;
  questions: AskUserQuestionItem[];
  state?: JsonValue;
  urgency?: QuestionUrgency;
}

const extrasSchema = z.object({
  sessionId: z.string().min(1, 'sessionId must not be empty').optional(),
  agentId: z.string().min(1, 'agent.id must not be empty').optional(),
  state: z.json().optional(),
  urgency: questionUrgencySchema.optional(),
});

/**
 * The seam's gates that make sense without a waiting caller, in the seam's order: questions
 * present, well formed, intents that agree with their question (gate 6, `checkQuestionIntents`). (Liveness and delegation
 * are about a caller that waits; a detached asker does not.) Throws like the seam does.
 */
export function checkDetachedAsk(request: DetachedAskRequest): CheckedDetachedAsk {
  if (typeof request !== 'object' || request === null) throw new WebSocketHostError('INVALID_REQUEST', 'askDetached needs { questions, agent or sessionId, state?, urgency? }.');
  const extras = extrasSchema.safeParse({ sessionId: request.sessionId, agentId: request.agent?.id, state: request.state, urgency: request.urgency });
  if (!extras.success) {
    const issue = extras.error.issues[0];
    throw new WebSocketHostError('INVALID_REQUEST', `askDetached: ${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'} (state must be plain JSON).`);
  }
  const { sessionId, agentId, state, urgency } = extras.data;
  if (sessionId !== undefined && agentId !== undefined && sessionId !== agentId) {
    throw new WebSocketHostError('INVALID_REQUEST', `askDetached was given agent "${agentId}" and sessionId "${sessionId}"; give one of them (the agent's id is its session).`);
  }
  const session = agentId ?? sessionId;
  if (session === undefined) {
    throw new UserQuestionError('ASK_MISSING_AGENT', 'The WebSocket host routes each question to a session, but askDetached got neither `agent` nor `sessionId`.');
  }
  if (!Array.isArray(request.questions) || request.questions.length === 0) {
    throw new UserQuestionError('EMPTY_QUESTIONS', 'No questions were given; ask at least one question.');
  }
  const problem = questionBatchProblem(request.questions);
  if (problem !== undefined) throw new UserQuestionError('INVALID_QUESTIONS', problem);
  // Only the contract's fields are kept, and the caller's later edits do not reach the store.
  const questions = askUserQuestionsSchema.parse(request.questions);
  const intents = checkQuestionIntents(questions);
  if (!intents.ok) throw new UserQuestionError('BAD_INTENT', intents.problem);
  return {
    sessionId: session,
    askedBy: session,
    questions,
    ...(state === undefined ? {} : { state: structuredClone(state) }),
    ...(urgency === undefined ? {} : { urgency }),
  };
}
