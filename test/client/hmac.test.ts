import * as crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHexHmac } from '../../src/signing.ts';

const reference = (secret: Uint8Array, message: string) =>
  crypto.createHmac('sha512', secret).update(message).digest('hex');

// Secrets around the 128-byte block (longer ones are hashed first); base64 messages long enough
// to make the in-place buffer grow.
// ASCII secrets (the usual API secret) take a path of their own.
const secrets = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 300 }),
  fc
    .string({
      unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
      minLength: 1,
      maxLength: 300,
    })
    .map((text) => Buffer.from(text, 'latin1')),
);
const messages = fc.uint8Array({ maxLength: 3000 }).map((bytes) => Buffer.from(bytes).toString('base64'));

describe('HMAC-SHA512 over crypto.hash', () => {
  it('equals createHmac for any secret and any base64 message', () => {
    fc.assert(
      fc.property(secrets, fc.array(messages, { minLength: 1, maxLength: 4 }), (secret, list) => {
        const hmac = createHexHmac(crypto, secret);
        // Several messages through one instance: the shared buffers must not leak between calls.
        for (const message of list) expect(hmac(message)).toBe(reference(secret, message));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['an ASCII secret', Buffer.from('s'.repeat(200))],
    ['a binary secret', Buffer.alloc(100, 0xfe)],
  ])('%s: a long message after a short one, and a short one after', (_, secret) => {
    const hmac = createHexHmac(crypto, secret);
    for (const message of ['YQ==', 'Yg'.repeat(5000), 'Yw=='])
      expect(hmac(message)).toBe(reference(secret, message));
  });

  it('signs through crypto.hash alone once the probe agrees', () => {
    let hmacObjects = 0;
    const counting = {
      ...crypto,
      createHmac: (...args: Parameters<typeof crypto.createHmac>) => {
        hmacObjects++;
        return crypto.createHmac(...args);
      },
    } as typeof crypto;
    const secret = Buffer.from('counted-secret');
    const hmac = createHexHmac(counting, secret);
    const afterProbe = hmacObjects;
    expect(hmac('eyJhIjoxfQ==')).toBe(reference(secret, 'eyJhIjoxfQ=='));
    expect(hmacObjects).toBe(afterProbe);
  });

  it('falls back to createHmac where crypto.hash is missing', () => {
    const { hash: _missing, ...withoutHash } = crypto;
    const secret = Buffer.from('fallback-secret');
    expect(createHexHmac(withoutHash as typeof crypto, secret)('eyJhIjoxfQ==')).toBe(
      reference(secret, 'eyJhIjoxfQ=='),
    );
  });

  it('falls back to createHmac where crypto.hash answers wrongly', () => {
    // Digests of the right shape (64 bytes as latin1, 128 hex digits), all zeros.
    const zeros = (_algorithm: string, _data: unknown, encoding?: string) =>
      encoding === 'hex' ? '0'.repeat(128) : '\0'.repeat(64);
    const broken = { ...crypto, hash: zeros } as unknown as typeof crypto;
    const secret = Buffer.from('probe-secret');
    expect(createHexHmac(broken, secret)('eyJhIjoxfQ==')).toBe(reference(secret, 'eyJhIjoxfQ=='));
  });
});
