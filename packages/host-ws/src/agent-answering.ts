import type { AskUserQuestionItem } from '@askseam/user-questions';
import type { Judge } from './judge.js';
import type { HostLogger } from './logger.js';
import type { PendingQuestion, PendingTable } from './pending.js';
import type { AgentAnswerer } from './route.js';
import { agentPrincipal } from './routing.js';

/**
 * How a reached tier's agent answerers answer (docs/routing.md, "Agent answerers"). Each agent in
 * turn gets the question; its answer is judged by the host exactly like a person's (`judge`). A
 * misfit goes back to the same agent once, with askseam's own problem text as `feedback`; a second
 * misfit, a `'defer'` or a throw means it gives up. Resolves `answered` once one answer was
 * accepted, `settled` when the question ended another way, and `gave-up` when every agent gave up
 * (the routing then reaches the next tier at once).
 */
export async function runAgentAnswerers(
  deps: { judge: Judge; pending: PendingTable; logger: HostLogger },
  entry: PendingQuestion,
  tier: number,
  agents: readonly AgentAnswerer[],
  signal: AbortSignal,
): Promise<'answered' | 'gave-up' | 'settled'> {
  const { judge, pending, logger } = deps;
  const { rpcId, sessionId } = entry;
  // No agent approves a tool call unless the approval says agents may.
  if (forbidsAgents(entry.questions)) {
    logger.info('a tool approval without allowAgents: its agent answerers are skipped', { rpcId, tier });
    return 'gave-up';
  }
  for (const agent of agents) {
    let feedback: string | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (signal.aborted || pending.get(rpcId) !== entry) return 'settled';
      let result: Awaited<ReturnType<AgentAnswerer['answer']>>;
      try {
        const context = { rpcId, sessionId, askedBy: entry.record.askedBy, askedAt: entry.askedAt, tier, signal, ...(feedback === undefined ? {} : { feedback }) };
        result = await agent.answer(structuredClone(entry.questions), { ...context, ...(entry.record.urgency === undefined ? {} : { urgency: entry.record.urgency }) });
      } catch (error) {
        logger.error('an agent answerer threw; it gives up on the question', { rpcId, agent: agent.agent, error: String(error) });
        break;
      }
      if (signal.aborted) return 'settled';
      if (result === 'defer') {
        logger.info('an agent answerer deferred the question', { rpcId, agent: agent.agent, tier });
        break;
      }
      const outcome = await judge.judge({ rpcId, result: { ok: true, value: { sessionId, answer: result } } }, agentPrincipal(agent.agent, sessionId), (session) => session === sessionId, {
        channel: 'agent',
        connectionId: `agent:${agent.agent}`,
      });
      if (outcome.kind === 'answered') return 'answered';
      if (outcome.kind !== 'rejected') return 'settled';
      if (outcome.reason === 'not-pending') return 'settled';
      if (outcome.reason !== 'bad-response') break;
      // Sent back once, with the same text a person would read.
      feedback = outcome.detail;
      logger.info('an agent answer did not fit the question; sending it back once', { rpcId, agent: agent.agent, attempt });
    }
  }
  return 'gave-up';
}

function forbidsAgents(questions: readonly AskUserQuestionItem[]): boolean {
  return questions.some((question) => question.intent?.kind === 'tool-approval' && question.intent.allowAgents !== true);
}
