import { createHmac, timingSafeEqual } from 'node:crypto';
import { EmailChannelError } from './errors.js';

/** The shortest secret accepted: an HMAC-SHA256 key shorter than its output is easier to guess than the MAC. */
export const MIN_SECRET_BYTES = 32;

// 10 bytes (80 bits) of MAC: an attacker must guess it online, one mail per guess, and the
// address stays within the 64 characters RFC 5321 allows a local part ("reply+<uuid>.<mac>").
const MAC_BYTES = 10;
const base32 = 'abcdefghijklmnopqrstuvwxyz234567';
// Lower case only: many mail systems fold the local part's case on the way, so the MAC must survive it.
const rpcIdPattern = /^[a-z0-9][a-z0-9-]{0,47}$/;
const signedLocal = /^(.+)\+([a-z0-9][a-z0-9-]{0,47})\.([a-z2-7]{16})$/;
const signedMessageId = /^<?askseam\.q\.([a-z0-9][a-z0-9-]{0,47})\.([a-z2-7]{16})@([^>]+)>?$/i;

/** `user@domain` split at its last `@`, lower-cased; `undefined` when it is not one address. */
export function splitAddress(address: string): { local: string; domain: string } | undefined {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1 || /[\s<>,;]/.test(address)) return undefined;
  return { local: address.slice(0, at).toLowerCase(), domain: address.slice(at + 1).toLowerCase() };
}

/** The address as the channel compares it: trimmed and lower-cased (what people and MTAs treat as the same mailbox). */
export function normalAddress(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * Signs and checks reply addresses and question Message-IDs. Each MAC covers the question's rpcId
 * *and* the address the question was mailed to, so the secret is the only state: a reply is
 * matched to its question by the address it was sent to, and only a reply From the address the
 * question went to verifies (a stranger's or a tampered address verifies nothing).
 */
export class ReplySigner {
  /** The first key signs; every key verifies, so a rotated-out secret still matches the mails it signed. */
  readonly #keys: Buffer[];
  readonly #local: string;
  readonly #domain: string;

  constructor(secret: string | Uint8Array | readonly (string | Uint8Array)[], replyTo: string) {
    const secrets = Array.isArray(secret) ? (secret as readonly (string | Uint8Array)[]) : [secret as string | Uint8Array];
    if (secrets.length === 0) throw new EmailChannelError('WEAK_SECRET', 'The e-mail channel needs a secret: at least 32 random bytes, kept stable across restarts.');
    this.#keys = secrets.map((one, index) => {
      const key = typeof one === 'string' ? Buffer.from(one, 'utf8') : Buffer.from(one);
      if (key.length < MIN_SECRET_BYTES) {
        throw new EmailChannelError('WEAK_SECRET', `The e-mail channel's secret${secrets.length > 1 ? ` #${index + 1}` : ''} has ${key.length} bytes; give it at least ${MIN_SECRET_BYTES} random bytes (e.g. crypto.randomBytes(32).toString('base64url')), kept stable across restarts.`);
      }
      return key;
    });
    const parts = splitAddress(replyTo);
    if (parts === undefined || parts.local.includes('+')) {
      throw new EmailChannelError('INVALID_OPTIONS', `replyTo must be one plain address without "+" (like "reply@reply.example.com"); got "${replyTo}". The channel adds "+<question>.<signature>" to it.`);
    }
    this.#local = parts.local;
    this.#domain = parts.domain;
  }

  /** The domain replies come to (the `replyTo` domain). */
  get domain(): string {
    return this.#domain;
  }

  /** Whether the channel can sign an address for this rpcId (the host's are lower-case UUIDs). */
  canSign(rpcId: string): boolean {
    return rpcIdPattern.test(rpcId);
  }

  /** `reply+<rpcId>.<mac>@domain`: where the person mailed at `to` replies to question `rpcId`. */
  address(rpcId: string, to: string): string {
    return `${this.#local}+${rpcId}.${this.#mac(rpcId, to)}@${this.#domain}`;
  }

  /** The question mail's Message-ID, signed the same way: a reply's In-Reply-To/References find the question by it. */
  messageId(rpcId: string, to: string): string {
    return `<askseam.q.${rpcId}.${this.#mac(rpcId, to)}@${this.#domain}>`;
  }

  /** The rpcId an address names if it is one of ours, before checking who sent it; `undefined` otherwise. */
  addressed(address: string): { rpcId: string; mac: string } | undefined {
    const parts = splitAddress(address);
    if (parts === undefined || parts.domain !== this.#domain) return undefined;
    const match = signedLocal.exec(parts.local);
    if (match === null || match[1] !== this.#local) return undefined;
    return { rpcId: match[2]!, mac: match[3]! };
  }

  /** The rpcId a Message-ID (from In-Reply-To or References) names if it is one of our questions'. */
  referenced(messageId: string): { rpcId: string; mac: string } | undefined {
    const match = signedMessageId.exec(messageId.trim());
    if (match === null || match[3]!.toLowerCase() !== this.#domain) return undefined;
    return { rpcId: match[1]!.toLowerCase(), mac: match[2]!.toLowerCase() };
  }

  /** Whether `mac` is this channel's signature of question `rpcId` mailed to `from`; constant time. */
  verify(rpcId: string, mac: string, from: string): boolean {
    const presented = Buffer.from(mac.toLowerCase(), 'utf8');
    let matched = false;
    // Every key is tried (no early exit), so the time taken does not tell which one matched.
    for (const key of this.#keys) {
      const expected = Buffer.from(this.#mac(rpcId, from, key), 'utf8');
      if (presented.length === expected.length && timingSafeEqual(presented, expected)) matched = true;
    }
    return matched;
  }

  #mac(rpcId: string, to: string, key: Buffer = this.#keys[0]!): string {
    const digest = createHmac('sha256', key).update(`askseam-email-reply\n${rpcId}\n${normalAddress(to)}`).digest();
    let bits = 0;
    let value = 0;
    let out = '';
    for (const byte of digest.subarray(0, MAC_BYTES)) {
      value = (value << 8) | byte;
      bits += 8;
      while (bits >= 5) {
        out += base32[(value >>> (bits - 5)) & 31];
        bits -= 5;
      }
    }
    return out;
  }
}
