import type { AgentRef, AgentRegistry } from '../types.js';

/** A registry of live agents in which only `roots` own no one above them; `delegated` are alive but owned. */
export function agentRegistry(roots: AgentRef[], delegated: AgentRef[] = []): AgentRegistry {
  const live = [...roots, ...delegated];
  return { get: (id) => live.find((agent) => agent.id === id), roots: () => roots };
}
