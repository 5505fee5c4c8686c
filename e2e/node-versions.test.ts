// What `pnpm test` runs again on Node 22 and 24 (scripts/node-versions.mjs): the selection is handed
// to the real `vitest list` in this repo, so a project name that matches nothing, or a browser suite
// let through, shows here rather than as a silently smaller run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoDir, run, type RunResult } from './outside-app/app.js';

// The framework adapters: `ai` 7 and `openai` 7 declare Node >= 22, so Node 20 alone proves little.
const adapters = ['ai-sdk', 'openai-agents', 'langchain', 'claude-agent-sdk', 'mcp', 'react'];

const { nodeSideVitestArgs } = (await import(pathToFileURL(join(repoDir, 'scripts', 'node-versions.mjs')).href)) as { nodeSideVitestArgs: () => string[] };

let listDir = '';
let listed: RunResult;
/** Repo-relative test files the other versions run, by project. */
const filesByProject = new Map<string, string[]>();

beforeAll(async () => {
  listDir = mkdtempSync(join(tmpdir(), 'askseam-node-versions-'));
  const outputFile = join(listDir, 'list.json');
  listed = await run(join(repoDir, 'node_modules', '.bin', 'vitest'), ['list', '--filesOnly', `--json=${outputFile}`, ...nodeSideVitestArgs()], { cwd: repoDir, timeoutMs: 120_000 });
  if (listed.status !== 0) return;
  for (const { file, projectName } of JSON.parse(readFileSync(outputFile, 'utf8')) as Array<{ file: string; projectName: string }>) {
    filesByProject.set(projectName, [...(filesByProject.get(projectName) ?? []), relative(repoDir, file)]);
  }
}, 180_000);

afterAll(() => {
  if (listDir) rmSync(listDir, { recursive: true, force: true });
});

describe('the suites run again on Node 22 and 24', () => {
  it('are a selection vitest accepts', () => {
    expect(listed.status, listed.stdout + listed.stderr).toBe(0);
  });

  it.each(adapters)('include the %s adapter\'s suite', (project) => {
    expect(filesByProject.get(project) ?? []).not.toEqual([]);
  });

  it('include react\'s Node side (its store and server rendering), without its Chromium suite', () => {
    expect(filesByProject.get('react')).toEqual(expect.arrayContaining(['packages/react/src/ssr.test.ts', 'packages/react/src/questions-store.test.ts']));
    expect(filesByProject.get('react')).not.toContain('packages/react/e2e/react.test.ts');
  });

  it('include no suite that drives a browser', () => {
    const browserSuites = [...filesByProject.values()].flat().filter((file) => readFileSync(join(repoDir, file), 'utf8').includes('playwright-core'));
    expect(browserSuites).toEqual([]);
  });

  it('still include the outside-app check and the lean Node-side suites', () => {
    for (const project of ['outside-app', 'user-questions', 'protocol', 'tool-ask-user', 'store', 'store-testing', 'store-sqlite', 'host-ws']) {
      expect(filesByProject.get(project) ?? [], project).not.toEqual([]);
    }
  });
});
