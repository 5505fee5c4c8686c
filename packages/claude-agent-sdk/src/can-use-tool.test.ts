// The real query() loop, offline: the SDK's CLI talks to a scripted Messages API, calls the
// askseam canUseTool, a real client answers as the person, and the scripted model's next request
// shows what Claude reads.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { approvalOf } from '@askseam/client';
import { afterEach, describe, expect, it } from 'vitest';
import { agent, cleanup, nextQuestion, run, startRig } from '../test/fixture.js';
import { resultText } from '../test/scripted-messages-api.js';
import { askseamCanUseTool } from './can-use-tool.js';

afterEach(cleanup);

const database = {
  question: 'Which database should the service use?',
  header: 'Database',
  multiSelect: false,
  options: [
    { label: 'Postgres', description: 'A server, relational.' },
    { label: 'SQLite', description: 'One file next to the app.', preview: 'db.sqlite' },
  ],
};
const features = {
  question: 'Which features should ship first?',
  header: 'Features',
  multiSelect: true,
  options: [
    { label: 'Login', description: 'Accounts and sessions.' },
    { label: 'Search', description: 'Full-text search.' },
    { label: 'Export', description: 'CSV download.' },
  ],
};

describe('askseamCanUseTool with AskUserQuestion', () => {
  it('asks a single-select question with a stable id and Claude reads the chosen label', async () => {
    const { api, userQuestions, client, base } = await startRig();
    api.reply({ toolUse: { id: 'toolu_db', name: 'AskUserQuestion', input: { questions: [database] } } }, { text: 'Using SQLite.' });
    const asked = nextQuestion(client);
    const running = run('Set up storage.', { ...base, canUseTool: askseamCanUseTool(userQuestions, { agent }) });

    const pending = await asked;
    expect(pending.questions).toEqual([
      expect.objectContaining({ id: 'q1', header: 'Database', question: database.question, multiSelect: false, options: [{ label: 'Postgres', description: 'A server, relational.' }, { label: 'SQLite', description: 'One file next to the app.' }] }),
    ]);
    expect(pending.questions[0]!.detail).toContain('db.sqlite');
    await pending.answer({ answers: [{ id: 'q1', selected: ['SQLite'] }] });

    const { result } = await running;
    expect(result).toMatchObject({ subtype: 'success', result: 'Using SQLite.' });
    expect(resultText(api.toolResult('toolu_db'))).toContain(`"${database.question}"="SQLite"`);
  });

  it('joins the labels of a multi-select answer with commas', async () => {
    const { api, userQuestions, client, base } = await startRig();
    api.reply({ toolUse: { id: 'toolu_ft', name: 'AskUserQuestion', input: { questions: [database, features] } } }, { text: 'Planned.' });
    const asked = nextQuestion(client);
    const running = run('Plan the release.', { ...base, canUseTool: askseamCanUseTool(userQuestions, { agent }) });

    const pending = await asked;
    expect(pending.questions.map((question) => question.id)).toEqual(['q1', 'q2']);
    await pending.answer({ answers: [{ id: 'q1', selected: ['Postgres'] }, { id: 'q2', selected: ['Login', 'Export'] }] });

    await running;
    const text = resultText(api.toolResult('toolu_ft'));
    expect(text).toContain(`"${database.question}"="Postgres"`);
    expect(text).toContain(`"${features.question}"="Login, Export"`);
  });

  it('passes the person\'s own words through as the answer', async () => {
    const { api, userQuestions, client, base } = await startRig();
    api.reply({ toolUse: { id: 'toolu_own', name: 'AskUserQuestion', input: { questions: [database] } } }, { text: 'Noted.' });
    const asked = nextQuestion(client);
    const running = run('Set up storage.', { ...base, canUseTool: askseamCanUseTool(userQuestions, { agent }) });

    await (await asked).answer({ answers: [{ id: 'q1', selected: [], custom: 'MariaDB, the ops team runs it' }] });

    await running;
    expect(resultText(api.toolResult('toolu_own'))).toContain(`"${database.question}"="MariaDB, the ops team runs it"`);
  });

  it('tells Claude when the person dismissed the questions, and runs nothing on it', async () => {
    const { api, userQuestions, client, base } = await startRig();
    api.reply({ toolUse: { id: 'toolu_gone', name: 'AskUserQuestion', input: { questions: [database] } } }, { text: 'Stopping.' });
    const asked = nextQuestion(client);
    const running = run('Set up storage.', { ...base, canUseTool: askseamCanUseTool(userQuestions, { agent }) });

    await (await asked).cancel();

    await running;
    const block = api.toolResult('toolu_gone');
    expect(block?.is_error).toBe(true);
    expect(resultText(block)).toContain('The user dismissed these questions without answering.');
  });
});

describe('askseamCanUseTool with any other tool', () => {
  // A command that writes a file: the CLI asks permission for it (a plain `echo` would be allowed as read-only).
  const bash = { command: 'touch approved.txt && echo askseam-approved-run', description: 'Mark the run' };

  it('shows an approval card and runs the tool when the person approves', async () => {
    const { api, userQuestions, client, base } = await startRig();
    api.reply({ toolUse: { id: 'toolu_sh', name: 'Bash', input: bash } }, { text: 'Ran it.' });
    const asked = nextQuestion(client);
    const running = run('Print the marker.', { ...base, canUseTool: askseamCanUseTool(userQuestions, { agent }) });

    const pending = await asked;
    const card = approvalOf(pending.questions);
    expect(card).toMatchObject({ toolName: 'Bash', input: expect.objectContaining(bash), approve: 'Approve', deny: 'Deny' });
    await pending.answer({ answers: [{ id: card!.id, selected: [card!.approve] }] });

    await running;
    const block = api.toolResult('toolu_sh');
    expect(block?.is_error).not.toBe(true);
    expect(resultText(block)).toContain('askseam-approved-run');
    expect(existsSync(join(base.cwd!, 'approved.txt'))).toBe(true);
  });

  it('denies the tool with the person\'s reason, which Claude reads', async () => {
    const { api, userQuestions, client, base } = await startRig();
    api.reply({ toolUse: { id: 'toolu_no', name: 'Bash', input: { command: 'touch denied.txt', description: 'Mark the run' } } }, { text: 'Understood.' });
    const asked = nextQuestion(client);
    const running = run('Print.', { ...base, canUseTool: askseamCanUseTool(userQuestions, { agent }) });

    await (await asked).answer({ answers: [{ id: 'tool-approval', selected: [], custom: 'Not on the release branch.' }] });

    await running;
    const block = api.toolResult('toolu_no');
    expect(block?.is_error).toBe(true);
    expect(resultText(block)).toContain('The user denied running Bash: Not on the release branch.');
    expect(existsSync(join(base.cwd!, 'denied.txt'))).toBe(false);
  });
});

describe('askseamCanUseTool when the query is aborted', () => {
  it('withdraws the pending question through the SDK\'s signal', async () => {
    const { api, userQuestions, host, client, base } = await startRig();
    api.reply({ toolUse: { id: 'toolu_abort', name: 'AskUserQuestion', input: { questions: [database] } } });
    const asked = nextQuestion(client);
    const abortController = new AbortController();
    const running = run('Set up storage.', { ...base, abortController, canUseTool: askseamCanUseTool(userQuestions, { agent }) }).catch((error: unknown) => error);

    const pending = await asked;
    const resolved = new Promise((resolve) => client.on('resolved', (event) => event.rpcId === pending.rpcId && resolve(event)));
    expect(host.pending().map((entry) => entry.rpcId)).toEqual([pending.rpcId]);
    abortController.abort();

    expect(await resolved).toMatchObject({ rpcId: pending.rpcId, outcome: 'cancelled' });
    expect(host.pending()).toEqual([]);
    await running;
    // The model was never asked again: the aborted run read no answer.
    expect(api.requests).toHaveLength(1);
  });
});
