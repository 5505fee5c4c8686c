// A reply that arrives after a restart on a real SQLite store still answers and reaches onResume:
// the signing secret is the only state the channel keeps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuestionRecord } from '@askseam/store';
import { SqliteQuestionStore } from '@askseam/store-sqlite';
import { afterEach, expect, it } from 'vitest';
import { cleanup, gmailQuote, replyTo, sendReply, startChannel, startHost, startMailbox } from './mail-fixture.js';

const dirs: string[] = [];
afterEach(async () => {
  await cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('answers after a restart: asked detached, host and channel closed, a new host on the same file gets the reply and resumes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-email-'));
  dirs.push(dir);
  const file = join(dir, 'questions.db');
  const mailbox = await startMailbox();

  const firstStore = new SqliteQuestionStore(file);
  const first = await startHost({ store: firstStore, onResume: () => undefined });
  const firstChannel = await startChannel(first.host, mailbox);
  const { rpcId } = await first.host.askDetached({
    sessionId: 'agent-a',
    questions: [{ id: 'region', question: 'Which region?', options: [{ label: 'eu-west' }, { label: 'us-east' }] }],
    state: { run: 'r-7' },
  });
  const mail = await mailbox.next();
  await firstChannel.channel.close();
  await first.host.close();
  await firstStore.close();

  const secondStore = new SqliteQuestionStore(file);
  const resumed: QuestionRecord[] = [];
  let wake: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (wake = resolve));
  const second = await startHost({
    store: secondStore,
    onResume: (record) => {
      resumed.push(record);
      wake();
    },
  });
  const { inboundPort } = await startChannel(second.host, mailbox);
  // The restart mailed nothing again: the question was mailed by the first process.
  expect(mailbox.received).toHaveLength(1);

  expect(await sendReply(inboundPort, replyTo(mail, { text: gmailQuote('us-east', mail) }))).toEqual({ ok: true });
  await arrived;
  expect(resumed[0]).toMatchObject({ rpcId, outcome: 'answered', state: { run: 'r-7' }, answer: { answers: [{ id: 'region', selected: ['us-east'] }] }, answeredBy: { via: 'email', user: 'alex@example.com' } });
  await second.host.close();
  await secondStore.close();
});
