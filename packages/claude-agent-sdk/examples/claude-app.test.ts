// Runs the docs' wiring against the real query() loop and a scripted Messages API.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { approvalOf } from '@askseam/client';
import type { QuestionRecord } from '@askseam/store';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, cleanup, nextQuestion, startRig } from '../test/fixture.js';
import { resultText } from '../test/scripted-messages-api.js';
import { deferringOptions, resumeClaude, runWithAskseam, startDeferredRun } from './claude-app.js';

afterEach(cleanup);

const colour = { question: 'Which colour?', header: 'Colour', multiSelect: false, options: [{ label: 'Red', description: 'Warm.' }, { label: 'Blue', description: 'Cool.' }] };

// Two CLI starts in the deferred test: generous on a shared, busy machine, like defer.test.ts.
describe('the docs example', { timeout: 60_000 }, () => {
  it('runWithAskseam: Claude reads the answer the person gave while the run waited', async () => {
    const { api, userQuestions, client, base } = await startRig();
    api.reply({ toolUse: { id: 'toolu_c', name: 'AskUserQuestion', input: { questions: [colour] } } }, { text: 'Blue.' });
    const asked = nextQuestion(client);
    const result = runWithAskseam(userQuestions, agent, 'Pick a colour.', base);
    await (await asked).answer({ answers: [{ id: 'q1', selected: ['Blue'] }] });
    expect(await result).toBe('Blue.');
    expect(resultText(api.toolResult('toolu_c'))).toContain('"Which colour?"="Blue"');
  });

  it('startDeferredRun and resumeClaude: the run ends at the approval and the answer resumes it', async () => {
    let finished!: (result: string | undefined) => void;
    const done = new Promise<string | undefined>((resolve) => (finished = resolve));
    let resume: (record: QuestionRecord) => Promise<void> = async () => {};
    const { api, userQuestions, host, client, base } = await startRig({ onResume: (record) => resume(record) });
    const options = deferringOptions(userQuestions, agent, base);
    resume = resumeClaude(host, agent, options, finished);
    api.reply({ toolUse: { id: 'toolu_d', name: 'Bash', input: { command: 'touch later.txt', description: 'Mark' } } }, { text: 'Marked.' });
    const asked = nextQuestion(client);

    expect(await startDeferredRun(host, agent, 'Mark it.', options)).toBeUndefined();
    const pending = await asked;
    await pending.answer({ answers: [{ id: approvalOf(pending.questions)!.id, selected: ['Approve'] }] });

    expect(await done).toBe('Marked.');
    expect(existsSync(join(base.cwd!, 'later.txt'))).toBe(true);
  });
});
