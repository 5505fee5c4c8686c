import type { IncomingMessage } from 'node:http';
import { createWebSocketHost, type Principal, type WebSocketHost } from '@askseam/host-ws';
import type { UserQuestions } from '@askseam/user-questions';
import { consoleBundleUrl } from '@askseam/web/server';

// #region operators
/** Your sign-in decides who is an operator: `operator: true` opens the console, nothing else does. */
function authenticate(req: IncomingMessage): Principal | undefined {
  const user = signedInUser(req);
  if (user === undefined) return undefined;
  if (user.role === 'operator') return { id: user.id, canSee: () => true, operator: true };
  return { id: user.id, canSee: (sessionId) => user.sessions.includes(sessionId), sessions: user.sessions };
}

export function startHostWithConsole(userQuestions: UserQuestions, operatorToken: string): Promise<WebSocketHost> {
  return createWebSocketHost({
    userQuestions,
    authenticate,
    // Optional: a shared token for operators (a script, an on-call laptop); the users' never opens the console.
    operatorToken,
    // The page at /askseam/console loads <askseam-console> from this bundle.
    consoleScript: consoleBundleUrl(),
  });
}
// #endregion operators

interface SignedInUser {
  id: string;
  role: 'operator' | 'user';
  sessions: string[];
}

/** Stands in for your app's own session cookie check. */
function signedInUser(req: IncomingMessage): SignedInUser | undefined {
  const name = /(?:^|;\s*)demo-user=(\w+)/.exec(req.headers.cookie ?? '')?.[1];
  if (name === undefined) return undefined;
  return name === 'ops' ? { id: 'ops', role: 'operator', sessions: [] } : { id: name, role: 'user', sessions: [name] };
}
