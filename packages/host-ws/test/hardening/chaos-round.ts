// One round of the load test: ~400 asks across 50 sessions while ~250 sockets answer, cancel,
// drop and reconnect, send garbage and try to answer other sessions' questions, all at once.
// It records what every party saw; load.test.ts decides whether that was right.
import type { IncomingMessage } from 'node:http';
import { parseServerFrame, type QuestionRequestedFrame, type ReceiptFrame } from '@askseam/protocol';
import { UserQuestionError, type AgentRef, type AskUserQuestionAnswer, type AskUserQuestionItem, type UserQuestions } from '@askseam/user-questions';
import { WebSocket } from 'ws';
// The real client a browser or bot would use, with its own reconnect and replay handling under the
// same load. By name, through the workspace alias every test uses (vitest and tsconfig.test.json
// point @askseam/* at the sources); it is not a declared devDependency because @askseam/client
// already depends on host-ws for its own tests, and turbo refuses the cycle.
import { QuestionClientError, connectQuestions, type PendingQuestion, type QuestionClient } from '@askseam/client';
import type { HostEvent, Principal } from '../../src/index.js';
import { seededRandom, turns, until } from './wire.js';

export const SESSIONS = Array.from({ length: 50 }, (_, index) => `s${String(index).padStart(2, '0')}`);
export const ASKS_PER_SESSION = 8;
/** Raw sockets per session, one per role, besides one @askseam/client. */
const RAW_ROLES = ['answerer', 'canceller', 'dropper', 'noisy'] as const;
type RawRole = (typeof RAW_ROLES)[number];

/**
 * Who a connection is: `?session=s07&who=answerer3` sees session s07 only. The principal id names
 * the session, so an `answered` event shows which session's connection answered.
 */
export function authenticateBySession(req: IncomingMessage): Principal | undefined {
  const query = new URL(req.url ?? '/', 'http://upgrade.invalid').searchParams;
  const session = query.get('session');
  const who = query.get('who');
  if (session === null || who === null || !SESSIONS.includes(session)) return undefined;
  return { id: `${session}#${who}`, canSee: (sessionId) => sessionId === session, sessions: [session] };
}

type SettleEvent = Extract<HostEvent, { type: 'answered' | 'cancelled' | 'aborted' }>;

/** Everything the host reported during one round, by rpcId. */
export class Ledger {
  /** rpcId → the ask it came from (`s07/3`), from the `asked` event. */
  readonly keyOf = new Map<string, string>();
  readonly sessionOf = new Map<string, string>();
  /** rpcId → every answered / cancelled / aborted event for it (exactly one is right). */
  readonly settles = new Map<string, SettleEvent[]>();
  readonly rejectedResponses = new Map<string, number>();
  connected = 0;
  disconnected = 0;
  replays = 0;
  onDelivered: ((rpcId: string) => void) | undefined;

  readonly record = (event: HostEvent): void => {
    switch (event.type) {
      case 'asked': {
        // Keep only the key: the questions carry the bulky detail the memory check counts on being freed.
        const key = event.questions[0]?.id.replace(/\/pick$/, '') ?? '?';
        this.keyOf.set(event.rpcId, key);
        this.sessionOf.set(event.rpcId, event.sessionId);
        return;
      }
      case 'delivered':
        if (event.replay) this.replays++;
        this.onDelivered?.(event.rpcId);
        return;
      case 'answered':
      case 'cancelled':
      case 'aborted': {
        const list = this.settles.get(event.rpcId) ?? [];
        list.push(event);
        this.settles.set(event.rpcId, list);
        return;
      }
      case 'response-rejected':
        this.rejectedResponses.set(event.reason, (this.rejectedResponses.get(event.reason) ?? 0) + 1);
        return;
      case 'connected':
        this.connected++;
        return;
      case 'disconnected':
        this.disconnected++;
        return;
      default:
        return;
    }
  }

  /** rpcIds asked and not settled yet, of sessions other than `session`. */
  pendingOutside(session: string): string[] {
    return [...this.keyOf.keys()].filter((rpcId) => this.sessionOf.get(rpcId) !== session && !this.settles.has(rpcId));
  }
}

/** What one ask came to, as its asker saw it. */
export interface AskOutcome {
  key: string;
  session: string;
  aborted: boolean;
  result: { ok: true; value: AskUserQuestionAnswer } | { ok: false; code: string };
}

/** Counts of what the actors did and saw, to show the round exercised every path it claims to. */
export interface ActorStats {
  accepted: number;
  notPending: number;
  badResponse: number;
  forbidden: number;
  errorFrames: number;
  rawDrops: number;
  appDrops: number;
  appAnswers: number;
  appGone: number;
}

export interface RoundResult {
  ledger: Ledger;
  outcomes: AskOutcome[];
  stats: ActorStats;
  /** Anything a party saw that it must never see (another session's frame, an impossible receipt). */
  violations: string[];
}

export interface RoundOptions {
  url: string;
  userQuestions: UserQuestions;
  agent(session: string): AgentRef;
  /** Where the host's events go for this round. */
  listen(sink: ((event: HostEvent) => void) | undefined): void;
  seed: number;
  /** Size of each question's `detail`: what a leaked question would keep alive. */
  detailBytes: number;
}

/** The questions of ask `key` (`s07/3`): every id and label carries the key, so an answer shows whose it is. */
export function questionsFor(key: string, detailBytes: number): AskUserQuestionItem[] {
  return [
    {
      id: `${key}/pick`,
      question: `Which one for ${key}?`,
      // A fresh string per ask (not a shared constant), so that keeping a settled question alive costs memory.
      detail: `${key} ${'x'.repeat(detailBytes)}`,
      options: [{ label: `${key}/A (Recommended)` }, { label: `${key}/B`, description: 'The other one' }],
    },
    { id: `${key}/extras`, question: 'Anything else?', multiSelect: true, options: [{ label: `${key}/x` }, { label: `${key}/y` }] },
  ];
}

/** A fitting answer built from the questions a connection actually received. */
function answerTo(questions: AskUserQuestionItem[], random: () => number): AskUserQuestionAnswer {
  return {
    answers: questions.map((question) => {
      const labels = (question.options ?? []).map((option) => option.label);
      if (question.multiSelect) return { id: question.id, selected: labels.filter(() => random() < 0.5) };
      const label = labels[Math.floor(random() * labels.length)];
      return label === undefined ? { id: question.id, selected: [] } : { id: question.id, selected: [label] };
    }),
  };
}

export async function runChaosRound(options: RoundOptions): Promise<RoundResult> {
  const random = seededRandom(options.seed);
  const ledger = new Ledger();
  const violations: string[] = [];
  const stats: ActorStats = { accepted: 0, notPending: 0, badResponse: 0, forbidden: 0, errorFrames: 0, rawDrops: 0, appDrops: 0, appAnswers: 0, appGone: 0 };
  const liveSockets = new Set<WebSocket>();
  let over = false;
  /** hello frames received by raw sockets (first connections and reconnections). */
  let greeted = 0;
  options.listen(ledger.record);

  // ── the asks ─────────────────────────────────────────────────────────────────
  const controllers = new Map<string, AbortController>();
  const abortOnDelivery = new Set<string>();
  ledger.onDelivered = (rpcId) => {
    const key = ledger.keyOf.get(rpcId);
    if (key === undefined || !abortOnDelivery.delete(key)) return;
    // The asker gives up just as the question reaches a person: races every answer in flight.
    setImmediate(() => controllers.get(key)?.abort(new Error('asker gave up')));
  };
  const asking: Promise<AskOutcome>[] = [];
  const ask = (session: string, n: number): void => {
    const key = `${session}/${n}`;
    // n = 3: aborted as soon as it is delivered; n = 7: aborted on the next turn, usually before anyone answers.
    const aborted = n === 3 || n === 7;
    const controller = aborted ? new AbortController() : undefined;
    if (controller !== undefined) controllers.set(key, controller);
    if (n === 3) abortOnDelivery.add(key);
    if (n === 7) setImmediate(() => controller?.abort(new Error('asker changed its mind')));
    const promise = options.userQuestions.ask({
      agent: options.agent(session),
      questions: questionsFor(key, options.detailBytes),
      ...(controller === undefined ? {} : { signal: controller.signal }),
    });
    asking.push(
      promise.then(
        (value): AskOutcome => ({ key, session, aborted, result: { ok: true, value } }),
        (error: unknown): AskOutcome => ({ key, session, aborted, result: { ok: false, code: UserQuestionError.isInstance(error) ? error.code : String(error) } }),
      ),
    );
  };

  // ── raw sockets ──────────────────────────────────────────────────────────────
  const openRaw = (session: string, role: RawRole, generation: number): void => {
    if (over) return;
    const who = `${role}${generation}`;
    const socket = new WebSocket(`${options.url}?session=${session}&who=${who}`);
    liveSockets.add(socket);
    const expectations = new Map<string, (receipt: ReceiptFrame) => boolean>();
    let sent = 0;
    let reconnect = role === 'dropper' || role === 'noisy';
    const respond = (rpcId: string, result: unknown, fine: (receipt: ReceiptFrame) => boolean): void => {
      const id = `${who}-${++sent}`;
      expectations.set(id, fine);
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'question/respond', id, rpcId, result }));
    };
    const accepted = (receipt: ReceiptFrame) => receipt.accepted || receipt.reason === 'not-pending';
    const refused = (reason: 'bad-response' | 'forbidden') => (receipt: ReceiptFrame) => !receipt.accepted && (receipt.reason === reason || receipt.reason === 'not-pending');
    const answer = (frame: QuestionRequestedFrame) =>
      respond(frame.rpcId, { ok: true, value: { sessionId: session, answer: answerTo(frame.questions, random) } }, accepted);

    const onQuestion = async (frame: QuestionRequestedFrame): Promise<void> => {
      // The answerer takes a little longer than the others, so that cancels and drops win some races.
      await turns(Math.floor(random() * 3) + (role === 'answerer' ? 1 : 0));
      const roll = random();
      switch (role) {
        case 'answerer': {
          // Never drops and always answers: this is what guarantees every ask can settle.
          if (roll < 0.2) {
            // A near miss first: the label without its "(Recommended)" suffix.
            const near = answerTo(frame.questions, random);
            const first = near.answers[0];
            if (first !== undefined) first.selected = [`${frame.questions[0]?.id.replace(/\/pick$/, '')}/A`];
            respond(frame.rpcId, { ok: true, value: { sessionId: session, answer: near } }, refused('bad-response'));
          }
          answer(frame);
          return;
        }
        case 'canceller':
          if (roll < 0.3) respond(frame.rpcId, { ok: false, error: { code: 'cancelled', message: 'not now' } }, accepted);
          else if (roll < 0.5) {
            // The right answer, but claiming to be for another session.
            const other = SESSIONS[(SESSIONS.indexOf(session) + 1) % SESSIONS.length];
            respond(frame.rpcId, { ok: true, value: { sessionId: other, answer: answerTo(frame.questions, random) } }, refused('bad-response'));
          }
          return;
        case 'dropper':
          if (roll < 0.35 && generation < 6) {
            stats.rawDrops++;
            // Mid-question: half of the drops are abrupt (no closing handshake), half polite.
            if (random() < 0.5) socket.terminate();
            else socket.close();
          } else if (roll < 0.6) answer(frame);
          return;
        case 'noisy': {
          // Try to answer a question of another session with an answer that would fit it.
          const targets = ledger.pendingOutside(session);
          const target = targets[Math.floor(random() * targets.length)];
          const key = target === undefined ? undefined : ledger.keyOf.get(target);
          if (target === undefined || key === undefined) return;
          const theirs = ledger.sessionOf.get(target);
          const fitting = { answers: [{ id: `${key}/pick`, selected: [`${key}/A (Recommended)`] }, { id: `${key}/extras`, selected: [] }] };
          respond(target, { ok: true, value: { sessionId: theirs, answer: fitting } }, refused('forbidden'));
          return;
        }
      }
    };

    socket.on('error', () => {});
    socket.on('open', () => {
      if (role !== 'noisy') return;
      // Garbage of every kind; one noisy socket in ten sends enough to be shut out, then comes back.
      const count = SESSIONS.indexOf(session) % 10 === 0 && generation === 0 ? 12 : 1 + Math.floor(random() * 4);
      const garbage = ['{"type":', 'null', '[]', '{"type":"question/explode"}', '{"type":"question/respond"}', '\u0000\u0001'];
      for (let i = 0; i < count; i++) {
        if (random() < 0.2) socket.send(Buffer.from([1, 2, 3]), { binary: true });
        else socket.send(garbage[Math.floor(random() * garbage.length)]!);
      }
    });
    socket.on('message', (data) => {
      const parsed = parseServerFrame(data.toString());
      if (!parsed.ok) {
        violations.push(`${session}#${who} got an unreadable frame: ${parsed.error.message}`);
        return;
      }
      const frame = parsed.value;
      switch (frame.type) {
        case 'hello':
          greeted++;
          if (frame.sessions?.join(',') !== session) violations.push(`${session}#${who} was greeted with sessions ${JSON.stringify(frame.sessions)}`);
          return;
        case 'question/requested':
          if (frame.sessionId !== session) violations.push(`${session}#${who} was sent a question of ${frame.sessionId}`);
          else void onQuestion(frame);
          return;
        case 'question/resolved':
          if (frame.sessionId !== session) violations.push(`${session}#${who} was told about a question of ${frame.sessionId}`);
          return;
        case 'receipt': {
          const fine = frame.id === undefined ? undefined : expectations.get(frame.id);
          if (frame.id !== undefined) expectations.delete(frame.id);
          if (frame.accepted) stats.accepted++;
          else if (frame.reason === 'not-pending') stats.notPending++;
          else if (frame.reason === 'bad-response') stats.badResponse++;
          else stats.forbidden++;
          if (fine === undefined || !fine(frame)) violations.push(`${session}#${who} got an unexpected receipt ${JSON.stringify(frame)}`);
          return;
        }
        case 'error':
          stats.errorFrames++;
          return;
        default:
          return;
      }
    });
    socket.on('close', (code) => {
      liveSockets.delete(socket);
      // The noisy socket that was shut out for garbage comes back once, behaving.
      if (code === 1008 && role === 'noisy') reconnect = generation === 0;
      if (reconnect && !over) setImmediate(() => openRaw(session, role, generation + 1));
    });
  };

  // ── @askseam/client instances, whose sockets the test pulls out from under them ──
  const apps: QuestionClient[] = [];
  const openApp = (session: string): void => {
    let current: WebSocket | undefined;
    // Remember the client's socket so the test can drop it mid-question; the client reconnects by itself.
    class RecordingWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        current = this;
        liveSockets.add(this);
        this.on('close', () => liveSockets.delete(this));
      }
    }
    const client = connectQuestions({
      url: `${options.url}?session=${session}&who=app`,
      WebSocket: RecordingWebSocket,
      reconnect: { initialDelayMs: 5, maxDelayMs: 40 },
      heartbeatMs: 600_000,
    });
    client.on('error', (error) => {
      // A socket dropped before its hello is a failed attempt; anything else is a real complaint.
      if (error.code !== 'connection-failed') violations.push(`app ${session} reported ${error.code}: ${error.message}`);
    });
    client.on('resolved', ({ sessionId, outcome }) => {
      if (sessionId !== session) violations.push(`app ${session} was told about a question of ${sessionId}`);
      if (outcome === 'gone') stats.appGone++;
    });
    client.on('requested', (question: PendingQuestion) => {
      if (question.sessionId !== session) violations.push(`app ${session} was sent a question of ${question.sessionId}`);
      const roll = random();
      if (roll < 0.3) {
        stats.appDrops++;
        current?.terminate();
      } else if (roll < 0.7) {
        question.answer(answerTo(question.questions, random)).then(
          () => stats.appAnswers++,
          (error: unknown) => {
            // Someone else was first, or the socket went while the answer was on its way: both expected.
            const code = QuestionClientError.isInstance(error) ? error.code : String(error);
            if (code !== 'not-pending' && code !== 'not-connected' && code !== 'closed') violations.push(`app ${session} answer failed: ${code}`);
          },
        );
      }
    });
    apps.push(client);
  };

  // ── the round ────────────────────────────────────────────────────────────────
  // A few asks wait for the first connections (they reach clients by replay) ...
  for (const session of SESSIONS) ask(session, 0);
  for (const session of SESSIONS) {
    for (const role of RAW_ROLES) openRaw(session, role, 0);
    openApp(session);
  }
  await until(
    () => greeted >= SESSIONS.length * RAW_ROLES.length && apps.every((app) => app.status === 'open'),
    () => `${greeted} raw sockets greeted, ${apps.filter((app) => app.status === 'open').length} clients open`,
  );
  // ... and the rest arrive at once while every socket is up: ~400 questions in flight together.
  for (let n = 1; n < ASKS_PER_SESSION; n++) {
    for (const session of SESSIONS) ask(session, n);
    if (n === ASKS_PER_SESSION / 2) await turns(1);
  }
  let settledCount = 0;
  for (const promise of asking) void promise.then(() => settledCount++);
  await until(
    () => settledCount === asking.length,
    () => `${asking.length - settledCount} of ${asking.length} asks unsettled, ${ledger.keyOf.size - ledger.settles.size} settle events missing`,
  );
  const outcomes = await Promise.all(asking);

  // Every client of the real client library must end up with nothing pending: it saw every
  // question resolve, or learnt on reconnect (hello) that it was settled while it was away.
  await until(
    () => apps.every((app) => app.status === 'open' && app.pending.size === 0),
    () => `clients still holding questions: ${apps.filter((app) => app.pending.size > 0 || app.status !== 'open').length}`,
  );

  over = true;
  for (const app of apps) app.close();
  for (const socket of liveSockets) socket.close();
  await until(
    () => liveSockets.size === 0 && ledger.disconnected === ledger.connected,
    () => `${liveSockets.size} client sockets open, host saw ${ledger.connected} connects and ${ledger.disconnected} disconnects`,
  );
  ledger.onDelivered = undefined;
  options.listen(undefined);
  return { ledger, outcomes, stats, violations };
}
