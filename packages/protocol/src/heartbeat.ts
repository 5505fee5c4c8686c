/**
 * How often the host sends a protocol-level ping by default (its `heartbeatMs`). A socket that has
 * not answered by the next ping is terminated, so the host finds a vanished peer within two
 * intervals.
 */
export const DEFAULT_HOST_HEARTBEAT_MS = 30_000;

/**
 * How often a client sends its app-level `{ type: 'ping' }` by default (its `heartbeatMs`); if
 * nothing at all comes back within one interval after a ping, it drops the socket and reconnects.
 *
 * Half the host's interval, because a browser cannot see protocol-level pings and must find a dead
 * link itself: it notices within two of its intervals (the next ping, then one silent interval),
 * which is one host interval, so it reconnects (and gets its questions replayed) no later than the
 * host would evict the socket; and an idle connection carries traffic at least as often as the
 * host's own pings. Change both together.
 */
export const DEFAULT_CLIENT_HEARTBEAT_MS = DEFAULT_HOST_HEARTBEAT_MS / 2;
