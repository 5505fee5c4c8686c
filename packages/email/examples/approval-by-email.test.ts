// Runs the example app against real mail: a mailbox smtp-server for on-call, nodemailer as their
// mail client, and a restart of the app between the question and the reply.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { cleanup, gmailQuote, replyTo, sendReply, startMailbox } from '../test/mail-fixture.js';
import { simpleParser } from 'mailparser';
import { dkimPassed, startApprovalByEmail, type ApprovalByEmailConfig } from './approval-by-email.js';

const dirs: string[] = [];
afterEach(async () => {
  await cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('mails the deploy approval, survives a restart, and resumes with the on-call person\'s denial and reason', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'askseam-email-example-'));
  dirs.push(dir);
  const mailbox = await startMailbox();
  const decisions: Parameters<ApprovalByEmailConfig['onDecision']>[0][] = [];
  let decided: () => void = () => undefined;
  const config: ApprovalByEmailConfig = {
    database: join(dir, 'questions.db'),
    smtp: { host: '127.0.0.1', port: mailbox.port, secure: false },
    inboundPort: 0,
    secret: randomBytes(32).toString('base64url'),
    onCall: 'oncall@example.com',
    onDecision: (decision) => {
      decisions.push(decision);
      decided();
    },
  };

  const before = await startApprovalByEmail(config);
  const { rpcId } = await before.requestDeploy('api', '1.4.0');
  const mail = await mailbox.next();
  expect(mail.subject).toBe('Approval needed: deploy');
  expect(mail.text).toContain('"version": "1.4.0"');
  await before.close();

  const after = await startApprovalByEmail(config);
  const arrived = new Promise<void>((resolve) => (decided = resolve));
  expect(await sendReply(after.inboundPort, replyTo(mail, { from: 'On call <oncall@example.com>', text: gmailQuote('deny: not on a Friday', mail) }))).toEqual({ ok: true });
  await arrived;
  expect(decisions).toEqual([{ rpcId, approved: false, reason: 'not on a Friday', by: 'oncall@example.com' }]);
  await after.close();
});

it('dkimPassed accepts a DKIM pass for the From domain only', async () => {
  const mail = (results: string) => simpleParser(`Authentication-Results: mx.reply.example.com; ${results}\r\nFrom: oncall@example.com\r\nSubject: Re: x\r\n\r\napprove`);
  expect(dkimPassed({}, await mail('spf=pass smtp.mailfrom=example.com; dkim=pass header.d=example.com'))).toBe(true);
  expect(dkimPassed({}, await mail('dkim=fail header.d=example.com'))).toBe(false);
  expect(dkimPassed({}, await mail('dkim=pass header.d=attacker.example'))).toBe(false);
});
