// The e-mail channel end to end on real mail: nodemailer → smtp-server on 127.0.0.1 → mailparser,
// replies quoted the way Gmail and Outlook quote, answered through the host's own checks.
import type { HostEvent } from '@askseam/host-ws';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { EmailChannelError, emailChannel } from '../src/index.js';
import { REPLY_TO, type ReplyOptions, cleanup, gmailQuote, outlookHtml, replyTo, sendReply, startChannel, startHost, startMailbox } from './mail-fixture.js';

afterEach(cleanup);

const framework: AskUserQuestionItem = { id: 'framework', header: 'Framework', question: 'Which framework?', options: [{ label: 'React (Recommended)' }, { label: 'Vue' }] };
const approval: AskUserQuestionItem = {
  id: 'tool-approval',
  question: 'Run deploy?',
  options: [{ label: 'Approve' }, { label: 'Deny' }],
  intent: { kind: 'tool-approval', approve: 'Approve', tool: { name: 'deploy', input: { service: 'api', regions: ['eu-west'] } } },
};

async function setUp(extra: Parameters<typeof startChannel>[2] = {}, hostOptions: Parameters<typeof startHost>[0] = {}) {
  const events: HostEvent[] = [];
  const mailbox = await startMailbox();
  const { host, userQuestions, agent } = await startHost({ onEvent: (event) => events.push(event), ...hostOptions });
  const { channel, inboundPort } = await startChannel(host, mailbox, extra);
  return { events, mailbox, host, userQuestions, agent, channel, inboundPort };
}

describe('emailChannel', () => {
  it('mails the question with a signed Reply-To; a Gmail-style reply answers it, and the audit log says who', async () => {
    const { mailbox, userQuestions, agent, inboundPort, events, host } = await setUp({}, { linkBaseUrl: 'https://app.example.com/questions' });
    const asking = userQuestions.ask({ questions: [framework], agent });
    const mail = await mailbox.next();
    expect(mail.subject).toBe('Framework: Which framework?');
    expect(mail.to).toMatchObject({ value: [{ address: 'alex@example.com' }] });
    expect(mail.replyTo?.value[0]?.address).toMatch(/^reply\+[0-9a-f-]{36}\.[a-z2-7]{16}@reply\.example\.com$/);
    expect(mail.messageId).toMatch(/^<askseam\.q\.[0-9a-f-]{36}\.[a-z2-7]{16}@reply\.example\.com>$/);
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.text).toContain('1. React (Recommended)');
    expect(mail.text).toContain('https://app.example.com/questions?link=');
    expect(mail.html).toContain('<strong>1. React (Recommended)</strong>');

    expect(await sendReply(inboundPort, replyTo(mail, { text: gmailQuote('2', mail) }))).toEqual({ ok: true });
    expect(await asking).toEqual({ answers: [{ id: 'framework', selected: ['Vue'] }] });
    const answered = events.find((event) => event.type === 'answered');
    expect(answered).toMatchObject({ channel: 'email', answeredBy: { via: 'email', user: 'alex@example.com', destination: 'email:alex@example.com' } });
    // The audit log keeps it too.
    const log = await host.store.readEvents('agent-a');
    expect(log.find((event) => event.type === 'response_from_human')).toMatchObject({ data: { channel: 'email', user: 'alex@example.com', destination: 'email:alex@example.com' } });
  });

  it('answers a misfit with a correction threaded under the reply; replying to the correction answers', async () => {
    const { mailbox, userQuestions, agent, inboundPort, host } = await setUp();
    const asking = userQuestions.ask({ questions: [framework], agent });
    const mail = await mailbox.next();
    const reply = replyTo(mail, { text: gmailQuote('7', mail) });
    expect(await sendReply(inboundPort, reply)).toEqual({ ok: true });
    const correction = await mailbox.next();
    expect(correction.subject).toBe('Re: Framework: Which framework?');
    expect(correction.inReplyTo).toBeDefined();
    expect(correction.references).toContain(mail.messageId);
    expect(correction.text).toContain('This question has no option 7; pick a number from 1 to 2.');
    expect(correction.replyTo?.value[0]?.address).toBe(mail.replyTo?.value[0]?.address);
    expect(host.pending()).toHaveLength(1);

    expect(await sendReply(inboundPort, replyTo(correction, { text: gmailQuote('React', correction) }))).toEqual({ ok: true });
    expect(await asking).toEqual({ answers: [{ id: 'framework', selected: ['React (Recommended)'] }] });
  });

  it('reads an Outlook HTML-only approval reply: "deny: not on a Friday" denies with that reason', async () => {
    const { mailbox, userQuestions, agent, inboundPort } = await setUp();
    const asking = userQuestions.ask({ questions: [approval], agent });
    const mail = await mailbox.next();
    expect(mail.subject).toBe('Approval needed: deploy');
    expect(mail.text).toContain('"service": "api"');
    expect(await sendReply(inboundPort, replyTo(mail, { html: outlookHtml('deny: not on a Friday', mail) }))).toEqual({ ok: true });
    expect(await asking).toEqual({ answers: [{ id: 'tool-approval', selected: [], custom: 'not on a Friday' }] });
  });

  it('refuses a stranger and a tampered address with 550 and mails nothing back; the question stays pending', async () => {
    const { mailbox, userQuestions, agent, inboundPort, host } = await setUp();
    void userQuestions.ask({ questions: [framework], agent }).catch(() => undefined);
    const mail = await mailbox.next();
    const stranger = await sendReply(inboundPort, replyTo(mail, { from: 'Mallory <mallory@example.com>', text: '1' }));
    expect(stranger).toMatchObject({ ok: false, responseCode: 550 });
    const signed = mail.replyTo!.value[0]!.address!;
    const tampered = signed.replace(/\.([a-z2-7])/, (_, c: string) => `.${c === 'a' ? 'b' : 'a'}`);
    expect(await sendReply(inboundPort, replyTo(mail, { to: tampered, text: '1', unthreaded: true }))).toMatchObject({ ok: false, responseCode: 550 });
    expect(await sendReply(inboundPort, replyTo(mail, { to: REPLY_TO, text: '1', unthreaded: true }))).toMatchObject({ ok: false, responseCode: 550 });
    expect(host.pending()).toHaveLength(1);
    expect(mailbox.received).toHaveLength(1);
  });

  it('finds the question by In-Reply-To when the reply goes to the bare reply address', async () => {
    const { mailbox, userQuestions, agent, inboundPort } = await setUp();
    const asking = userQuestions.ask({ questions: [framework], agent });
    const mail = await mailbox.next();
    expect(await sendReply(inboundPort, replyTo(mail, { to: REPLY_TO, text: 'Vue' }))).toEqual({ ok: true });
    expect(await asking).toEqual({ answers: [{ id: 'framework', selected: ['Vue'] }] });
  });

  it('never answers an auto-reply and never replies to one', async () => {
    const { mailbox, userQuestions, agent, inboundPort, host } = await setUp();
    void userQuestions.ask({ questions: [framework], agent }).catch(() => undefined);
    const mail = await mailbox.next();
    const autos: ReplyOptions[] = [
      { headers: { 'Auto-Submitted': 'auto-replied' }, text: '1' },
      { headers: { 'X-Autoreply': 'yes' }, text: '1' },
      { headers: { Precedence: 'bulk' }, text: '1' },
      { subject: 'Out of Office: Framework: Which framework?', text: '1' },
      { subject: '自动回复: Framework', text: '1' },
    ];
    for (const auto of autos) {
      expect(await sendReply(inboundPort, replyTo(mail, auto))).toEqual({ ok: true });
    }
    expect(host.pending()).toHaveLength(1);
    expect(mailbox.received).toHaveLength(1);
  });

  it('tells a late reply "already answered", and mails the optional note when it was answered elsewhere', async () => {
    const { mailbox, userQuestions, agent, inboundPort, host } = await setUp({ settledNote: true });
    const asking = userQuestions.ask({ questions: [framework], agent });
    const mail = await mailbox.next();
    // Someone answers in another channel first (the port every channel uses).
    const chat = host.openChannel({ via: 'chat', onQuestion: () => undefined, onSettled: () => undefined });
    const rpcId = host.pending()[0]!.rpcId;
    expect(await chat.respond(rpcId, { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'framework', selected: ['Vue'] }] } } }, { user: 'U0123' })).toMatchObject({ accepted: true });
    await asking;
    const note = await mailbox.next();
    expect(note.text).toContain('answered by U0123 in chat');
    expect(note.inReplyTo).toBe(mail.messageId);

    expect(await sendReply(inboundPort, replyTo(mail, { text: gmailQuote('1', mail) }))).toEqual({ ok: true });
    const late = await mailbox.next();
    expect(late.text).toContain('no longer open');
    expect(late.headers.get('auto-submitted')).toBe('auto-replied');
    chat.close();
  });

  it('stops after maxNotices notices in one thread, so two robots cannot mail each other forever', async () => {
    const { mailbox, userQuestions, agent, inboundPort } = await setUp({ maxNotices: 2 });
    void userQuestions.ask({ questions: [framework], agent }).catch(() => undefined);
    let last = await mailbox.next();
    for (let round = 0; round < 2; round++) {
      expect(await sendReply(inboundPort, replyTo(last, { text: '7' }))).toEqual({ ok: true });
      last = await mailbox.next();
    }
    expect(await sendReply(inboundPort, replyTo(last, { text: '7' }))).toEqual({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailbox.received).toHaveLength(3);
  });

  it('refuses a reply the authenticated hook does not vouch for (550), and answers one it does', async () => {
    const seen: string[] = [];
    const { mailbox, userQuestions, agent, inboundPort, host } = await setUp({
      authenticated: (envelope, mail) => {
        seen.push(String(envelope.mailFrom));
        return /dkim=pass/.test(String(mail.headers.get('authentication-results') ?? ''));
      },
    });
    const asking = userQuestions.ask({ questions: [framework], agent });
    const mail = await mailbox.next();
    expect(await sendReply(inboundPort, replyTo(mail, { text: 'Vue' }))).toMatchObject({ ok: false, responseCode: 550 });
    expect(host.pending()).toHaveLength(1);
    expect(await sendReply(inboundPort, replyTo(mail, { text: 'Vue', headers: { 'Authentication-Results': 'mx.reply.example.com; dkim=pass header.d=example.com' } }))).toEqual({ ok: true });
    expect(await asking).toEqual({ answers: [{ id: 'framework', selected: ['Vue'] }] });
    expect(seen).toEqual(['alex@example.com', 'alex@example.com']);
    expect(mailbox.received).toHaveLength(1);
  });

  it('mails no note by default when a question is answered elsewhere', async () => {
    const { mailbox, userQuestions, agent, host } = await setUp();
    const asking = userQuestions.ask({ questions: [framework], agent });
    await mailbox.next();
    const chat = host.openChannel({ via: 'chat', onQuestion: () => undefined, onSettled: () => undefined });
    await chat.respond(host.pending()[0]!.rpcId, { ok: true, value: { sessionId: 'agent-a', answer: { answers: [{ id: 'framework', selected: ['Vue'] }] } } });
    await asking;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailbox.received).toHaveLength(1);
    chat.close();
  });

  it('refuses a short secret with a typed error', async () => {
    const { host } = await startHost();
    const create = () => emailChannel({ host, transport: { sendMail: async () => undefined }, from: 'a@example.com', replyTo: REPLY_TO, secret: 'too short', to: () => undefined });
    expect(create).toThrow(expect.objectContaining({ code: 'WEAK_SECRET' }));
    try {
      create();
    } catch (error) {
      expect(EmailChannelError.isInstance(error)).toBe(true);
    }
  });
});
