import type { AskToolErrorCode } from './result.js';

/**
 * What the model should do after each failure, one line per code. Written for the model: it is the
 * last line of the error result. Tool-neutral wording, because plan mode renders errors the same way.
 */
export const askToolErrorHints: Readonly<Record<AskToolErrorCode, string>> = {
  // Mistakes in the call: the model can fix them.
  INVALID_ARGUMENTS: 'Fix the arguments as described above and call the tool again.',
  EMPTY_QUESTIONS: 'Include at least one question and call the tool again.',
  INVALID_QUESTIONS: 'Fix the question named above and call the tool again.',
  BAD_INTENT: 'Fix the question named above: an intent must name one of its option labels and come with a detail to review.',
  // Who is asking: only a root agent reaches the user.
  DELEGATED_CALLER:
    'Do not ask again. Finish your task as far as you can and put the open question or decision into your final result, so the agent that delegated to you can ask the user.',
  CALLER_NOT_LIVE:
    'This agent cannot reach the user. Do not ask again; continue on a clearly stated assumption, or report the open question in your result.',
  ASK_MISSING_AGENT:
    'The host could not tell which agent is asking (a setup problem, not a fault in your call). Do not retry; continue on a clearly stated assumption, or report the open question.',
  // Nobody to answer, or the answer path failed.
  NO_PROVIDER:
    'No human is reachable right now. Do not retry; continue on a clearly stated assumption, or stop and report what you need to know.',
  DUPLICATE_PROVIDER:
    'The application is misconfigured (a setup problem, not a fault in your call). Do not retry; continue on a clearly stated assumption, or report the open question.',
  BAD_ANSWER:
    'The answer that came back did not fit your questions (not a fault in your call). You may ask once more; if it fails again, continue on a clearly stated assumption.',
  PROVIDER_FAILED:
    'The question could not be delivered. You may try once more; if it fails again, continue on a clearly stated assumption, or report the open question.',
  // The user or the clock decided.
  ASK_CANCELLED: 'The user dismissed the questions. Do not ask again; stop and wait for their next message.',
  ASK_TIMEOUT:
    'The user did not answer in time. Continue on a clearly stated assumption, or ask again later if the question still blocks you.',
  ASK_ABORTED: 'The question was withdrawn because the run was stopped. Do not ask again unless the user asks you to continue.',
};
