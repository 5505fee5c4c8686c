// Section 9: the e-mail channel. A reply received → the ask resolved: the raw reply (quoted the
// way Gmail quotes) handed to the channel as its SMTP listener hands it over, parsed with
// mailparser, its quote stripped, read by parseTextReply and answered through the host's judging,
// until the agent's ask() resolves. Also the same reply sent over SMTP (nodemailer → the channel's
// smtp-server listener on 127.0.0.1), which adds a whole SMTP session. Baseline, in the same run
// and alternating with it: the page's own round trip, a WebSocket client's respond frame sent →
// the same ask resolved.
import { createWebSocketHost } from '@askseam/host-ws';
import { emailChannel, listenSmtp } from '@askseam/email';
import { replyText } from '@askseam/text';
import { UserQuestions } from '@askseam/user-questions';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import nodemailer from 'nodemailer';
import WebSocket from 'ws';
import { agentRegistry } from '../lib/askseam.mjs';
import { figure } from '../lib/figure.mjs';
import { seamAnswer, seamQuestions } from '../lib/fixtures.mjs';
import { median, now } from '../lib/stats.mjs';

const SECTION = 'email';

export async function run(config) {
  const { warmup, rounds, perRound } = config.email;
  const { agents, registry } = agentRegistry(['agent-0001']);
  const agent = agents.get('agent-0001');
  const userQuestions = new UserQuestions({ agents: registry });
  const host = await createWebSocketHost({ userQuestions, token: 'bench-token', port: 0 });
  const questions = seamQuestions();
  const answer = seamAnswer();
  const replyBody = replyText(questions, answer);

  // Outgoing mail is composed by nodemailer for real but kept in memory: only the reply is timed.
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  let mailed = [];
  const transport = { sendMail: async (mail) => { await composer.sendMail(mail); mailed.push(mail); } };
  const channel = emailChannel({ host, transport, from: 'Agent <agent@agent.example.com>', replyTo: 'reply@reply.example.com', secret: randomBytes(32), to: () => 'alex@example.com' });
  const listener = await listenSmtp(channel, { port: 0 });
  const smtpClient = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true, pool: true, maxConnections: 1 });

  const socket = new WebSocket(`${host.url}?token=bench-token`);
  await once(socket, 'open');
  let onRequested = () => undefined;
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if (frame.type === 'question/requested') onRequested(frame);
  });

  const nextMail = async () => {
    while (mailed.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const mail = mailed[0];
    mailed = [];
    return mail;
  };
  const reply = (mail) => ({
    from: 'Alex <alex@example.com>',
    to: mail.replyTo,
    subject: `Re: ${mail.subject}`,
    text: `${replyBody}\n\nOn Tue, Dec 1, 2026 at 10:00 AM Agent <agent@agent.example.com> wrote:\n\n${mail.text.split('\n').map((line) => `> ${line}`).join('\n')}\n`,
    inReplyTo: mail.messageId,
    references: [mail.messageId],
  });

  /** One email reply through receive(): ms from the raw reply in hand to the ask resolved. */
  const viaReceive = async () => {
    const asking = userQuestions.ask({ questions, agent });
    const mail = await nextMail();
    const raw = (await composer.sendMail(reply(mail))).message;
    const started = now();
    await channel.receive(raw, { mailFrom: 'alex@example.com', rcptTo: [mail.replyTo] });
    await asking;
    return now() - started;
  };
  /** The same over SMTP: ms from handing the reply to nodemailer to the ask resolved. */
  const viaSmtp = async () => {
    const asking = userQuestions.ask({ questions, agent });
    const message = reply(await nextMail());
    const started = now();
    const sent = smtpClient.sendMail(message);
    await asking;
    const elapsed = now() - started;
    await sent;
    return elapsed;
  };
  /** The page's round trip: ms from a client's respond frame sent to the ask resolved. */
  const viaSocket = async () => {
    let started = 0;
    const requested = new Promise((resolve) => (onRequested = resolve));
    const asking = userQuestions.ask({ questions, agent });
    const frame = await requested;
    await nextMail();
    started = now();
    socket.send(JSON.stringify({ type: 'question/respond', rpcId: frame.rpcId, result: { ok: true, value: { sessionId: frame.sessionId, answer } } }));
    await asking;
    return now() - started;
  };

  const samples = { receive: [], smtp: [], socket: [] };
  try {
    for (let i = 0; i < warmup; i++) {
      await viaReceive();
      await viaSmtp();
      await viaSocket();
    }
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < perRound; i++) {
        samples.receive.push(await viaReceive());
        samples.smtp.push(await viaSmtp());
        samples.socket.push(await viaSocket());
      }
      console.log(`  round ${round + 1}: receive p50 ${median(samples.receive).toFixed(2)} ms, smtp p50 ${median(samples.smtp).toFixed(2)} ms, page p50 ${median(samples.socket).toFixed(2)} ms`);
    }
  } finally {
    socket.close();
    smtpClient.close();
    await listener.close();
    await channel.close();
    await host.close();
  }
  const baseline = { name: "the page's own round trip: a WebSocket respond frame sent → the same ask resolved", value: median(samples.socket) };
  return [
    figure({
      section: SECTION,
      name: 'e-mail reply received → ask resolved, p50 (mailparser, quote stripping, parseTextReply, the host\'s judging; 3-question batch)',
      value: median(samples.receive),
      unit: 'ms',
      baseline,
      note: 'The reply\'s raw bytes handed to channel.receive as the SMTP listener hands them over. Mail itself takes seconds between servers; this is the share askseam adds.',
    }),
    figure({
      section: SECTION,
      name: 'e-mail reply sent over SMTP to the channel\'s listener (127.0.0.1, pooled connection) → ask resolved, p50',
      value: median(samples.smtp),
      unit: 'ms',
      baseline,
      note: 'Adds the SMTP transaction (MAIL, RCPT, DATA) of one message on an open connection.',
    }),
  ];
}
