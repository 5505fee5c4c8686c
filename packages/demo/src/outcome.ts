/**
 * How an agent run ended. It never rejects: a demo that nobody awaits must not crash the process
 * with an unhandled rejection, so failures are an outcome too.
 */
export type AgentOutcome =
  /** The user approved the plan; plan mode is off. */
  | { status: 'approved'; plan: string }
  /** The user dismissed the questions or the plan review to speak instead. */
  | { status: 'dismissed' }
  /** The model ended with a message of its own without an approved plan (OpenAI-compatible agent only). */
  | { status: 'finished'; message: string }
  /** The agent used up its turns (model round trips or plan reviews). */
  | { status: 'turn-limit'; turns: number }
  /** The demo was closed while the agent was still working. */
  | { status: 'aborted' }
  /** Something broke: an unexpected tool error or an unusable model endpoint. */
  | { status: 'failed'; reason: string };

/** One line for the transcript, for every way a run can end. */
export function describeOutcome(outcome: AgentOutcome): string {
  switch (outcome.status) {
    case 'approved':
      return 'The plan was approved; the agent leaves plan mode.';
    case 'dismissed':
      return 'The user dismissed the questions; the agent stops and waits for them to speak.';
    case 'finished':
      return 'The model finished without an approved plan.';
    case 'turn-limit':
      return `The agent stopped after ${outcome.turns} turns without an approved plan.`;
    case 'aborted':
      return 'The demo was closed while the agent was waiting.';
    case 'failed':
      return `The agent failed: ${outcome.reason}`;
  }
}
