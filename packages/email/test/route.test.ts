// The e-mail channel following the host's route: tier 0 names one address, a later tier another;
// each is mailed once, with a Reply-To signed for the address it went to. Real SMTP both ways.
import type { HostEvent } from '@askseam/host-ws';
import type { AskUserQuestionItem } from '@askseam/user-questions';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, gmailQuote, replyTo, sendReply, startChannel, startHost, startMailbox } from './mail-fixture.js';

afterEach(cleanup);

const framework: AskUserQuestionItem = { id: 'framework', header: 'Framework', question: 'Which framework?', options: [{ label: 'React' }, { label: 'Vue' }] };
const addressOf = (mail: { to?: unknown }) => (mail.to as { value: { address: string }[] }).value[0]!.address;

describe('emailChannel with a host route', () => {
  it('mails tier 0\'s address, then the escalated one (never twice), and a reply from either answers as that address', async () => {
    const events: HostEvent[] = [];
    const mailbox = await startMailbox();
    const { host, userQuestions, agent } = await startHost({
      onEvent: (event) => events.push(event),
      route: () => [{ answerers: [{ channel: 'email:alex@example.com' }] }, { answerers: [{ channel: 'email:Lead@Example.com' }, { channel: 'slack:C0123' }], after: 200 }],
    });
    const errors: unknown[] = [];
    // `to` is the app's own choice for unrouted questions: a routed one goes where the route says.
    const { inboundPort } = await startChannel(host, mailbox, { to: () => 'nobody@example.com', settledNote: true, onError: (error) => errors.push(error) });
    const asking = userQuestions.ask({ questions: [framework], agent });

    const first = await mailbox.next();
    expect(addressOf(first)).toBe('alex@example.com');
    const second = await mailbox.next();
    expect(addressOf(second)).toBe('lead@example.com');
    expect(second.replyTo?.value[0]?.address).not.toBe(first.replyTo?.value[0]?.address);
    expect(mailbox.received.filter((mail) => mail.subject === 'Framework: Which framework?')).toHaveLength(2);

    // The reply address binds the address it was mailed to: the lead replying to alex's answers nothing.
    expect(await sendReply(inboundPort, replyTo(first, { from: 'Lead <lead@example.com>', text: '1', unthreaded: true }))).toMatchObject({ ok: false, responseCode: 550 });
    expect(await sendReply(inboundPort, replyTo(second, { from: 'Lead <lead@example.com>', text: gmailQuote('2', second) }))).toEqual({ ok: true });
    expect(await asking).toEqual({ answers: [{ id: 'framework', selected: ['Vue'] }] });
    const answered = events.find((event) => event.type === 'answered');
    // The destination is recorded as the route spells it, so the route's `{ channel }` answerer matched.
    expect(answered).toMatchObject({ answeredBy: { via: 'email', user: 'lead@example.com', destination: 'email:Lead@Example.com' } });

    // Alex, who was asked too, is told it was answered; the lead is not (they answered).
    const note = await mailbox.next();
    expect(addressOf(note)).toBe('alex@example.com');
    expect(note.inReplyTo).toBe(first.messageId);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mailbox.received.some((mail) => addressOf(mail) === 'nobody@example.com')).toBe(false);
    expect(mailbox.received).toHaveLength(3);
    expect(errors).toEqual([]);
  });

  it('mails nothing for a routed question whose reached tiers name no e-mail destination', async () => {
    const mailbox = await startMailbox();
    const { host, userQuestions, agent } = await startHost({ route: () => [{ answerers: [{ principal: 'alice' }] }] });
    await startChannel(host, mailbox);
    const asking = userQuestions.ask({ questions: [framework], agent });
    asking.catch(() => undefined); // withdrawn when the host closes
    while (host.pending().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailbox.received).toHaveLength(0);
  });
});
