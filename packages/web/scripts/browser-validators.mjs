// The browser bundle's validators, generated at build time (issue 19 target 5). zod was almost half
// of the element's bundle; here every schema module the browser path loads (the question and answer
// schemas, the protocol's frames) is replaced by plain JSON plans made from those very schemas, and
// `compiledSafeParse` by plain-parse.ts, which checks a plan the way zod checks the schema. No
// source changes on the host side: the host keeps zod, the browser gets the same answers, and
// test/browser-validators.property.test.ts proves it on generated frames and answers.
import { build } from 'esbuild';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Paths under packages/. A schema module is replaced by its plans under the same export names,
// so every import of it still links; compiled.ts by a re-export of plain-parse.ts.
const schemaModules = ['user-questions/src/schemas.ts', 'protocol/src/frames.ts'];
const compiledModule = 'user-questions/src/compiled.ts';
const plainParseModule = 'user-questions/src/plain-parse.ts';
const describeModule = 'user-questions/src/plain-schema.ts';

/**
 * esbuild plugin: load the schema modules as generated plans and compiled.ts as plain-parse.ts.
 * @param {{ packagesDir: string, workspaceSources: import('esbuild').Plugin }} options
 * @returns {import('esbuild').Plugin}
 */
export function browserValidators({ packagesDir, workspaceSources }) {
  const sourcePattern = new RegExp(`^${escapeRegExp(packagesDir)}(${[...schemaModules, compiledModule].map(escapeRegExp).join('|')})$`);
  return {
    name: 'askseam-browser-validators',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
        const match = sourcePattern.exec(args.path.replaceAll('\\', '/'));
        if (!match) return undefined;
        const file = match[1];
        if (file === compiledModule) {
          return { contents: `export { plainSafeParse as compiledSafeParse } from ${JSON.stringify(`${packagesDir}${plainParseModule}`)};\n`, loader: 'js' };
        }
        const plans = await schemaPlans(packagesDir, workspaceSources);
        return { contents: plans[file], loader: 'js' };
      });
    },
  };
}

/** @type {Map<string, Promise<Record<string, string>>>} one generation per packages directory and process */
const generated = new Map();

/**
 * The generated source of every schema module, from the schemas themselves: the modules are
 * bundled for Node (with zod), imported, and each export is described by plain-schema.ts.
 * @param {string} packagesDir
 * @param {import('esbuild').Plugin} workspaceSources
 * @returns {Promise<Record<string, string>>}
 */
export function schemaPlans(packagesDir, workspaceSources) {
  let plans = generated.get(packagesDir);
  if (!plans) {
    plans = generatePlans(packagesDir, workspaceSources);
    generated.set(packagesDir, plans);
    // A failed generation (a schema the plain validator cannot check) is reported, not cached.
    plans.catch(() => generated.delete(packagesDir));
  }
  return plans;
}

async function generatePlans(packagesDir, workspaceSources) {
  const entry = [
    ...schemaModules.map((file, index) => `export * as module${index} from ${JSON.stringify(`${packagesDir}${file}`)};`),
    `export { describeSchema } from ${JSON.stringify(`${packagesDir}${describeModule}`)};`,
  ].join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: packagesDir, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    plugins: [workspaceSources],
    logLevel: 'silent',
  });
  const file = join(tmpdir(), `askseam-schema-plans-${process.pid}-${randomUUID()}.mjs`);
  await writeFile(file, result.outputFiles[0].contents);
  try {
    const loaded = await import(pathToFileURL(file).href);
    return Object.fromEntries(schemaModules.map((name, index) => [name, moduleSource(name, loaded[`module${index}`], loaded.describeSchema)]));
  } finally {
    await rm(file, { force: true });
  }
}

/** One schema module as JavaScript: each schema a JSON plan, each record of schemas a record of plans, each constant itself. */
function moduleSource(name, namespace, describeSchema) {
  const isSchema = (value) => typeof value === 'object' && value !== null && '_zod' in value;
  const exportNameOf = new Map(Object.entries(namespace).filter(([, value]) => isSchema(value)).map(([key, value]) => [value, key]));
  const lines = [`// Generated from ${name} by packages/web/scripts/browser-validators.mjs for the browser bundle.`];
  const records = [];
  for (const [key, value] of Object.entries(namespace)) {
    if (isSchema(value)) lines.push(`export const ${key} = ${JSON.stringify(describeSchema(value, key))};`);
    else if (['string', 'number', 'boolean'].includes(typeof value)) lines.push(`export const ${key} = ${JSON.stringify(value)};`);
    else if (typeof value === 'object' && value !== null && Object.values(value).every(isSchema)) records.push([key, value]);
    else throw new Error(`${name} exports "${key}", which the browser validator cannot carry (not a schema, a record of schemas or a constant): move it to a module of its own, which the bundle then loads as it is.`);
  }
  // Records last: they refer to the schemas above by name rather than repeating their plans.
  for (const [key, record] of records) {
    const entries = Object.entries(record).map(([field, schema]) => `${JSON.stringify(field)}: ${exportNameOf.get(schema) ?? JSON.stringify(describeSchema(schema, `${key}.${field}`))}`);
    lines.push(`export const ${key} = { ${entries.join(', ')} };`);
  }
  return `${lines.join('\n')}\n`;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
