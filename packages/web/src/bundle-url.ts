/**
 * Where the self-contained browser bundle (`dist/browser/askseam-questions.js`) is on disk, for a
 * server that wants to serve it. Built by this package's `build` / `bundle` scripts.
 */
export function browserBundleUrl(): URL {
  // Resolved from this module, which lives in dist/ (built) or src/ (from source); both sit beside dist/.
  const relative = '../dist/browser/askseam-questions.js';
  return new URL(relative, import.meta.url);
}

/**
 * Where the operator console's browser bundle (`dist/browser/askseam-console.js`, `<askseam-console>`)
 * is on disk: pass it as the host's `consoleScript` to serve the console page at `<path>/console`.
 */
export function consoleBundleUrl(): URL {
  return new URL('../dist/browser/askseam-console.js', import.meta.url);
}
