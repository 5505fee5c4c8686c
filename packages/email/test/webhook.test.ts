// The webhook inbound-mail services POST raw MIME to: the same judging as the SMTP listener.
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, expect, it } from 'vitest';
import { emailWebhook } from '../src/index.js';
import { cleanup, gmailQuote, outlookHtml, rawReply, replyTo, startChannel, startHost, startMailbox } from './mail-fixture.js';

afterEach(cleanup);

const framework: AskUserQuestionItem = { id: 'framework', question: 'Which framework?', options: [{ label: 'React' }, { label: 'Vue' }] };
const TOKEN = 'inbound-webhook-token-0123456789';

it('answers a raw MIME POST with the right token, and refuses a wrong token or a stranger without mailing back', async () => {
  const mailbox = await startMailbox();
  const { host, userQuestions, agent } = await startHost();
  const { channel } = await startChannel(host, mailbox);
  const handler = emailWebhook(channel, { token: TOKEN });
  const asking = userQuestions.ask({ questions: [framework], agent });
  const mail = await mailbox.next();

  const post = (body: Uint8Array<ArrayBuffer>, token: string, headers: Record<string, string> = {}) =>
    handler(new Request(`https://app.example.com/inbound?token=${token}`, { method: 'POST', body, headers: { 'content-type': 'message/rfc822', ...headers } }));
  const good = new Uint8Array(await rawReply(replyTo(mail, { text: gmailQuote('Vue', mail) })));
  expect((await post(good, 'wrong-token-wrong-token-wrong-to')).status).toBe(401);
  expect(host.pending()).toHaveLength(1);

  const stranger = await post(new Uint8Array(await rawReply(replyTo(mail, { from: 'mallory@example.com', text: '1' }))), TOKEN);
  expect(stranger.status).toBe(200);
  expect(await stranger.json()).toEqual({ status: 'rejected', reason: 'unknown-address' });
  expect((await post(new Uint8Array(), TOKEN)).status).toBe(400);

  const answered = await post(good, TOKEN, { 'x-envelope-from': 'alex@example.com', 'x-envelope-to': mail.replyTo!.value[0]!.address! });
  expect(await answered.json()).toEqual({ status: 'answered' });
  expect(await asking).toEqual({ answers: [{ id: 'framework', selected: ['Vue'] }] });
  expect(mailbox.received).toHaveLength(1);
});

it('reads a SendGrid-style multipart form (email + envelope fields) with an Outlook HTML-only reply', async () => {
  const mailbox = await startMailbox();
  const { host, userQuestions, agent } = await startHost();
  const { channel } = await startChannel(host, mailbox);
  const handler = emailWebhook(channel);
  const asking = userQuestions.ask({ questions: [framework], agent });
  const mail = await mailbox.next();
  const form = new FormData();
  form.set('email', (await rawReply(replyTo(mail, { html: outlookHtml('React', mail) }))).toString('utf8'));
  form.set('envelope', JSON.stringify({ from: 'alex@example.com', to: [mail.replyTo!.value[0]!.address] }));
  const response = await handler(new Request('https://app.example.com/inbound', { method: 'POST', body: form }));
  expect(await response.json()).toEqual({ status: 'answered' });
  expect(await asking).toEqual({ answers: [{ id: 'framework', selected: ['React'] }] });
});
