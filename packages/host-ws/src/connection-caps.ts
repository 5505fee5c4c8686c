import type { ConnectionIndex, Indexable } from './connection-index.js';
import { seesEverything, type Principal } from './principal.js';

export interface ConnectionCaps {
  maxConnections: number;
  maxConnectionsPerPrincipal: number;
}

/**
 * Why one more connection (of any transport: the caps count WebSockets and event streams
 * together) may not be accepted, or undefined when it may. Connections still closing count: their
 * unread frames are still in memory.
 */
export function capRefusal<C extends Indexable>(audience: ConnectionIndex<C>, principal: Principal, caps: ConnectionCaps): { status: 429 | 503; reason: string } | undefined {
  const { maxConnections, maxConnectionsPerPrincipal } = caps;
  if (audience.size >= maxConnections) return { status: 503, reason: `the host has maxConnections (${maxConnections}) open` };
  // The host's own token and anonymous principals are everyone who holds the token (or reaches
  // the port), not one user: only maxConnections bounds them.
  if (!seesEverything(principal) && audience.countOf(principal.id) >= maxConnectionsPerPrincipal) {
    return { status: 429, reason: `the principal has maxConnectionsPerPrincipal (${maxConnectionsPerPrincipal}) open` };
  }
  return undefined;
}
