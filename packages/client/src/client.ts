// Over 400 lines on purpose: one connection's life (dial, heartbeat, hello, receipts, reconnect) reads best as one class; the transports are socket.ts and sse.ts.
import {
  DEFAULT_CLIENT_HEARTBEAT_MS,
  PROTOCOL_VERSION,
  closeCodes,
  parseServerFrame,
  type ClientFrame,
  type FrameData,
  type HelloFrame,
  type QuestionRequestedFrame,
  type QuestionResolvedFrame,
  type ReceiptFrame,
  type ServerFrame,
} from '@askseam/protocol';
import { checkReceivedAnswer, type AnswerMismatch, type AskUserQuestionAnswer, type AskUserQuestionItem } from '@askseam/user-questions';
import { backoffDelay, defaultBackoff, type BackoffOptions } from './backoff.js';
import { QuestionClientError } from './errors.js';
import { Listeners } from './listeners.js';
import { ChannelSendError, type Channel, type ChannelHandlers, type ChannelOpener } from './channel.js';
import { transportFor } from './transport.js';
import type {
  AcceptedReceipt,
  ClientStatus,
  ConnectQuestionsOptions,
  LinkState,
  PendingQuestion,
  QuestionClient,
  QuestionClientEvents,
  QuestionVote,
} from './types.js';

/** Connect to a host and keep a live map of the questions waiting for this user. */
export function connectQuestions(options: ConnectQuestionsOptions): QuestionClient {
  return new QuestionConnection(options);
}

type Timer = ReturnType<typeof setTimeout>;

/** A respond frame on its way: settled by the receipt with its `id`, or by the connection going away. */
interface InFlight {
  rpcId: string;
  sessionId: string;
  /** What an accepted receipt means for the question: the host settled it as this (protocol 2: no question/resolved follows here). */
  outcome: 'answered' | 'cancelled';
  resolve(receipt: AcceptedReceipt): void;
  reject(error: QuestionClientError): void;
}

class QuestionConnection implements QuestionClient {
  /** Opens one connection attempt over the transport the URL chose (WebSocket or SSE). */
  readonly #openChannel: ChannelOpener;
  readonly #backoff: BackoffOptions | false;
  readonly #heartbeatMs: number;
  readonly #listeners = new Listeners<QuestionClientEvents>();
  readonly #pending = new Map<string, PendingQuestion>();
  /** A quorum approval's approvals so far, by rpcId (a held `PendingQuestion` is frozen: its `votes` reads here). */
  readonly #votes = new Map<string, readonly QuestionVote[]>();
  readonly #inFlight = new Map<string, InFlight>();
  // Receipts are matched by `id`; a random prefix keeps ids apart between clients in logs.
  readonly #idPrefix = Math.random().toString(36).slice(2, 10);
  #sendCount = 0;

  #status: ClientStatus = 'connecting';
  #channel: Channel | undefined;
  /** The current attempt's handlers; a report through any other (an attempt we gave up on) changes nothing. */
  #attemptHandlers: ChannelHandlers | undefined;
  /** The current connection's hello arrived: the host accepted us and said what is still pending. */
  #greeted = false;
  /** What the last hello said about this client's one-question link. */
  #link: LinkState | undefined;
  #attempt = 0;
  #reconnectTimer: Timer | undefined;
  #heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  /** A ping went out and nothing at all has come back since. */
  #awaitingLife = false;

  constructor(options: ConnectQuestionsOptions) {
    this.#openChannel = transportFor(options).open;
    this.#backoff =
      options.reconnect === false
        ? false
        : {
            initialDelayMs: options.reconnect?.initialDelayMs ?? defaultBackoff.initialDelayMs,
            maxDelayMs: options.reconnect?.maxDelayMs ?? defaultBackoff.maxDelayMs,
          };
    this.#heartbeatMs = options.heartbeatMs ?? DEFAULT_CLIENT_HEARTBEAT_MS;
    this.#dial();
  }

  get pending(): ReadonlyMap<string, PendingQuestion> {
    return this.#pending;
  }

  get status(): ClientStatus {
    return this.#status;
  }

  get link(): LinkState | undefined {
    return this.#link === undefined ? undefined : { ...this.#link };
  }

  on<K extends keyof QuestionClientEvents>(event: K, listener: (value: QuestionClientEvents[K]) => void): () => void {
    return this.#listeners.on(event, listener);
  }

  answer(rpcId: string, answer: AskUserQuestionAnswer): Promise<AcceptedReceipt> {
    return this.#respond(rpcId, answer);
  }

  cancel(rpcId: string): Promise<AcceptedReceipt> {
    return this.#respond(rpcId, undefined);
  }

  close(): void {
    if (this.#status === 'closed') return;
    const channel = this.#channel;
    this.#stopConnection();
    this.#clearReconnect();
    this.#rejectInFlight(
      (rpcId) => new QuestionClientError('closed', `The question client was closed before the host's receipt for question ${rpcId}.`, { rpcId }),
    );
    channel?.close(closeCodes.normal, 'client closed');
    this.#setStatus('closed');
  }

  // ── sending ──────────────────────────────────────────────────────────────────

  /** One answer (or, with `answer` undefined, a cancel): local checks first, then one frame and its receipt. */
  #respond(rpcId: string, answer: AskUserQuestionAnswer | undefined): Promise<AcceptedReceipt> {
    if (this.#status === 'closed') {
      return Promise.reject(new QuestionClientError('closed', `Cannot respond to question ${rpcId}: the question client was closed.`, { rpcId }));
    }
    const question = this.#pending.get(rpcId);
    if (question === undefined) {
      return Promise.reject(
        new QuestionClientError('not-pending', `Question ${rpcId} is not pending here (already resolved, or never received); drop it from the view.`, { rpcId }),
      );
    }
    if (answer !== undefined) {
      // The host's own check (checkReceivedAnswer), made here first: a UI shows the problem at once,
      // never says "fits" for an answer the host refuses, and the agent never waits on a doomed answer.
      const mismatch = localMismatch(question.questions, answer);
      if (mismatch !== undefined) {
        return Promise.reject(
          new QuestionClientError('invalid-answer', `The answer to question ${rpcId} does not fit it: ${mismatch.message}`, {
            rpcId,
            detail: mismatch.message,
            mismatch,
          }),
        );
      }
    }
    const channel = this.#channel;
    if (channel === undefined || !this.#greeted || !channel.isOpen) {
      return Promise.reject(
        new QuestionClientError('not-connected', `Cannot respond to question ${rpcId}: not connected to the host; try again once the status is "open".`, {
          rpcId,
        }),
      );
    }

    const id = `${this.#idPrefix}-${++this.#sendCount}`;
    const frame: ClientFrame = {
      type: 'question/respond',
      id,
      rpcId,
      result: answer === undefined ? { ok: false, error: { code: 'cancelled' } } : { ok: true, value: { sessionId: question.sessionId, answer } },
    };
    return new Promise<AcceptedReceipt>((resolve, reject) => {
      this.#inFlight.set(id, { rpcId, sessionId: question.sessionId, outcome: answer === undefined ? 'cancelled' : 'answered', resolve, reject });
      channel.send(frame).then(
        () => {
          // A POST's receipt came back in its response and was read before this point; one that
          // did not settle this call (another id, not a receipt) would otherwise leave it waiting for ever.
          if (!channel.duplex) this.#failInFlight(id, 'the host answered the POST without this response\'s receipt');
        },
        (error: unknown) => this.#failInFlight(id, error instanceof ChannelSendError ? error.why : describe(error)),
      );
    });
  }

  /** The frame for in-flight call `id` did not reach the host (or its answer was unreadable): a socket failure, whatever the transport. */
  #failInFlight(id: string, why: string): void {
    const call = this.#inFlight.get(id);
    if (call === undefined) return; // already settled by its receipt, or by the connection going away
    this.#inFlight.delete(id);
    call.reject(
      new QuestionClientError('not-connected', `Could not send the response to question ${call.rpcId}: ${why}; try again.`, { rpcId: call.rpcId, detail: why }),
    );
  }

  #send(channel: Channel, frame: ClientFrame): void {
    // Pings and pongs only: a lost one is noticed by the heartbeat, not here.
    channel.send(frame).catch(() => undefined);
  }

  #rejectInFlight(error: (rpcId: string) => QuestionClientError): void {
    const waiting = [...this.#inFlight.values()];
    this.#inFlight.clear();
    for (const call of waiting) call.reject(error(call.rpcId));
  }

  // ── connection lifecycle ─────────────────────────────────────────────────────

  #dial(): void {
    this.#reconnectTimer = undefined;
    this.#greeted = false;
    // Every report first checks it comes from the current attempt: one we gave up on (heartbeat
    // timeout, close()) may still report, and that must change nothing.
    const handlers: ChannelHandlers = {
      open: () => {
        if (this.#attemptHandlers === handlers && this.#channel?.duplex === true) this.#startHeartbeat(this.#channel);
      },
      frame: (data) => {
        if (this.#attemptHandlers === handlers && this.#channel !== undefined) this.#receive(this.#channel, data);
      },
      closed: (why) => {
        if (this.#attemptHandlers === handlers) this.#connectionLost(why);
      },
    };
    this.#attemptHandlers = handlers;
    try {
      this.#channel = this.#openChannel(handlers);
    } catch (error) {
      this.#connectionLost(describe(error));
    }
  }

  /** The current connection is gone (or never came up): settle what waited on it, then retry or stop. */
  #connectionLost(why: string): void {
    const wasGreeted = this.#greeted;
    this.#stopConnection();
    this.#rejectInFlight(
      (rpcId) => new QuestionClientError('not-connected', `The connection dropped before the host's receipt for question ${rpcId}; the answer may or may not have arrived.`, {
        rpcId,
        detail: why,
      }),
    );
    if (!wasGreeted) {
      this.#emitError(new QuestionClientError('connection-failed', `Could not connect to the question host: ${why}.`, { detail: why }));
    }
    if (this.#status === 'closed') return; // an error listener may have closed us
    if (this.#backoff === false) {
      this.#setStatus('closed');
      return;
    }
    this.#setStatus('reconnecting');
    if (this.#status !== 'reconnecting') return; // a status listener closed us
    this.#clearReconnect();
    this.#reconnectTimer = setTimeout(() => this.#dial(), backoffDelay(this.#attempt++, this.#backoff));
  }

  /** Forget the current connection and its heartbeat (the channel itself is closed by the caller, if at all). */
  #stopConnection(): void {
    this.#channel = undefined;
    this.#attemptHandlers = undefined;
    this.#greeted = false;
    this.#awaitingLife = false;
    if (this.#heartbeatTimer !== undefined) clearInterval(this.#heartbeatTimer);
    this.#heartbeatTimer = undefined;
  }

  #clearReconnect(): void {
    if (this.#reconnectTimer !== undefined) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
  }

  #startHeartbeat(channel: Channel): void {
    this.#awaitingLife = false;
    this.#heartbeatTimer = setInterval(() => {
      if (this.#channel !== channel) return;
      if (this.#awaitingLife) {
        // Half-open sockets can sit silent for minutes before the browser notices; don't wait for
        // the close handshake either, treat it as gone now and dial again.
        this.#connectionLost(`nothing was received for ${this.#heartbeatMs} ms after a ping`);
        channel.close(closeCodes.heartbeatTimeout, 'heartbeat timeout');
        return;
      }
      this.#awaitingLife = true;
      this.#send(channel, { type: 'ping' });
    }, this.#heartbeatMs);
  }

  #setStatus(status: ClientStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    this.#listeners.emit('status', status);
  }

  #emitError(error: QuestionClientError): void {
    this.#listeners.emit('error', error);
  }

  // ── receiving ────────────────────────────────────────────────────────────────

  #receive(channel: Channel, data: unknown): void {
    this.#awaitingLife = false; // any frame at all proves the connection is alive
    if (!isFrameData(data)) {
      this.#emitError(new QuestionClientError('protocol', 'The host sent a message that is neither text nor bytes; it was ignored.'));
      return;
    }
    const parsed = parseServerFrame(data);
    if (!parsed.ok) {
      this.#emitError(
        new QuestionClientError('protocol', `The host sent a frame this client cannot read (${parsed.error.code}): ${parsed.error.message}`, {
          detail: parsed.error.message,
        }),
      );
      return;
    }
    this.#handle(channel, parsed.value);
  }

  #handle(channel: Channel, frame: ServerFrame): void {
    switch (frame.type) {
      case 'hello':
        return this.#onHello(frame);
      case 'question/requested':
        return this.#onRequested(frame);
      case 'question/resolved':
        return this.#onResolved(frame);
      case 'receipt':
        return this.#onReceipt(frame);
      case 'error':
        return this.#emitError(
          new QuestionClientError('protocol', `The host could not read a frame from this client (${frame.code}): ${frame.message}`, {
            detail: frame.message,
          }),
        );
      case 'ping':
        // An SSE stream has no way back but POSTs: the host keeps it alive with comment lines instead.
        if (channel.duplex) this.#send(channel, { type: 'pong' });
        return;
      case 'pong':
        return;
    }
  }

  #onHello(frame: HelloFrame): void {
    if (frame.protocol !== PROTOCOL_VERSION) {
      this.#emitError(
        new QuestionClientError(
          'protocol',
          `The host speaks askseam protocol ${frame.protocol} but this client speaks ${PROTOCOL_VERSION}; upgrade the one that is behind.`,
        ),
      );
      this.close();
      return;
    }
    this.#greeted = true;
    this.#attempt = 0;
    if (frame.link !== undefined) this.#link = { rpcId: frame.link.rpcId, settled: frame.link.settled };
    // Settled while we were away: the host will not replay it, so no resolved frame will ever come.
    if (frame.pending !== undefined) {
      const stillPending = new Set(frame.pending);
      const gone = [...this.#pending.values()].filter((question) => !stillPending.has(question.rpcId));
      for (const question of gone) this.#pending.delete(question.rpcId);
      for (const question of gone) {
        this.#listeners.emit('resolved', { rpcId: question.rpcId, sessionId: question.sessionId, outcome: 'gone' });
      }
    }
    // A 'resolved' listener may have closed the client meanwhile.
    if (this.#greeted) this.#setStatus('open');
  }

  #onRequested(frame: QuestionRequestedFrame): void {
    // A replay of a question we hold keeps the very same object, so UI drafts keyed by rpcId survive.
    // The host sends a held quorum approval again when a vote is counted: only its votes change.
    if (this.#pending.has(frame.rpcId)) {
      if (frame.votes !== undefined) this.#setVotes(frame.rpcId, frame.votes);
      return;
    }
    if (frame.votes !== undefined) this.#votes.set(frame.rpcId, Object.freeze(frame.votes.map((vote) => Object.freeze(vote))));
    const question = this.#pendingQuestion(frame);
    this.#pending.set(frame.rpcId, question);
    this.#listeners.emit('requested', question);
  }

  #onResolved(frame: Omit<QuestionResolvedFrame, 'type'>): void {
    // The only place a question leaves the map (besides "gone" on hello): this frame means "this
    // question is over" for every viewer, and since protocol 2 the accepted receipt of this
    // client's own answer or cancel means the same here (the host sends this connection no
    // question/resolved for it).
    if (this.#link?.rpcId === frame.rpcId) this.#link = { rpcId: frame.rpcId, settled: true };
    const question = this.#pending.get(frame.rpcId);
    if (question === undefined) return;
    this.#pending.delete(frame.rpcId);
    this.#votes.delete(frame.rpcId);
    const { answeredBy } = frame;
    this.#listeners.emit('resolved', {
      rpcId: frame.rpcId,
      sessionId: frame.sessionId,
      outcome: frame.outcome,
      ...(answeredBy === undefined ? {} : { answeredBy: { principalId: answeredBy.principalId, via: answeredBy.via } }),
    });
  }

  #onReceipt(frame: ReceiptFrame): void {
    const call = frame.id === undefined ? undefined : this.#inFlight.get(frame.id);
    if (call === undefined || frame.id === undefined) return; // not a send of ours that is still waiting
    this.#inFlight.delete(frame.id);
    if (frame.accepted && frame.votes !== undefined) {
      // One approval of a quorum approval that waits for more: counted, and still pending here.
      this.#setVotes(frame.rpcId, frame.votes);
      call.resolve({ rpcId: frame.rpcId, accepted: true, votes: this.#votes.get(frame.rpcId) ?? [] });
      return;
    }
    if (frame.accepted) {
      call.resolve({ rpcId: frame.rpcId, accepted: true });
      // The host settled the question with this response: it is over here, as question/resolved would say.
      this.#onResolved({ rpcId: call.rpcId, sessionId: call.sessionId, outcome: call.outcome });
      return;
    }
    call.reject(
      new QuestionClientError(frame.reason, receiptMessage(frame.rpcId, frame.reason, frame.detail), {
        rpcId: frame.rpcId,
        ...(frame.detail !== undefined ? { detail: frame.detail } : {}),
      }),
    );
  }

  /** New votes for a held question: kept, and the `votes` event fired when they changed. */
  #setVotes(rpcId: string, votes: readonly QuestionVote[]): void {
    const question = this.#pending.get(rpcId);
    if (question === undefined) return;
    const before = this.#votes.get(rpcId);
    if (before !== undefined && JSON.stringify(before) === JSON.stringify(votes)) return;
    this.#votes.set(rpcId, Object.freeze(votes.map((vote) => Object.freeze({ ...vote }))));
    this.#listeners.emit('votes', question);
  }

  #pendingQuestion(frame: QuestionRequestedFrame): PendingQuestion {
    const { rpcId, sessionId, questions, askedAt, urgency } = frame;
    const votes = this.#votes;
    return Object.freeze({
      rpcId,
      sessionId,
      questions,
      askedAt,
      // Only when the host sent one: absent means "not said", which a UI may show differently from any level.
      ...(urgency === undefined ? {} : { urgency }),
      get votes() {
        return votes.get(rpcId);
      },
      check: (answer: AskUserQuestionAnswer) => localMismatch(questions, answer),
      answer: (answer: AskUserQuestionAnswer) => this.answer(rpcId, answer),
      cancel: () => this.cancel(rpcId),
    });
  }
}

function receiptMessage(rpcId: string, reason: 'not-pending' | 'bad-response' | 'forbidden', detail: string | undefined): string {
  switch (reason) {
    case 'not-pending':
      return `The host no longer has question ${rpcId} pending (answered elsewhere, cancelled, or unknown).`;
    case 'forbidden':
      return `This connection may not answer question ${rpcId}: its session is not visible to it.`;
    case 'bad-response':
      return `The host refused the response to question ${rpcId}${detail ? `: ${detail}` : ''}; the question is still pending, so send a corrected one.`;
  }
}

function isFrameData(data: unknown): data is FrameData {
  return (
    typeof data === 'string' ||
    ArrayBuffer.isView(data) ||
    // Not `instanceof`: an ArrayBuffer from another realm (an iframe, a test VM) must pass too.
    Object.prototype.toString.call(data) === '[object ArrayBuffer]'
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function localMismatch(questions: readonly AskUserQuestionItem[], answer: unknown): AnswerMismatch | undefined {
  const checked = checkReceivedAnswer(questions, answer);
  return checked.ok ? undefined : checked.mismatch;
}
