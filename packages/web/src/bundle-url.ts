/**
 * Where the self-contained browser bundle (`dist/browser/askseam-questions.js`) is on disk, for a
 * server that wants to serve it. Built by this package's `build` / `bundle` scripts.
 */
export function browserBundleUrl(): URL {
  // Resolved from this module, which lives in dist/ (built) or src/ (from source); both sit beside dist/.
  const relative = '../dist/browser/askseam-questions.js';
  return new URL(relative, import.meta.url);
}
