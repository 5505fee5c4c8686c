/** Where the host writes what it does. `console` fits; the default is silent. */
export interface HostLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const noop = () => {};

/** Logs nothing: a library should not write to a host app's console unless asked to. */
export const silentLogger: HostLogger = { debug: noop, info: noop, warn: noop, error: noop };

/**
 * Wrap `logger` so that a logger that throws (a full disk, a buggy transport) can never break the
 * code path that was only trying to report something.
 */
export function safeLogger(logger: HostLogger | undefined): HostLogger {
  if (logger === undefined) return silentLogger;
  const guard =
    (level: keyof HostLogger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      try {
        logger[level](message, fields);
      } catch {
        // Nowhere left to report a failing logger to.
      }
    };
  return { debug: guard('debug'), info: guard('info'), warn: guard('warn'), error: guard('error') };
}
