import type { HostLogger } from './logger.js';

/** Who is on the other end of a connection, and which sessions (asking agents' ids) they may see and answer. */
export interface Principal {
  id: string;
  /** The one authority on visibility: delivery, replay and answers all ask it. */
  canSee(sessionId: string): boolean;
  /**
   * The sessions this principal may see, as far as the app can list them: sent to the client in
   * `hello`. A hint only: replay and delivery still go by `canSee`, so a session left out of the
   * list is not hidden (unless `sessionsExhaustive` says the list is complete).
   */
  sessions?: string[];
  /**
   * `true` promises that `sessions` names every session `canSee` accepts. The host then looks only
   * at those sessions' questions (replay, the HTTP list) and routes live questions to this
   * connection only for them: cheaper with many pending questions or connections, but a session
   * missing from the list is never shown. `canSee` is still asked for each question.
   */
  sessionsExhaustive?: boolean;
  /** The groups the app puts this principal in: a route's `{ group }` answerer (docs/routing.md) and a quorum's `from` match them. */
  groups?: string[];
  /**
   * `true`: this principal may open the operator console (`<path>/console`) and its API: every
   * pending and settled question of every session, withdraw, re-send notifications (docs/console.md).
   * Only `authenticate` (or the `operatorToken`) makes one; a one-question link never is one.
   */
  operator?: true;
}

// The host's own see-everything principals, so that delivery can skip asking them.
const seesEverySession = new WeakSet<Principal>();

/** The principal of token mode and of `allowAnonymous`: one user who sees every session. */
export function everySessionPrincipal(id: string): Principal {
  const principal: Principal = { id, canSee: () => true };
  seesEverySession.add(principal);
  return principal;
}

/** The principal of the `operatorToken`: an operator who sees every session. */
export function operatorTokenPrincipal(): Principal {
  const principal: Principal = { id: 'operator-token', canSee: () => true, operator: true };
  seesEverySession.add(principal);
  return principal;
}

/**
 * Whether the principal may use the operator console. Exactly `true`, never a truthy look-alike,
 * and never a one-question link; a throwing getter means "no": an error must never widen access.
 */
export function isOperator(principal: Principal): boolean {
  if (linkQuestions.has(principal)) return false;
  try {
    return principal.operator === true;
  } catch {
    return false;
  }
}

// The host's own one-question principals (links), with the one question each may see and answer.
const linkQuestions = new WeakMap<Principal, string>();

/**
 * The principal of a one-question link: it sees `sessionId` for that question only. The
 * restriction lives in the host (`onlyQuestion`), not in `canSee`, because `canSee` is asked about
 * sessions and a session holds other questions this link must never show.
 */
export function linkPrincipal(rpcId: string, sessionId: string): Principal {
  const principal: Principal = { id: `link:${rpcId}`, canSee: (session) => session === sessionId, sessions: [sessionId], sessionsExhaustive: true };
  linkQuestions.set(principal, rpcId);
  return principal;
}

/** The one question a link principal may see and answer; undefined for every other principal. */
export function onlyQuestion(principal: Principal): string | undefined {
  return linkQuestions.get(principal);
}

/** True for a principal made by `everySessionPrincipal` (never for one an app returned). */
export function seesEverything(principal: Principal): boolean {
  return seesEverySession.has(principal);
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

/**
 * The sessions to look in for this principal's questions: its `sessions` when it declares them
 * exhaustive, else `undefined` (look at every question and ask `canSee`). A throwing getter means
 * "every question", never "none": `canSee` still decides, and hiding a question is the worse error.
 */
export function exhaustiveSessions(principal: Principal, logger: HostLogger): string[] | undefined {
  try {
    if (principal.sessionsExhaustive !== true) return undefined;
    const sessions = principal.sessions;
    return Array.isArray(sessions) ? exactCopyOfStrings(sessions) : undefined;
  } catch (error) {
    logger.error('principal.sessions threw; looking at every session and asking canSee', { principalId: principal.id, error: String(error) });
    return undefined;
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

/**
 * The strings of `values`, in a copy of exactly their length. A connection keeps this copy for its
 * whole life: `filter` grows its result as it goes (room for 17 where one session is usual), which
 * would hold more than a hundred bytes per idle connection for nothing.
 */
function exactCopyOfStrings(values: unknown[]): string[] {
  const strings = values.every((value) => typeof value === 'string') ? values : values.filter((value) => typeof value === 'string');
  return strings.slice() as string[];
}
