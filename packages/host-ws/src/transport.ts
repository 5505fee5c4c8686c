import type { Delivery } from './delivery.js';
import type { Judge } from './judge.js';
import type { Lifecycle } from './lifecycle.js';
import type { Reporter } from './reporter.js';

/**
 * What a transport gets from the host: the rest of the host is the same whatever carries the
 * frames. A transport authenticates its peers, adds each one (a `Subscriber`) to
 * `delivery.audience` and greets it (`delivery.greet`: hello and replay), passes every response to
 * `judge.judge`, reports its connects and disconnects, and refuses new peers once
 * `lifecycle.ended`. The WebSocket server (socket-server.ts) is the first; HTTP + Server-Sent
 * Events can be a second without touching asks, judging or replay.
 */
export interface TransportCore {
  readonly delivery: Delivery;
  readonly judge: Judge;
  readonly reporter: Reporter;
  readonly lifecycle: Lifecycle;
}

/** What the host needs of a transport. */
export interface Transport {
  /** Start taking peers (the host is loaded and listening). */
  start(): void;
  /** Stop taking peers and hang up on every one, within the host's closeTimeoutMs. */
  close(): Promise<void>;
}
