// An app that never installed @opentelemetry/api (the optional peer): every package still loads,
// and a question is asked and answered. A child process whose module hooks make @opentelemetry/*
// unresolvable, so the check cannot pass by finding the module in this workspace.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('./without-otel/', import.meta.url));

describe('without @opentelemetry/api installed', () => {
  it('imports every package and answers a question through the seam and the host', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', './register.mjs', 'child.mjs'], { cwd: dir });
    const result = JSON.parse(stdout) as { blocked: boolean; imported: string[]; failed: string[]; answer: unknown };
    expect(result.blocked).toBe(true);
    expect(result.failed).toEqual([]);
    expect(result.imported).toEqual(expect.arrayContaining(['@askseam/user-questions', '@askseam/host-ws', '@askseam/store', '@askseam/store-sqlite', '@askseam/store-redis', '@askseam/client', '@askseam/web/server']));
    expect(result.answer).toEqual({ answers: [{ id: 'go', selected: ['Yes'] }] });
  });
});
