// Checks the root README against the repo, so the parts that used to be copied by hand cannot go
// stale: no test count copied from some run (the run prints its own), every packages/ directory in
// the packages table, and every public package in the install chooser.
// `node scripts/readme-check.mjs [README path]`; exits 1 and names each problem.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const repoDir = process.cwd();
const readmePath = process.argv[2] ?? join(repoDir, 'README.md');

/** The text of the `## heading` section, up to the next `## ` heading. */
function section(markdown, heading) {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) return undefined;
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/**
 * Every problem the README has, one sentence each.
 * @param {string} readme
 * @param {{ dir: string, name: string, private: boolean }[]} packages
 */
function readmeProblems(readme, packages) {
  const problems = [];
  // "N passed" and "N failed" are how the README names the closing line; a digit there is a copy.
  for (const match of readme.matchAll(/\b\d[\d,]*\s+(passed|failed)\b/g)) {
    problems.push(`"${match[0]}" is a test count copied by hand; say "N passed, N failed" (the run prints its own).`);
  }
  const table = section(readme, 'Packages');
  if (table === undefined) problems.push('There is no "## Packages" section.');
  else {
    for (const { dir } of packages) {
      if (!table.includes(`](packages/${dir})`)) problems.push(`The packages table has no row linking packages/${dir}.`);
    }
  }
  const install = section(readme, 'Install');
  if (install === undefined) problems.push('There is no "## Install" section.');
  else {
    for (const { name } of packages.filter((pkg) => !pkg.private)) {
      if (!new RegExp(`npm install [^\`|]*${name.replace('/', '\\/')}(?=[\\s\`])`).test(install)) {
        problems.push(`The install chooser has no \`npm install\` naming ${name}.`);
      }
    }
  }
  return problems;
}

function packagesOf(root) {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const manifest = JSON.parse(readFileSync(join(root, 'packages', entry.name, 'package.json'), 'utf8'));
      return { dir: entry.name, name: manifest.name, private: manifest.private === true };
    });
}

const problems = readmeProblems(readFileSync(readmePath, 'utf8'), packagesOf(repoDir));
for (const problem of problems) console.error(`README.md: ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
