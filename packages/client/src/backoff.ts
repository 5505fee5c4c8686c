export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const defaultBackoff: BackoffOptions = { initialDelayMs: 250, maxDelayMs: 10_000 };

/**
 * The wait before reconnect attempt `attempt` (0 for the first retry): doubling from
 * `initialDelayMs`, capped at `maxDelayMs`, then jittered into the upper half of that window so a
 * host restart is not met by every browser tab at the same instant.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
