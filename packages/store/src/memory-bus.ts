import { QuestionStoreError } from './errors.js';
import { questionBusMessageSchema, type QuestionBus, type QuestionBusListener, type QuestionBusMessage } from './bus.js';

/**
 * Joins several hosts in one process, as if they ran on separate machines sharing one store: for
 * tests, demos and for trying a multi-node setup before standing up Redis. Messages arrive
 * asynchronously, as copies, in publish order. `interrupt` and `restore` play a dropped and
 * recovered connection. Each bus can `follow` sessions (news by session, as on Redis), and
 * `received(nodeId)` counts the messages a node's listener was handed, to see that traffic follows
 * a node's share.
 */
export class MemoryQuestionBusHub {
  readonly #nodes = new Map<string, MemoryQuestionBus>();
  readonly #leases = new Map<string, number>();
  readonly #received = new Map<string, number>();

  /** A bus for one node; `nodeId` defaults to a random id. */
  connect(nodeId: string = globalThis.crypto.randomUUID()): QuestionBus {
    if (this.#nodes.has(nodeId)) throw new QuestionStoreError('INVALID_INPUT', `A node with id "${nodeId}" is already on this hub; give every node its own id.`);
    const bus = new MemoryQuestionBus(nodeId, this);
    this.#nodes.set(nodeId, bus);
    return bus;
  }

  /** Cut a node off: it neither receives nor sends until `restore`, and counts as not alive. */
  interrupt(nodeId: string): void {
    this.#nodes.get(nodeId)?.setInterrupted(true);
  }

  /** Reconnect a node cut off by `interrupt`; its listener is told to resync. */
  restore(nodeId: string): void {
    this.#nodes.get(nodeId)?.setInterrupted(false);
  }

  /** How many messages the listener of the node with this id has been handed so far (0 for an unknown id). */
  received(nodeId: string): number {
    return this.#received.get(nodeId) ?? 0;
  }

  /** @internal */
  broadcast(from: MemoryQuestionBus, message: QuestionBusMessage): void {
    for (const node of this.#nodes.values()) if (node !== from && node.wants(message)) node.receive(message);
  }

  /** @internal */
  countReceived(nodeId: string): void {
    this.#received.set(nodeId, this.received(nodeId) + 1);
  }

  /** @internal */
  isAlive(nodeId: string): boolean {
    return this.#nodes.get(nodeId)?.listening ?? false;
  }

  /** @internal */
  acquireLease(key: string, ttlMs: number): boolean {
    const now = Date.now();
    // Forget expired leases now and then, so a long-lived hub does not keep one per resumed question.
    if (this.#leases.size >= 1024) for (const [held, expires] of this.#leases) if (expires <= now) this.#leases.delete(held);
    const until = this.#leases.get(key);
    if (until !== undefined && until > now) return false;
    this.#leases.set(key, now + ttlMs);
    return true;
  }

  /** @internal */
  leave(node: MemoryQuestionBus): void {
    if (this.#nodes.get(node.nodeId) === node) this.#nodes.delete(node.nodeId);
  }
}

class MemoryQuestionBus implements QuestionBus {
  #listener: QuestionBusListener | undefined;
  #interrupted = false;
  #closed = false;
  /** `undefined` until the first `follow` or `unfollow`: until then the node receives everything. */
  #following: Set<string> | undefined;

  constructor(
    readonly nodeId: string,
    private readonly hub: MemoryQuestionBusHub,
  ) {}

  get listening(): boolean {
    return this.#listener !== undefined && !this.#interrupted && !this.#closed;
  }

  async subscribe(listener: QuestionBusListener): Promise<void> {
    this.#assertUsable('subscribe');
    if (this.#listener !== undefined) throw new QuestionStoreError('INVALID_INPUT', 'This bus already has a listener; a bus serves one host.');
    this.#listener = listener;
  }

  async publish(message: QuestionBusMessage): Promise<void> {
    this.#assertUsable('publish');
    // Checked and copied like a message that went over the wire.
    const parsed = questionBusMessageSchema.safeParse(message);
    if (!parsed.success) throw new QuestionStoreError('INVALID_INPUT', `publish: not a bus message (${parsed.error.issues[0]?.message ?? 'invalid'}).`, { cause: parsed.error });
    this.hub.broadcast(this, parsed.data);
  }

  async isNodeAlive(nodeId: string): Promise<boolean> {
    this.#assertUsable('isNodeAlive');
    return this.hub.isAlive(nodeId);
  }

  async acquireLease(key: string, ttlMs: number): Promise<boolean> {
    this.#assertUsable('acquireLease');
    if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) throw new QuestionStoreError('INVALID_INPUT', `acquireLease: ttlMs must be a whole number of milliseconds > 0, not ${String(ttlMs)}.`);
    return this.hub.acquireLease(key, ttlMs);
  }

  async follow(sessionId: string): Promise<void> {
    this.#assertUsable('follow');
    assertSessionId('follow', sessionId);
    (this.#following ??= new Set()).add(sessionId);
  }

  async unfollow(sessionId: string): Promise<void> {
    this.#assertUsable('unfollow');
    assertSessionId('unfollow', sessionId);
    // The first unfollow, like the first follow, switches the node to news by session.
    (this.#following ??= new Set()).delete(sessionId);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listener = undefined;
    this.hub.leave(this);
  }

  /** @internal Whether this node's follows let `message` through (the filter a Redis subscription makes). */
  wants(message: QuestionBusMessage): boolean {
    const following = this.#following;
    if (following === undefined || following.has('*') || following.has(message.record.sessionId)) return true;
    return message.type === 'settled' && message.record.askedOn === this.nodeId;
  }

  /** @internal */
  receive(message: QuestionBusMessage): void {
    if (!this.listening) return;
    const copy = structuredClone(message);
    // Asynchronous like a network, but in publish order (microtasks run first in, first out).
    queueMicrotask(() => {
      if (!this.listening) return;
      try {
        this.hub.countReceived(this.nodeId);
        this.#listener?.message(copy);
      } catch {
        // A listener's failure is its own (the host catches its own); it must not take down the
        // process from inside a microtask, nor stop delivery to the other nodes.
      }
    });
  }

  /** @internal */
  setInterrupted(interrupted: boolean): void {
    const wasInterrupted = this.#interrupted;
    this.#interrupted = interrupted;
    if (wasInterrupted && !interrupted && this.listening) {
      const listener = this.#listener;
      queueMicrotask(() => listener?.resync());
    }
  }

  #assertUsable(operation: string): void {
    if (this.#closed) throw new QuestionStoreError('STORE_CLOSED', `${operation}: this bus was closed.`);
    if (this.#interrupted) throw new QuestionStoreError('STORE_UNAVAILABLE', `${operation}: this node is cut off from the bus (interrupted).`);
  }
}

function assertSessionId(operation: string, sessionId: unknown): void {
  if (typeof sessionId !== 'string' || sessionId === '') throw new QuestionStoreError('INVALID_INPUT', `${operation}: give a session id (a non-empty string) or '*', not ${JSON.stringify(sessionId)}.`);
}
