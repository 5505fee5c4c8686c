// A host that ends the run when the model asks for clarification and resumes on the user's next
// message, the way DeerFlow does: the tool message carries the plain text for any client and the
// structured payload for a UI; the reply (typed text or a submitted form) becomes the tool result.
import { answerFromValues, clarificationResultText, compileAskClarification, type CompiledClarification, type HumanInputRequest } from '@askseam/clarify';
import { parseTextReply } from '@askseam/text';

export interface ClarificationStop {
  /** What the chat shows, whatever the client. */
  content: string;
  /** What a client with a UI renders instead. */
  artifact: { human_input: HumanInputRequest };
  /** Keep it with the thread until the user replies. */
  pending: CompiledClarification;
}

export function stopForClarification(args: unknown): ClarificationStop | { error: string } {
  const compiled = compileAskClarification(args);
  if (!compiled.ok) return { error: compiled.error.message };
  return { content: compiled.value.text, artifact: { human_input: compiled.value.humanInput }, pending: compiled.value };
}

/** The user's next turn: typed text, or the values a form sent. The tool result, or what to ask again. */
export function resumeWithReply(pending: CompiledClarification, reply: string | Record<string, unknown>): { toolResult: string } | { askAgain: string } {
  const questions = pending.request.questions;
  const read = typeof reply === 'string' ? parseTextReply(questions, reply) : answerFromValues(questions, reply);
  if (!read.ok) return { askAgain: read.problems.map((problem) => problem.message).join('\n') };
  return { toolResult: clarificationResultText(pending, read.answer) };
}
