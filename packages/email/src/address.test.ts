import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ReplySigner } from './address.js';
import { EmailChannelError } from './errors.js';

const secret = randomBytes(32);
const rpcId = randomUUID();

describe('ReplySigner', () => {
  it('refuses a secret under 32 bytes and a replyTo it cannot extend, with typed errors', () => {
    const weak = (() => {
      try {
        new ReplySigner('short secret', 'reply@reply.example.com');
      } catch (error) {
        return error;
      }
    })();
    expect(EmailChannelError.isInstance(weak) && weak.code).toBe('WEAK_SECRET');
    expect(() => new ReplySigner(secret, 'reply+x@reply.example.com')).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => new ReplySigner(secret, 'not an address')).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('signs reply+<rpcId>.<mac>@domain within the 64-character local part; only the asked address verifies', () => {
    const signer = new ReplySigner(secret, 'reply@reply.example.com');
    const address = signer.address(rpcId, 'Alex@Example.com');
    expect(address).toMatch(new RegExp(`^reply\\+${rpcId}\\.[a-z2-7]{16}@reply\\.example\\.com$`));
    expect(address.split('@')[0]!.length).toBeLessThanOrEqual(64);
    const signed = signer.addressed(address.toUpperCase())!;
    expect(signed.rpcId).toBe(rpcId);
    // A mail system that folds case on the way changes nothing; the sender's case does not matter either.
    expect(signer.verify(signed.rpcId, signed.mac, 'alex@example.com')).toBe(true);
    expect(signer.verify(signed.rpcId, signed.mac, 'mallory@example.com')).toBe(false);
  });

  it('verifies nothing for a tampered address: another rpcId, another MAC, another domain', () => {
    const signer = new ReplySigner(secret, 'reply@reply.example.com');
    const address = signer.address(rpcId, 'alex@example.com');
    const otherId = address.replace(rpcId, randomUUID());
    const signedOther = signer.addressed(otherId)!;
    expect(signer.verify(signedOther.rpcId, signedOther.mac, 'alex@example.com')).toBe(false);
    const flipped = address.replace(/\.([a-z2-7])/, (_, c: string) => `.${c === 'a' ? 'b' : 'a'}`);
    const signedFlipped = signer.addressed(flipped)!;
    expect(signer.verify(signedFlipped.rpcId, signedFlipped.mac, 'alex@example.com')).toBe(false);
    expect(signer.addressed(address.replace('reply.example.com', 'evil.example.com'))).toBeUndefined();
    expect(new ReplySigner(randomBytes(32), 'reply@reply.example.com').verify(rpcId, signer.addressed(address)!.mac, 'alex@example.com')).toBe(false);
  });

  it('finds the question by its Message-ID (In-Reply-To / References) with the same signature', () => {
    const signer = new ReplySigner(secret, 'reply@reply.example.com');
    const referenced = signer.referenced(signer.messageId(rpcId, 'alex@example.com'))!;
    expect(referenced.rpcId).toBe(rpcId);
    expect(signer.verify(referenced.rpcId, referenced.mac, 'alex@example.com')).toBe(true);
    expect(signer.referenced('<CAF=abc@mail.gmail.com>')).toBeUndefined();
  });

  it('rotates: a list signs with its first secret and verifies with all of them', () => {
    const old = new ReplySigner(secret, 'reply@reply.example.com');
    const signed = old.addressed(old.address(rpcId, 'alex@example.com'))!;
    const fresh = randomBytes(32);
    expect(new ReplySigner([fresh, secret], 'reply@reply.example.com').verify(signed.rpcId, signed.mac, 'alex@example.com')).toBe(true);
    expect(new ReplySigner([fresh], 'reply@reply.example.com').verify(signed.rpcId, signed.mac, 'alex@example.com')).toBe(false);
    expect(new ReplySigner([fresh, secret], 'reply@reply.example.com').address(rpcId, 'alex@example.com')).toBe(new ReplySigner(fresh, 'reply@reply.example.com').address(rpcId, 'alex@example.com'));
  });
});
