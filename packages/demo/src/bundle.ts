import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Where `@askseam/web`'s browser bundle is on disk: the target of its public `./browser` export.
 * Read from its package.json rather than imported, so the demo never loads the element's module
 * graph in Node (and a missing build is reported when the page asks for it, not at startup).
 */
export function defaultBundlePath(exportName = './browser'): string {
  const manifestPath = createRequire(import.meta.url).resolve('@askseam/web/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: Record<string, unknown> };
  const entry = manifest.exports?.[exportName];
  // A plain path, or conditions whose `default` is the bundle (`types` sits beside it).
  const target = typeof entry === 'object' && entry !== null ? (entry as { default?: unknown }).default : entry;
  if (typeof target !== 'string') throw new Error(`@askseam/web (${manifestPath}) no longer exports "${exportName}" as a file path.`);
  return join(dirname(manifestPath), target);
}

/** The operator console's bundle (`@askseam/web/browser/console`), for the host's `consoleScript`. */
export function defaultConsoleBundlePath(): string {
  return defaultBundlePath('./browser/console');
}
