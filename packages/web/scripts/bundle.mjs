// Builds the self-contained browser bundle: src/browser.ts with the client (and the element's own
// Markdown renderer) inlined, as one minified ES module. `node scripts/bundle.mjs` writes
// dist/browser/askseam-questions.js; tests import buildBrowserBundle() and keep it in memory.
import { build } from 'esbuild';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserValidators } from './browser-validators.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const packagesDir = fileURLToPath(new URL('../..', import.meta.url));

export const bundleFile = `${packageDir}dist/browser/askseam-questions.js`;
export const consoleBundleFile = `${packageDir}dist/browser/askseam-console.js`;

// Sibling packages come from their sources, so the bundle never depends on a stale dist/.
const workspaceSources = {
  name: 'askseam-workspace-sources',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@askseam\/[a-z-]+$/ }, (args) => ({
      path: `${packagesDir}${args.path.slice('@askseam/'.length)}/src/index.ts`,
    }));
  },
};

/**
 * Bundle the element for browsers. With `write: false` the code comes back as a string and
 * nothing touches the disk. `entryPoint` (tests only) bundles another browser module the same way.
 * @param {{ write?: boolean, minify?: boolean, entryPoint?: string }} [options]
 * @returns {Promise<string>} the bundle's code
 */
export async function buildBrowserBundle({ write = true, minify = true, entryPoint = `${packageDir}src/browser.ts` } = {}) {
  const { result, output } = await bundleForBrowsers({ write, minify, entryPoint });
  if (write) {
    await mkdir(dirname(bundleFile), { recursive: true });
    for (const file of result.outputFiles) {
      const temporary = `${file.path}.${process.pid}.${randomUUID()}.tmp`;
      await writeFile(temporary, file.contents);
      await rename(temporary, file.path);
    }
  }
  return output.text;
}

/**
 * The minified bundle and what is in it (esbuild's metafile: bytes per input file), never written.
 * For the size test and `pnpm bench`'s bundle section.
 * @returns {Promise<{ code: string, inputs: Record<string, number> }>} inputs: bytes in the output per source path
 */
export async function analyseBrowserBundle() {
  const { result, output } = await bundleForBrowsers({ write: false, minify: true, entryPoint: `${packageDir}src/browser.ts`, metafile: true });
  const outputMeta = Object.values(result.metafile.outputs).find((meta) => meta.entryPoint !== undefined);
  const inputs = Object.fromEntries(Object.entries(outputMeta?.inputs ?? {}).map(([path, meta]) => [path, meta.bytesInOutput]));
  return { code: output.text, inputs };
}

async function bundleForBrowsers({ write, minify, entryPoint, metafile = false }) {
  const result = await build({
    entryPoints: [entryPoint],
    outfile: bundleFile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox113', 'safari16.4'],
    minify,
    sourcemap: write ? 'linked' : false,
    legalComments: 'eof',
    // Always in memory first: written files are then swapped in whole (below), so a server or test
    // reading the bundle while another process rebuilds it never sees half a file.
    write: false,
    metafile,
    // zod stays on the host: the browser checks frames and answers with plans made from the same
    // schemas at build time (browser-validators.mjs), which cut the bundle by almost half.
    plugins: [workspaceSources, browserValidators({ packagesDir, workspaceSources })],
    logLevel: 'silent',
  });
  const output = result.outputFiles.find((file) => file.path.endsWith('.js'));
  if (!output) throw new Error('esbuild produced no JavaScript output.');
  return { result, output };
}

/**
 * Bundle the operator console (`<askseam-console>`) on its own, so the question element's bundle
 * (and its size budget) never carries it. It needs neither the client nor the validators.
 * @param {{ write?: boolean }} [options]
 * @returns {Promise<string>} the bundle's code
 */
export async function buildConsoleBundle({ write = true } = {}) {
  const result = await build({
    entryPoints: [`${packageDir}src/console-browser.ts`],
    outfile: consoleBundleFile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox113', 'safari16.4'],
    minify: true,
    legalComments: 'eof',
    write: false,
    plugins: [workspaceSources],
    logLevel: 'silent',
  });
  const output = result.outputFiles.find((file) => file.path.endsWith('.js'));
  if (!output) throw new Error('esbuild produced no JavaScript output for the console.');
  if (write) {
    await mkdir(dirname(consoleBundleFile), { recursive: true });
    const temporary = `${consoleBundleFile}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(temporary, output.contents);
    await rename(temporary, consoleBundleFile);
  }
  return output.text;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildBrowserBundle();
  console.log(`wrote ${bundleFile}`);
  await buildConsoleBundle();
  console.log(`wrote ${consoleBundleFile}`);
}
