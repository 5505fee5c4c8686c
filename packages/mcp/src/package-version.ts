import { createRequire } from 'node:module';

// dist/*.js and src/*.ts both sit one level below the package's own package.json, so the version
// reported in `initialize` and by `--version` is the one that was installed, never a copied string.
export const packageVersion = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
