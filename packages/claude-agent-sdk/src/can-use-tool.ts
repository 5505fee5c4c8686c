import type { CanUseTool, PermissionResult } from '@anthropic-ai/claude-agent-sdk';
import { askApproval, type AgentRef, type ApprovalLang, type AskUserQuestionUrgency, type UserQuestions } from '@askseam/user-questions';
import { askUserQuestionToolName, askseamQuestionsOf, claudeAnswersOf, parseClaudeQuestions } from './claude-questions.js';
import { noDecisionMessage } from './no-decision.js';

// The SDK's `canUseTool`, answered by a person through askseam: AskUserQuestion becomes askseam
// questions and its answers go back in `updatedInput`; every other tool becomes an approval card.

export interface AskseamCanUseToolOptions {
  /** The asking agent (the WebSocket host routes each question to its session). */
  agent?: AgentRef;
  /** The words of the approval card (`en` default, `zh`). */
  lang?: ApprovalLang;
  /** Give up after this many milliseconds; Claude is told nobody answered. No timeout by default. */
  timeoutMs?: number;
  urgency?: AskUserQuestionUrgency;
}

/**
 * A `canUseTool` for `query()`. AskUserQuestion: the person's answers reach the tool as
 * `updatedInput: { ...input, answers, annotations? }`. Any other tool: Approve is
 * `{ behavior: 'allow' }`, Deny is `{ behavior: 'deny', message }` carrying the person's reason.
 * The SDK's `signal` withdraws the question. Dismissed, timed out, withdrawn or refused: a denial
 * whose message says so, so nothing runs on silence.
 */
export function askseamCanUseTool(userQuestions: UserQuestions, options: AskseamCanUseToolOptions = {}): CanUseTool {
  const { agent, lang, timeoutMs, urgency } = options;
  return async (toolName, input, { signal, title, description, decisionReason }) => {
    if (toolName === askUserQuestionToolName) {
      const parsed = parseClaudeQuestions(input);
      if (!parsed.ok) return { behavior: 'deny', message: parsed.problem };
      try {
        const answer = await userQuestions.ask({ questions: askseamQuestionsOf(parsed.questions), agent, signal, timeoutMs, urgency });
        return { behavior: 'allow', updatedInput: { ...input, ...claudeAnswersOf(parsed.questions, answer) } };
      } catch (error) {
        return { behavior: 'deny', message: noDecisionMessage(error, 'these questions') };
      }
    }
    // The CLI's own sentence ("Claude wants to …") and why it asks are the card's reason.
    const reason = [title, decisionReason].filter((text): text is string => typeof text === 'string' && text.trim() !== '').join('\n\n');
    try {
      const decision = await askApproval(userQuestions, {
        tool: { name: toolName, input, ...(description === undefined ? {} : { description }) },
        ...(reason === '' ? {} : { reason }),
        lang,
        agent,
        signal,
        timeoutMs,
        urgency,
      });
      return decision.approved ? { behavior: 'allow', updatedInput: input } : denied(toolName, decision.reason);
    } catch (error) {
      return { behavior: 'deny', message: noDecisionMessage(error, `the request to run ${toolName}`) };
    }
  };
}

/** What Claude reads when the person denied: their own words when they gave some. */
export function deniedMessage(toolName: string, reason: string | undefined): string {
  return reason === undefined ? `The user denied running ${toolName}.` : `The user denied running ${toolName}: ${reason}`;
}

function denied(toolName: string, reason: string | undefined): PermissionResult {
  return { behavior: 'deny', message: deniedMessage(toolName, reason) };
}
