import type { HostLogger } from './logger.js';

/** Who is on the other end of a connection, and which sessions (asking agents' ids) they may see and answer. */
export interface Principal {
  id: string;
  /** The one authority on visibility: delivery, replay and answers all ask it. */
  canSee(sessionId: string): boolean;
  /**
   * The sessions this principal may see, when they can be listed. Sent in `hello`, and used to find
   * the questions to replay without scanning every pending question, so it must name every
   * session `canSee` accepts. Leave it out for "every session".
   */
  sessions?: string[];
}

/** The principal of token mode and of `allowAnonymous`: one user who sees every session. */
export function everySessionPrincipal(id: string): Principal {
  return { id, canSee: () => true };
}

/** `principal.canSee`, where a throwing hook means "no": an error must never widen access. */
export function safeCanSee(principal: Principal, sessionId: string, logger: HostLogger): boolean {
  try {
    return principal.canSee(sessionId) === true;
  } catch (error) {
    logger.error('principal.canSee threw; treating the session as not visible', { principalId: principal.id, sessionId, error: String(error) });
    return false;
  }
}

/** `principal.sessions`, or `undefined` when it is absent or unreadable. */
export function listedSessions(principal: Principal, logger: HostLogger): string[] | undefined {
  try {
    const sessions = principal.sessions;
    return Array.isArray(sessions) ? sessions.filter((s): s is string => typeof s === 'string') : undefined;
  } catch (error) {
    logger.error('principal.sessions threw; treating the principal as listing no sessions', { principalId: principal.id, error: String(error) });
    return [];
  }
}
