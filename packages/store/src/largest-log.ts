/** What the memory store's event retention needs of one session's log. */
export interface EventLogView {
  readonly length: number;
  readonly 0?: { readonly id: number } | undefined;
}

interface Candidate {
  sessionId: string;
  length: number;
  firstId: number;
}

/**
 * Which session's event log to trim when the store holds more than `retainEvents`: the longest,
 * and of two as long the one whose oldest event is older. A full scan of every session's log per
 * event was O(sessions) (with a thousand sessions it was the store's largest cost); this is a
 * binary heap of (length, oldest id) snapshots, O(log sessions) per change. A snapshot is stale
 * once its log has changed (a log's length and oldest id together name one state: ids only grow),
 * and stale ones are skipped when they reach the top or dropped when the heap is rebuilt.
 */
export class LargestLog {
  #heap: Candidate[] = [];

  /** `logs` is the store's map of logs by session: the truth every snapshot is checked against. */
  constructor(private readonly logs: ReadonlyMap<string, EventLogView>) {}

  /** `sessionId`'s log has just changed (an event appended or forgotten, or the log dropped). */
  changed(sessionId: string): void {
    // Snapshots of logs that have changed since pile up; past twice the live ones, start afresh.
    if (this.#heap.length > 2 * this.logs.size + 64) this.#rebuild();
    this.#snapshot(sessionId, this.logs.get(sessionId));
  }

  /** The session whose log should lose its oldest event, or undefined when none holds any. */
  largest(): string | undefined {
    const logs = this.logs;
    while (this.#heap.length > 0) {
      const top = this.#heap[0]!;
      const log = logs.get(top.sessionId);
      if (log !== undefined && log.length === top.length && log[0]?.id === top.firstId) return top.sessionId;
      this.#pop();
    }
    return undefined;
  }

  #snapshot(sessionId: string, log: EventLogView | undefined): void {
    const first = log?.[0];
    if (log === undefined || first === undefined) return;
    this.#push({ sessionId, length: log.length, firstId: first.id });
  }

  #rebuild(): void {
    this.#heap = [];
    for (const [sessionId, log] of this.logs) this.#snapshot(sessionId, log);
  }

  #push(candidate: Candidate): void {
    const heap = this.#heap;
    heap.push(candidate);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(candidate, heap[parent]!)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = candidate;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = last;
  }
}

/** `a` is trimmed before `b`: longer, or as long with an older oldest event. */
function before(a: Candidate, b: Candidate): boolean {
  return a.length > b.length || (a.length === b.length && a.firstId < b.firstId);
}
