import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { questionOutcomeSchema, type QuestionStore, type UnreadableRecord } from '@askseam/store';
import * as z from 'zod';
import { consoleStats } from './console-stats.js';
import { pendingView, quarantinedView, settledView, type ReachedTier } from './console-view.js';
import { WebSocketHostError } from './errors.js';
import { methodNotAllowed, readJsonBody, sendError, sendJson, wholeNumber } from './http-api.js';
import type { HostLogger } from './logger.js';
import { isOperator, type Principal } from './principal.js';
import type { QuarantinedQuestion } from './quarantine.js';

export interface ConsoleApiDeps {
  /** The host's path: the console lives at `${path}/console`. */
  path: string;
  store: QuestionStore;
  logger: HostLogger;
  maxBodyBytes: number;
  /** The console's browser bundle on disk (`consoleScript`), or undefined: the page is then not served. */
  script: string | URL | undefined;
  withdraw(rpcId: string, by: { principalId: string; reason?: string }): Promise<boolean>;
  resendNotification(rpcId: string): Promise<boolean>;
  /** The host has a `notify` hook: the page offers "re-send" only then. */
  canNotify: boolean;
  quarantined(): QuarantinedQuestion[];
  /** The routing tier a question has reached (the host's routing), when the host has a `route`. */
  reachedTier?: ReachedTier;
  onUnreadable(record: UnreadableRecord): void;
}

/** The bundle's route, served before authentication: it is the same public code as on npm, and a `<script>` carries no token. */
export const consoleScriptRoute = '/console/askseam-console.js';

const withdrawBodySchema = z.strictObject({ reason: z.string().max(500).optional() });
const historyQuerySchema = z.strictObject({
  session: z.string().min(1).max(500).optional(),
  agent: z.string().min(1).max(500).optional(),
  outcome: questionOutcomeSchema.optional(),
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
const statsQuerySchema = z.strictObject({ hours: z.coerce.number().int().min(1).max(24 * 30).default(24) });
const DEFAULT_EVENT_LIMIT = 200;
const MAX_EVENT_LIMIT = 1000;

/** The console's bundle (no authentication; see `consoleScriptRoute`). */
export async function serveConsoleScript(res: ServerResponse, deps: Pick<ConsoleApiDeps, 'script' | 'logger'>): Promise<void> {
  if (deps.script === undefined) return sendError(res, 404, 'no-console-script', 'This host serves no console bundle; pass `consoleScript` (consoleBundleUrl() from @askseam/web/server).');
  let code: Buffer;
  try {
    code = await readFile(deps.script);
  } catch (error) {
    deps.logger.error('could not read the console bundle (consoleScript)', { error: String(error) });
    return sendError(res, 500, 'no-console-script', 'The console bundle could not be read; build @askseam/web (`pnpm -F @askseam/web bundle`).');
  }
  res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': code.length, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  res.end(code);
}

/**
 * `<path>/console` and below, for an authenticated principal: 403 unless it is an operator (never
 * a session's user, never a one-question link). `route` is what follows `/console`.
 */
export async function serveConsole(req: IncomingMessage, res: ServerResponse, route: string, principal: Principal, deps: ConsoleApiDeps): Promise<void> {
  if (!isOperator(principal)) return sendError(res, 403, 'forbidden', 'The operator console is open to operators only (a principal with `operator: true`, or the `operatorToken`).');
  const method = req.method ?? 'GET';
  const query = new URL(req.url ?? '/', 'http://request.invalid').searchParams;

  if (route === '' || route === '/') {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    if (deps.script === undefined) return sendError(res, 404, 'no-console-script', 'This host serves no console page; pass `consoleScript` (consoleBundleUrl() from @askseam/web/server), or put <askseam-console> on a page of your own.');
    return sendPage(res, deps.path);
  }
  let parts: string[];
  try {
    parts = route.slice(1).split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return sendError(res, 400, 'bad-path', 'The path is not valid percent-encoding.');
  }
  const [api, collection, id, action, extra] = parts;
  if (api !== 'api') return sendError(res, 404, 'not-found', `No console route ${method} ${route}; see docs/console.md.`);

  if (collection === 'pending' && id === undefined) {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    const now = Date.now();
    const records = await deps.store.listPending('all', { onUnreadable: deps.onUnreadable });
    return sendJson(res, 200, { questions: records.map((record) => pendingView(record, now, deps.reachedTier)), canNotify: deps.canNotify });
  }

  if (collection === 'questions' && id !== undefined && id !== '' && (action === 'withdraw' || action === 'notify') && extra === undefined) {
    if (method !== 'POST') return methodNotAllowed(res, 'POST');
    // A page of another site can post a form, but not JSON without asking first (CORS preflight), and the Origin rules already refused it.
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      return sendError(res, 415, 'json-only', 'Console actions take a JSON body with "Content-Type: application/json".');
    }
    const body = await readJsonBody(req, res, deps.maxBodyBytes, { emptyIsObject: true });
    if (!body.ok) return;
    if (action === 'notify') {
      try {
        const sent = await deps.resendNotification(id);
        return sent ? sendJson(res, 200, { notified: true }) : sendError(res, 409, 'not-pending', `Question "${id}" is not pending, so there is nothing to notify about.`);
      } catch (error) {
        if (WebSocketHostError.isInstance(error) && error.code === 'NO_NOTIFY') return sendError(res, 409, 'no-notify', error.message);
        throw error;
      }
    }
    const parsed = withdrawBodySchema.safeParse(body.value);
    if (!parsed.success) return sendError(res, 422, 'bad-body', 'The body must be {} or { "reason": "<at most 500 characters>" }.');
    const { reason } = parsed.data;
    const withdrawn = await deps.withdraw(id, { principalId: principal.id, ...(reason === undefined ? {} : { reason }) });
    return withdrawn ? sendJson(res, 200, { withdrawn: true }) : sendError(res, 409, 'not-pending', `Question "${id}" is not pending (unknown, or already settled).`);
  }

  if (collection === 'history' && id === undefined) {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    const parsed = historyQuerySchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) return sendError(res, 400, 'bad-query', `History takes session, agent, outcome (${questionOutcomeSchema.options.join(', ')}), cursor and limit (1 to 200): ${parsed.error.issues[0]?.message ?? ''}`);
    if (deps.store.listSettled === undefined) return sendError(res, 501, 'not-supported', 'This store cannot list settled questions (it has no listSettled).');
    const { session, agent, outcome, cursor, limit } = parsed.data;
    const page = await deps.store.listSettled({
      limit,
      onUnreadable: deps.onUnreadable,
      ...(session === undefined ? {} : { sessionId: session }),
      ...(agent === undefined ? {} : { askedBy: agent }),
      ...(outcome === undefined ? {} : { outcome }),
      ...(cursor === undefined ? {} : { cursor }),
    });
    return sendJson(res, 200, { questions: page.records.map(settledView), ...(page.next === undefined ? {} : { next: page.next }) });
  }

  if (collection === 'sessions' && id !== undefined && id !== '' && action === 'events' && extra === undefined) {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    const after = wholeNumber(query.get('after'), 0);
    const limit = wholeNumber(query.get('limit'), DEFAULT_EVENT_LIMIT);
    if (after === undefined || limit === undefined || limit === 0) return sendError(res, 400, 'bad-query', `"after" must be an event id and "limit" a whole number from 1 to ${MAX_EVENT_LIMIT}.`);
    const events = await deps.store.readEvents(id, { after, limit: Math.min(limit, MAX_EVENT_LIMIT) });
    return sendJson(res, 200, { events });
  }

  if (collection === 'stats' && id === undefined) {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    const parsed = statsQuerySchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) return sendError(res, 400, 'bad-query', 'Stats take hours, a whole number from 1 to 720.');
    return sendJson(res, 200, await consoleStats(deps.store, { now: Date.now(), windowMs: parsed.data.hours * 3_600_000 }));
  }

  if (collection === 'quarantined' && id === undefined) {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    return sendJson(res, 200, { questions: deps.quarantined().map(quarantinedView) });
  }

  return sendError(res, 404, 'not-found', `No console route ${method} ${route}; see docs/console.md.`);
}

/**
 * The page: the element and nothing else, under a policy that runs only this host's script and
 * reaches only this host, so text in a question can never run or load anything.
 */
function sendPage(res: ServerResponse, path: string): void {
  const base = escapeAttribute(path);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>askseam console</title>
<script type="module" src="${base}/console/askseam-console.js"></script>
</head>
<body style="margin:0;font-family:system-ui,sans-serif">
<askseam-console base="${base}" token-from-location></askseam-console>
</body>
</html>
`;
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    // The element styles its shadow root with a <style> element.
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(html);
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
