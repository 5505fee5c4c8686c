import type { Database as Connection } from 'better-sqlite3';

/** One call into SQLite waiting for the next batch, with the promise of whoever made it. */
interface QueuedCall {
  readonly call: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** What one call in a batch came to, kept until the batch has committed. */
type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/**
 * Group commit: the calls made on a connection until the event loop's next check phase (every ask
 * of one burst, the events they log, the answers that arrived in the same turn) run in call order
 * inside ONE `BEGIN IMMEDIATE … COMMIT`, so they share one fsync instead of paying one each. Each
 * caller's promise settles only after that COMMIT returned, so nobody is told "stored" before the
 * disk has it: the durability is the connection's own (`synchronous`), never weaker.
 *
 * A call that fails fails alone: SQLite undoes just that statement (a multi-statement call brings
 * its own savepoint, a nested `db.transaction`), the rest of the batch commits, and only that
 * caller's promise rejects. Only a failure of the transaction itself (the lock not granted in time,
 * COMMIT refused, an error after which SQLite rolled everything back) rejects every call in it,
 * since none of them reached the disk.
 */
export class GroupCommit {
  #queue: QueuedCall[] = [];
  readonly #commit: (calls: readonly QueuedCall[]) => Outcome[];

  constructor(
    private readonly db: Connection,
    /** Turns a raw SQLite error into the error callers see (damage becomes CORRUPT_STORE). */
    private readonly describeFailure: (error: unknown) => unknown,
  ) {
    // IMMEDIATE: take the write lock at BEGIN (waiting up to the busy timeout), not halfway through the batch.
    this.#commit = db.transaction((calls: readonly QueuedCall[]): Outcome[] =>
      calls.map((queued): Outcome => {
        try {
          return { ok: true, value: queued.call() };
        } catch (error) {
          // SQLite rolled the whole transaction back (SQLITE_FULL, an I/O error, …): the calls
          // before this one are gone too, so the batch as a whole fails.
          if (!this.db.inTransaction) throw error;
          return { ok: false, error };
        }
      }),
    ).immediate;
  }

  /** True when no call is waiting for a batch: a read may run at once without overtaking a write. */
  get idle(): boolean {
    return this.#queue.length === 0;
  }

  /** Queue `call` for the next batch; resolves with what it returned once its batch has committed. */
  run<T>(call: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ call, resolve: resolve as (value: unknown) => void, reject });
      // setImmediate, not a microtask: the batch also collects what other I/O callbacks of this
      // loop turn queue (asks from other sockets, the events logged after the last batch resolved).
      if (this.#queue.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commit every queued call now (the scheduled flush, and `close`, which must not drop any). */
  flush(): void {
    const calls = this.#queue;
    if (calls.length === 0) return;
    this.#queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.#commit(calls);
    } catch (error) {
      const failure = this.describeFailure(error);
      for (const queued of calls) queued.reject(failure);
      return;
    }
    outcomes.forEach((outcome, index) => {
      const queued = calls[index]!;
      if (outcome.ok) queued.resolve(outcome.value);
      else queued.reject(this.describeFailure(outcome.error));
    });
  }
}
