import { detectLang } from '@askseam/text';
import { normalAddress, ReplySigner, splitAddress } from './address.js';
import { EmailChannelError } from './errors.js';
import { receiveMail, type InboundResult } from './inbound.js';
import { mailMessages } from './messages.js';
import { resolveOptions, type EmailChannelOptions, type InboundEnvelope } from './options.js';
import { Outbox } from './outbox.js';
import type { ChannelQuestion, ChannelSettlement, HostChannel } from './port.js';
import { noticeMail, questionMail } from './render.js';

export interface EmailChannel {
  /**
   * One inbound message (raw RFC 5322 bytes and its SMTP envelope) judged and, when it is the
   * asked person's fitting reply, answered through the host. Never throws for what a sender
   * wrote; throws `INVALID_MESSAGE` for no bytes or too many, `CHANNEL_CLOSED` after close().
   */
  receive(raw: string | Uint8Array, envelope?: InboundEnvelope): Promise<InboundResult>;
  /** Stop mailing and receiving; waits for mails already being sent. Idempotent. */
  close(): Promise<void>;
}

type ChannelState = 'open' | 'closed';

interface Mailed {
  question: ChannelQuestion;
  /** Every address it was mailed to (normalised), in the order they were asked. */
  to: Set<string>;
}

/** The prefix of a host route's e-mail destinations: `{ channel: 'email:oncall@example.com' }`. */
const destinationPrefix = 'email:';

/**
 * Ask by e-mail: each question the host has (that `to` names an address for) is mailed with a
 * signed Reply-To; a reply comes back through `receive` and is answered through the host's own
 * checks, so first answer wins across every surface. The signing secret is the only state.
 */
export function emailChannel(input: EmailChannelOptions): EmailChannel {
  const options = resolveOptions(input);
  const signer = new ReplySigner(options.secret, options.replyTo);
  const outbox = new Outbox(options.transport, options.from, signer);
  const ownAddress = normalAddress(typeof options.from === 'string' ? (/<([^>]+)>/.exec(options.from)?.[1] ?? options.from) : options.from.address);
  if (splitAddress(ownAddress) === undefined) throw new EmailChannelError('INVALID_OPTIONS', `emailChannel: from must name one address, like "Agent <agent@example.com>"; got "${String(input.from)}".`);
  let state: ChannelState = 'open';
  const inFlight = new Set<Promise<unknown>>();
  /** The questions this channel asks about, by rpcId, and the address each went to (for settled notes). */
  const mailed = new Map<string, Mailed>();
  /** Questions already pending when the channel opened: the last process mailed them. */
  let opening = true;
  const alreadyPending = new Set<string>();

  const track = (work: Promise<unknown>): void => {
    const guarded = work.catch((error: unknown) => options.onError(error));
    inFlight.add(guarded);
    void guarded.finally(() => inFlight.delete(guarded));
  };

  const link = (rpcId: string): string | undefined => {
    try {
      return options.host.linkFor(rpcId);
    } catch {
      // A host without linkBaseUrl has no page to link to; the mail offers replying only.
      return undefined;
    }
  };

  /**
   * Where to ask: the addresses of the host route's reached `email:` destinations when the host
   * routed the question (`question.destinations`), else the one `to(question)` names.
   */
  const addressesOf = async (question: ChannelQuestion): Promise<string[]> => {
    if (question.destinations === undefined) {
      const to = await options.to(question);
      if (to === undefined) return [];
      if (splitAddress(to.trim()) === undefined) throw new EmailChannelError('INVALID_OPTIONS', `to() returned "${to}" for question ${question.rpcId}; return one plain address or undefined.`);
      return [normalAddress(to)];
    }
    const addresses: string[] = [];
    for (const destination of question.destinations) {
      if (!destination.startsWith(destinationPrefix)) continue;
      const address = destination.slice(destinationPrefix.length).trim();
      if (splitAddress(address) === undefined) {
        options.onError(new EmailChannelError('INVALID_OPTIONS', `The route names "${destination}" for question ${question.rpcId}, which is no plain address; nothing was mailed there.`));
        continue;
      }
      if (!addresses.includes(normalAddress(address))) addresses.push(normalAddress(address));
    }
    return addresses;
  };

  /** Mail the question to each of its addresses not mailed yet (an escalation adds addresses). */
  const ask = async (question: ChannelQuestion, mailNow: boolean): Promise<void> => {
    const addresses = await addressesOf(question);
    if (addresses.length === 0 || state !== 'open') return;
    if (!signer.canSign(question.rpcId)) throw new EmailChannelError('INVALID_OPTIONS', `Question ${question.rpcId} has an id a reply address cannot carry (lower-case letters, digits and "-", at most 48); it was not mailed.`);
    const entry = mailed.get(question.rpcId) ?? { question, to: new Set<string>() };
    mailed.set(question.rpcId, entry);
    // Claimed before sending (no await in between), so an escalation arriving meanwhile mails no address twice.
    const fresh = addresses.filter((address) => !entry.to.has(address));
    for (const address of fresh) entry.to.add(address);
    if (!mailNow) return;
    const content = questionMail(question, { link: link(question.rpcId), lang: options.lang });
    // Each mail has its own Reply-To, signed for the address it went to.
    await Promise.all(fresh.map((address) => outbox.send('question', question.rpcId, address, content)));
  };

  const settled = async (settlement: ChannelSettlement): Promise<void> => {
    const entry = mailed.get(settlement.rpcId);
    mailed.delete(settlement.rpcId);
    if (entry === undefined || !options.settledNote || state !== 'open') return;
    const by = settlement.answeredBy;
    const lang = options.lang ?? detectLang(entry.question.questions);
    const words = mailMessages[lang];
    const who = by === undefined ? '' : ` (${words.settledBy(by.user ?? by.principalId, viaName(by.via))})`;
    const subject = questionMail(entry.question, { lang }).subject;
    for (const to of entry.to) {
      // The person answered by this very mail thread: they know.
      if (by?.via === 'email' && by.user !== undefined && normalAddress(by.user) === to) continue;
      const messageId = signer.messageId(settlement.rpcId, to);
      await outbox.send('settled-note', settlement.rpcId, to, noticeMail(subject, [`${words.settled[settlement.outcome]}${who}.`, words.noReplyNeeded]), { inReplyTo: messageId, references: [messageId] });
    }
  };

  const channel: HostChannel = options.host.openChannel({
    via: 'email',
    onQuestion: (question) => {
      if (state !== 'open') return;
      const mailNow = options.mailPendingOnOpen || !(opening || alreadyPending.delete(question.rpcId));
      track(ask(question, mailNow));
    },
    // A later tier of the host's route named more e-mail destinations: mail the new addresses only.
    onEscalated: (question) => {
      if (state !== 'open') return;
      track(ask(question, true));
    },
    onSettled: (settlement) => {
      if (state !== 'open') return;
      alreadyPending.delete(settlement.rpcId);
      track(settled(settlement));
    },
  });
  // Whatever is pending now was pending before this channel: listed here in case the port hands it over after openChannel returns.
  for (const question of channel.pending()) if (!mailed.has(question.rpcId)) alreadyPending.add(question.rpcId);
  opening = false;

  return {
    async receive(raw, envelope) {
      if (state !== 'open') throw new EmailChannelError('CHANNEL_CLOSED', 'The e-mail channel is closed; open a new one to receive mail.');
      return receiveMail({ options, signer, outbox, channel: () => channel, ownAddress }, raw, envelope);
    },
    async close() {
      if (state === 'closed') return;
      state = 'closed';
      channel.close();
      await Promise.all(inFlight);
    },
  };
}

/** How a settled note names where the question was answered. */
function viaName(via: string): string {
  return via === 'websocket' || via === 'http' || via === 'sse' ? 'the web page' : via;
}
