import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as server from './server.js';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const typings = fileURLToPath(new URL('../test/typings/', import.meta.url));

/** Type-check one of test/typings' Node-only projects; they read the built declarations (dist/, fresh after `pnpm build`). */
function typeCheck(project: string): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', `${typings}${project}`], (error, stdout, stderr) => {
      resolve({ ok: error === null, output: `${stdout}${stderr}` });
    });
  });
}

describe('@askseam/web/server', () => {
  it('exports what a server uses, and nothing that needs a DOM', () => {
    expect(Object.keys(server).sort()).toEqual(['askseamPageContentSecurityPolicy', 'browserBundleUrl', 'consoleBundleUrl', 'isFormBatch']);
  });

  it('type-checks under a Node-only tsconfig (no dom lib, skipLibCheck off), where the main entry cannot', async () => {
    const [serverOnly, mainEntry] = await Promise.all([typeCheck('tsconfig.dom-free.json'), typeCheck('tsconfig.dom-free-main.json')]);
    expect(serverOnly.output).toBe('');
    expect(serverOnly.ok).toBe(true);
    // The control: the element's own types need the dom lib, so the same settings refuse them.
    expect(mainEntry.ok).toBe(false);
    expect(mainEntry.output).toContain("Cannot find name 'HTMLElement'");
  }, 180_000);
});
