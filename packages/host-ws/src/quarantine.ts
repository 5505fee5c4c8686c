/** A stored question the host set aside: it stays in the store exactly as it is, and the host skips it. */
export interface QuarantinedQuestion {
  rpcId: string;
  /** Its session, when that much of the record could be read. */
  sessionId?: string;
  /** What is wrong with it (the store's `CORRUPT_STORE` message, or why its answer does not fit its questions). */
  reason: string;
  /** When this host first met it. */
  at: string;
}

/** Longest reason kept: a damaged record must not grow the log or the listing without bound. */
const maxReasonLength = 500;

/**
 * The stored questions this host met and could not use (docs/durability.md, "A damaged record"):
 * one bad record must not stop the host, so it is set aside here, reported once, and listed by
 * `WebSocketHost.quarantined()`. Kept per process: the next host meets (and reports) it again
 * until someone repairs or deletes it.
 */
export class Quarantine {
  readonly #byRpcId = new Map<string, QuarantinedQuestion>();

  /** Set a record aside. Returns the entry when it is new (to be reported), undefined when it was already here. */
  add(rpcId: string, sessionId: string | undefined, reason: string): QuarantinedQuestion | undefined {
    if (this.#byRpcId.has(rpcId)) return undefined;
    const clipped = reason.length > maxReasonLength ? `${reason.slice(0, maxReasonLength)}…` : reason;
    const entry: QuarantinedQuestion = { rpcId, ...(sessionId === undefined ? {} : { sessionId }), reason: clipped, at: new Date().toISOString() };
    this.#byRpcId.set(rpcId, entry);
    return entry;
  }

  /** Every quarantined question, in the order they were met (copies). */
  list(): QuarantinedQuestion[] {
    return [...this.#byRpcId.values()].map((entry) => ({ ...entry }));
  }
}
