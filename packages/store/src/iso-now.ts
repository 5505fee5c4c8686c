/**
 * The current time as an ISO 8601 string (`new Date().toISOString()`), remembered for the rest of
 * its millisecond. A round trip stamps four to six records and events, and `toISOString` costs
 * over a microsecond each on a small server (about 5 % of an in-memory round trip), while
 * `Date.now()` costs a tenth of that; every stamp taken within one millisecond is the same string anyway.
 */
export function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

let lastMs = Number.NaN;
let lastIso = '';
