import type { IncomingMessage, ServerResponse } from 'node:http';
import type { QuestionEvent, QuestionRecord, QuestionStore, UnreadableRecord } from '@askseam/store';
import { consoleScriptRoute, serveConsole, serveConsoleScript, type ConsoleApiDeps } from './console-api.js';
import type { HostLogger } from './logger.js';
import { exhaustiveSessions, onlyQuestion, safeCanSee, type Principal } from './principal.js';
import type { RespondInput, RespondOutcome } from './respond.js';
import { authorizeUpgrade, type UpgradeAuth } from './upgrade.js';

export interface HttpApiDeps {
  /** The host's path: the API lives under `${path}/…`, a plain request to `path` itself gets 426. */
  path: string;
  auth: UpgradeAuth;
  store: QuestionStore;
  logger: HostLogger;
  maxBodyBytes: number;
  /** Serve the API at all (false: only the 426 on `path`). */
  enabled: boolean;
  isClosed(): boolean;
  /** True for a question this host has listed and is still saving (not in the store yet, not gone either). */
  beingSaved(rpcId: string): boolean;
  /** The host route's visibility (routing.ts): false hides a routed pending question from someone it is not (yet) routed to. */
  maySee(rpcId: string, principal: Principal): boolean;
  /** A record the list could not read: quarantined by the host, left out of the answer. */
  onUnreadable(record: UnreadableRecord): void;
  /** The operator console under `${path}/console` (docs/console.md). */
  console: Omit<ConsoleApiDeps, 'path' | 'store' | 'logger' | 'maxBodyBytes' | 'onUnreadable'>;
  /** Judge and settle one response exactly as a `question/respond` frame would be. */
  respond(input: RespondInput, principal: Principal): Promise<RespondOutcome>;
}

/** A question as the HTTP API shows it: everything but the asker's private `state`. */
export type HttpQuestionView = Omit<QuestionRecord, 'state' | 'resumedAt'>;

const DEFAULT_EVENT_LIMIT = 100;
const MAX_EVENT_LIMIT = 1000;

/**
 * The HTTP side of the host: `(req, res) => boolean`, true when the request was the host's (its
 * path or below it) and is being answered, false when it belongs to someone else and was not
 * touched. Same authentication as the WebSocket upgrade; the same respond checks and receipts.
 */
export function createHttpHandler(deps: HttpApiDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = pathOf(req);
    if (path !== deps.path && !path.startsWith(`${deps.path}/`)) return false;
    serve(req, res, path.slice(deps.path.length), deps).catch((error: unknown) => {
      deps.logger.error('an HTTP API request failed', { method: req.method, path, error: String(error) });
      if (!res.headersSent) sendError(res, 500, 'internal', 'The host failed while handling the request; see its log.');
      else res.destroy();
    });
    return true;
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, route: string, deps: HttpApiDeps): Promise<void> {
  // The WebSocket's own path, fetched without an upgrade.
  if (route === '' || route === '/') return void res.writeHead(426, { Connection: 'close', Upgrade: 'websocket' }).end();
  if (!deps.enabled) return sendError(res, 404, 'not-found', 'The HTTP API of this host is turned off.');
  if (deps.isClosed()) return sendError(res, 503, 'closed', 'The host is closed.');

  if (route === consoleScriptRoute) return req.method === 'GET' || req.method === 'HEAD' ? serveConsoleScript(res, deps.console.script === undefined ? { script: undefined, logger: deps.logger } : { script: deps.console.script, logger: deps.logger }) : methodNotAllowed(res, 'GET');

  // Before routing: someone without credentials learns nothing, not even which routes exist.
  const decision = await authorizeUpgrade(req, deps.auth);
  if (!decision.ok) {
    deps.logger.info('HTTP API request refused', { status: decision.status, reason: decision.reason, remoteAddress: req.socket.remoteAddress });
    if (decision.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
    return sendError(res, decision.status, decision.status === 401 ? 'unauthorized' : 'forbidden', decision.status === 401 ? 'Present the token as "Authorization: Bearer <token>" or ?token=, or a valid, unexpired one-question ?link=.' : 'This Origin may not use the API.');
  }
  const principal = decision.principal;
  // Before a link's own checks: a link is never an operator, whatever its question's state.
  if (route === '/console' || route.startsWith('/console/')) {
    const { store, logger, maxBodyBytes, onUnreadable, path } = deps;
    return serveConsole(req, res, route.slice('/console'.length), principal, { ...deps.console, path, store, logger, maxBodyBytes, onUnreadable });
  }
  const canSee = (sessionId: string) => safeCanSee(principal, sessionId, deps.logger);
  // A one-question link works while its question is pending (in the store every node shares), and says so once it is not.
  const only = onlyQuestion(principal);
  if (only !== undefined) {
    const record = await deps.store.get(only);
    // Linked (host.linkFor) the moment it was asked, opened before its save landed: it is coming, not gone.
    if (record === undefined && deps.beingSaved(only)) {
      return sendError(res, 503, 'not-ready', 'The question this link is for is still being saved; try again in a moment.', { 'Retry-After': '1' });
    }
    if (record === undefined || record.outcome !== undefined) {
      const how = record === undefined ? 'is no longer known to the host' : `was settled (${String(record.outcome)})`;
      return sendError(res, 410, 'settled', `The question this link is for ${how}; the link no longer works.`);
    }
  }

  const segments = route.slice(1).split('/');
  let parts: string[];
  try {
    parts = segments.map((segment) => decodeURIComponent(segment));
  } catch {
    return sendError(res, 400, 'bad-path', 'The path is not valid percent-encoding.');
  }
  const [collection, id, action, extra] = parts;
  const method = req.method ?? 'GET';

  if (collection === 'questions' && id === undefined) {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    // As on replay: the listed sessions narrow the search only when the principal says they are all.
    const sessions = exhaustiveSessions(principal, deps.logger);
    const records = await deps.store.listPending(sessions ?? 'all', { onUnreadable: deps.onUnreadable });
    return sendJson(res, 200, { questions: records.filter((record) => (only === undefined || record.rpcId === only) && canSee(record.sessionId) && deps.maySee(record.rpcId, principal)).map(viewOf) });
  }

  if (collection === 'questions' && id !== undefined && id !== '' && action === undefined) {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    if (only !== undefined && id !== only) return sendError(res, 403, 'forbidden', `This link is for question "${only}" only.`);
    const record = await deps.store.get(id);
    if (record === undefined) return sendError(res, 404, 'not-found', `No question has rpcId "${id}".`);
    if (!canSee(record.sessionId)) return sendError(res, 403, 'forbidden', `Question "${id}" belongs to a session you may not see.`);
    if (!deps.maySee(record.rpcId, principal)) return sendError(res, 403, 'forbidden', `Question "${id}" is routed to other people; you are not among its answerers yet.`);
    return sendJson(res, 200, viewOf(record));
  }

  if (collection === 'questions' && id !== undefined && id !== '' && (action === 'answer' || action === 'cancel') && extra === undefined) {
    if (method !== 'POST') return methodNotAllowed(res, 'POST');
    const body = await readJsonBody(req, res, deps.maxBodyBytes, { emptyIsObject: action === 'cancel' });
    if (!body.ok) return;
    const result =
      action === 'answer'
        ? { ok: true, value: body.value }
        : { ok: false, error: typeof body.value === 'object' && body.value !== null && !Array.isArray(body.value) ? { ...body.value, code: 'cancelled' } : body.value };
    const outcome = await deps.respond({ rpcId: id, result }, principal);
    return sendJson(res, statusOf(outcome), outcome.receipt);
  }

  if (collection === 'sessions' && id !== undefined && id !== '' && action === 'events' && extra === undefined) {
    if (method !== 'GET') return methodNotAllowed(res, 'GET');
    // A session's events tell of its other questions, which a link must not see.
    if (only !== undefined) return sendError(res, 403, 'forbidden', 'A one-question link cannot read session events.');
    if (!canSee(id)) return sendError(res, 403, 'forbidden', `You may not see session "${id}".`);
    const query = new URL(req.url ?? '/', 'http://request.invalid').searchParams;
    const after = wholeNumber(query.get('after'), 0);
    const limit = wholeNumber(query.get('limit'), DEFAULT_EVENT_LIMIT);
    if (after === undefined || limit === undefined || limit === 0) {
      return sendError(res, 400, 'bad-query', `"after" must be an event id (a whole number) and "limit" a whole number from 1 to ${MAX_EVENT_LIMIT}.`);
    }
    const events: QuestionEvent[] = await deps.store.readEvents(id, { after, limit: Math.min(limit, MAX_EVENT_LIMIT) });
    return sendJson(res, 200, { events });
  }

  return sendError(res, 404, 'not-found', `No route ${method} ${route}; see docs/durability.md for the API.`);
}

/** The status an HTTP caller gets for each receipt. */
function statusOf(outcome: RespondOutcome): number {
  if (outcome.kind === 'answered' || outcome.kind === 'cancelled' || outcome.kind === 'voted') return 200;
  if (outcome.kind === 'store-failed') return 503;
  // Not a failure to retry: the response may be recorded, and the host is finding out (docs/durability.md).
  if (outcome.kind === 'unconfirmed') return 202;
  return { 'not-pending': 409, forbidden: 403, 'bad-response': 422 }[outcome.reason];
}

function viewOf(record: QuestionRecord): HttpQuestionView {
  const { state: _state, resumedAt: _resumedAt, ...view } = record;
  return view;
}

type Body = { ok: true; value: unknown } | { ok: false };

/** The request body as JSON, or an error response already sent (413 over the limit, 400 unreadable). */
export function readJsonBody(req: IncomingMessage, res: ServerResponse, limit: number, { emptyIsObject }: { emptyIsObject: boolean }): Promise<Body> {
  return new Promise((resolve) => {
    const tooBig = () => {
      sendError(res, 413, 'too-large', `The body is larger than ${limit} bytes.`, { Connection: 'close' });
      // Stop reading: whatever else the client sends is dropped with the connection.
      res.once('finish', () => req.destroy());
      resolve({ ok: false });
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return tooBig();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.pause();
        return tooBig();
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      if (done) return;
      done = true;
      resolve({ ok: false });
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '' && emptyIsObject) return resolve({ ok: true, value: {} });
      try {
        resolve({ ok: true, value: JSON.parse(text) as unknown });
      } catch {
        sendError(res, 400, 'bad-json', 'The body must be JSON.');
        resolve({ ok: false });
      }
    });
  });
}

export function wholeNumber(text: string | null, fallback: number): number | undefined {
  if (text === null) return fallback;
  return /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

export function methodNotAllowed(res: ServerResponse, allow: string): void {
  sendError(res, 405, 'method-not-allowed', `Use ${allow} here.`, { Allow: allow });
}

export function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { code, message } }, headers);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

// Split by hand rather than with `new URL`: a request target like "//x" must not be read as a host.
export function pathOf(req: IncomingMessage): string {
  const target = req.url ?? '';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}
