// The three recipes of docs/routing.md, as route functions an app passes to createWebSocketHost.
// examples/routing-recipes.test.ts runs each one on a real host with real sockets.
import { agentAnswerer, type AgentAnswerer, type Route } from '@askseam/host-ws';

// #region on-call
/** The on-call engineers first; their lead (by name) too if nobody answered within `afterMs` (default 15 minutes). */
export function onCallEscalation(options: { lead: string; afterMs?: number }): Route {
  return () => [
    { answerers: [{ group: 'oncall' }, { channel: 'slack:C0ONCALL' }] },
    { answerers: [{ principal: options.lead }], after: options.afterMs ?? 15 * 60_000 },
  ];
}
// #endregion on-call

// #region production
/** Tool approvals that touch production go to the prod-approvers group only (never an agent); every other question is unrouted. */
export const productionApprovals: Route = (questions) => {
  const touchesProduction = questions.some((question) => {
    if (question.intent?.kind !== 'tool-approval') return false;
    const input = question.intent.tool.input as { env?: unknown } | undefined;
    return input?.env === 'production';
  });
  return touchesProduction ? [{ answerers: [{ group: 'prod-approvers' }] }] : undefined;
};
// #endregion production

// #region supervisor
/**
 * A sub-agent's clarification goes to its supervising agent first; a person sees it only when the
 * supervisor defers (or answers twice with something that does not fit the question).
 */
export function supervisorFirst(supervisor: AgentAnswerer, person: string): Route {
  return () => [{ answerers: [supervisor] }, { answerers: [{ principal: person }], after: 10 * 60_000 }];
}

/** A supervisor that knows the project's standing decisions, and defers everything else. */
export const supervisor = agentAnswerer({
  name: 'supervisor',
  answer: (questions) => {
    const database = questions.find((question) => question.id === 'database');
    if (database === undefined || questions.length !== 1) return 'defer';
    return { answers: [{ id: 'database', selected: ['Postgres'] }] };
  },
});
// #endregion supervisor
