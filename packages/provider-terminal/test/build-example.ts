import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('../', import.meta.url));
const packagesDir = fileURLToPath(new URL('../../', import.meta.url));

/**
 * An example (examples/ask-in-terminal.ts unless named) as one runnable file, with the askseam
 * packages taken from their sources (as the tests see them) and the prompt library from node_modules. It is written into the
 * package's node_modules so that Node resolves @inquirer/prompts from there.
 */
export async function buildTerminalExample(example = 'ask-in-terminal'): Promise<string> {
  const outDir = `${packageDir}node_modules/.askseam-test`;
  mkdirSync(outDir, { recursive: true });
  const outfile = `${outDir}/${example}.mjs`;
  await build({
    entryPoints: [`${packageDir}examples/${example}.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    alias: {
      '@askseam/user-questions': `${packagesDir}user-questions/src/index.ts`,
      '@askseam/text': `${packagesDir}text/src/index.ts`,
      '@askseam/provider-terminal': `${packagesDir}provider-terminal/src/index.ts`,
    },
    external: ['@inquirer/prompts'],
  });
  return outfile;
}
