/** What the index reads of a connection (any transport's subscriber has it). */
export interface Indexable {
  readonly principalId: string;
  readonly seesEverything: boolean;
  readonly scope: readonly string[] | undefined;
  canSee(sessionId: string): boolean;
}

/**
 * The open connections, indexed by who may see what, so that a question or its resolution in one
 * session touches that session's connections rather than every connection times `canSee`:
 * - connections of the host's own see-everything principals (token, anonymous) get every session,
 *   without asking;
 * - connections whose principal declared its `sessions` exhaustive are filed under those sessions
 *   (read once, when the connection is accepted) and asked `canSee` only for them;
 * - every other connection is asked `canSee` for every session, as the principal's list (if any)
 *   is only a hint.
 */
export class ConnectionIndex<C extends Indexable> implements Iterable<C> {
  readonly #all = new Set<C>();
  readonly #seeAll = new Set<C>();
  readonly #unscoped = new Set<C>();
  // One connection alone under a session (the usual case: one tab per person) is kept as itself;
  // a set only from the second on. An idle connection then costs one map entry, not a set too.
  readonly #bySession = new Map<string, C | Set<C>>();
  /** Open connections per principal id, for `maxConnectionsPerPrincipal`. */
  readonly #byPrincipal = new Map<string, number>();

  get size(): number {
    return this.#all.size;
  }

  /** How many open (or still closing) connections the principal with this id has. */
  countOf(principalId: string): number {
    return this.#byPrincipal.get(principalId) ?? 0;
  }

  [Symbol.iterator](): Iterator<C> {
    return this.#all[Symbol.iterator]();
  }

  add(connection: C): void {
    if (this.#all.has(connection)) return;
    this.#all.add(connection);
    this.#byPrincipal.set(connection.principalId, this.countOf(connection.principalId) + 1);
    if (connection.seesEverything) this.#seeAll.add(connection);
    else if (connection.scope === undefined) this.#unscoped.add(connection);
    else {
      for (const sessionId of connection.scope) {
        const filed = this.#bySession.get(sessionId);
        if (filed === undefined) this.#bySession.set(sessionId, connection);
        else if (filed instanceof Set) filed.add(connection);
        else if (filed !== connection) this.#bySession.set(sessionId, new Set([filed, connection]));
      }
    }
  }

  /** Take the connection out; false when it was not in. */
  delete(connection: C): boolean {
    if (!this.#all.delete(connection)) return false;
    const left = this.countOf(connection.principalId) - 1;
    if (left > 0) this.#byPrincipal.set(connection.principalId, left);
    else this.#byPrincipal.delete(connection.principalId);
    this.#seeAll.delete(connection);
    this.#unscoped.delete(connection);
    for (const sessionId of connection.scope ?? []) {
      const filed = this.#bySession.get(sessionId);
      if (filed === connection) this.#bySession.delete(sessionId);
      else if (filed instanceof Set) {
        filed.delete(connection);
        if (filed.size === 0) this.#bySession.delete(sessionId);
      }
    }
    return true;
  }

  /** Every connection that may see `sessionId` now (`canSee` asked where it has to be). */
  *audience(sessionId: string): Generator<C> {
    yield* this.#seeAll;
    const scoped = this.#bySession.get(sessionId);
    if (scoped instanceof Set) {
      for (const connection of scoped) if (connection.canSee(sessionId)) yield connection;
    } else if (scoped !== undefined && scoped.canSee(sessionId)) yield scoped;
    for (const connection of this.#unscoped) if (connection.canSee(sessionId)) yield connection;
  }
}
