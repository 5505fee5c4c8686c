import { closeCodes, type HostConnection } from './connection.js';
import type { HostLogger } from './logger.js';

/**
 * Protocol-level ping every `intervalMs`; a connection that has not echoed the previous tick's
 * ping is let go. This finds peers that vanished without a FIN (a sleeping laptop, a dropped
 * network), whose sockets would otherwise hold their questions' deliveries forever, and peers that
 * are there but do not read (only a pong echoing the ping counts, and the ping is read after
 * everything sent before it), whose unread frames would otherwise sit in the host's memory.
 * Returns the function that stops it.
 */
export function startHeartbeat(connections: Iterable<HostConnection>, intervalMs: number, logger: HostLogger): () => void {
  const timer = setInterval(() => {
    for (const connection of connections) {
      if (!connection.isAlive) {
        if (connection.heardSinceEcho) {
          // It still sends (unsolicited pongs, frames) but has not read our ping: tell it why, for
          // when it reads again; the closing handshake times out after closeTimeoutMs if it never does.
          logger.warn('closing a connection that does not read what it is sent', { connectionId: connection.id, ...connection.backlog() });
          connection.close(closeCodes.policyViolation, 'not reading');
        } else {
          logger.info('terminating a connection that stopped answering pings', { connectionId: connection.id });
          connection.terminate();
        }
        continue;
      }
      try {
        connection.ping();
      } catch (error) {
        logger.debug('ping failed', { connectionId: connection.id, error: String(error) });
      }
    }
  }, intervalMs);
  // Not unref'd: the host's listener keeps the process alive anyway, and a referenced timer makes
  // a forgotten close() visible (the leak test counts it).
  return () => clearInterval(timer);
}
