import type { HostConnection } from './connection.js';
import type { HostLogger } from './logger.js';

/**
 * Protocol-level ping every `intervalMs`; a connection that has not ponged since the previous tick
 * is terminated. This finds peers that vanished without a FIN (a sleeping laptop, a dropped
 * network), whose sockets would otherwise hold their questions' deliveries forever.
 * Returns the function that stops it.
 */
export function startHeartbeat(connections: Iterable<HostConnection>, intervalMs: number, logger: HostLogger): () => void {
  const timer = setInterval(() => {
    for (const connection of connections) {
      if (!connection.isAlive) {
        logger.info('terminating a connection that stopped answering pings', { connectionId: connection.id });
        connection.terminate();
        continue;
      }
      connection.isAlive = false;
      try {
        connection.socket.ping();
      } catch (error) {
        logger.debug('ping failed', { connectionId: connection.id, error: String(error) });
      }
    }
  }, intervalMs);
  // Not unref'd: the host's listener keeps the process alive anyway, and a referenced timer makes
  // a forgotten close() visible (the leak test counts it).
  return () => clearInterval(timer);
}
