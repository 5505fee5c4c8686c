let lastMs = Number.NaN;
let lastIso = '';

/**
 * `new Date().toISOString()`, with one string per millisecond: a burst of asks in the same
 * millisecond shares its `askedAt` instead of keeping a 40-byte string each (heap per pending
 * question). Strings are immutable, so sharing one is invisible to everyone who reads it.
 */
export function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}
