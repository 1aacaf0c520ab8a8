import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingHeaders } from '../../generated/operations.ts';
import { createPrivateClient, createSigner } from '../../src/index.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { mainBalancePath, pingPath } from './paths.ts';

const secret = 'test-secret';
const verify = (payload: string) => createHmac('sha512', secret).update(payload).digest('hex');

describe('known-answer vector (upstream notes)', () => {
  const body = '{"request":"/api/v4/trade-balance","nonce":1700000000000,"nonceWindow":true,"ticker":"BTC"}';
  it.each(['node', 'web'] as const)('%s implementation', async (implementation) => {
    const { payload, signature } = await createSigner(secret, implementation)(body);
    expect(payload.startsWith('eyJyZXF1ZXN0IjoiL2FwaS92NC90cmFkZS1iYWxhbmNl')).toBe(true);
    expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(body);
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(signature.startsWith('81d08e8576e565ac')).toBe(true);
    expect(signature.endsWith('7703df9b92')).toBe(true);
  });

  it('a different secret gives a different signature', async () => {
    const { signature } = await createSigner('other-secret')(body);
    expect(signature.startsWith('81d08e8576e565ac')).toBe(false);
  });
});

describe('the payload is the base64 of the body as UTF-8', () => {
  // Characters from U+0080 to U+00FF are the trap: btoa takes them as one byte each, where UTF-8
  // needs two. Only ASCII may take btoa's shortcut.
  const bodies = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: fc.integer({ min: 0x60, max: 0xff }).map((code) => String.fromCharCode(code)) }),
  );
  it.each(['node', 'web'] as const)('%s implementation, any text', async (implementation) => {
    const sign = createSigner(secret, implementation);
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const { payload, signature } = await sign(body);
        expect(payload).toBe(Buffer.from(body, 'utf8').toString('base64'));
        expect(signature).toBe(verify(payload));
      }),
      { numRuns: 300 },
    );
  });
});

// Extra fields the documents leave open, so any JSON can ride along with a main-balance call.
const extraFields = fc.dictionary(
  fc
    .string({ unit: 'grapheme', maxLength: 12 })
    .filter((key) => !['request', 'nonce', 'nonceWindow', 'ticker'].includes(key)),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 6 },
);

describe('what is sent is what is signed', () => {
  it('through an injected fetch: payload decodes to the exact body bytes and the signature verifies', async () => {
    await fc.assert(
      fc.asyncProperty(extraFields, async (extra) => {
        let seen: { body: string; headers: Headers } | undefined;
        const client = createPrivateClient({
          apiKey: 'property-key',
          apiSecret: secret,
          baseUrl: 'http://127.0.0.1:9',
          rateLimit: false,
          fetch: async (request) => {
            seen = { body: await request.text(), headers: request.headers };
            return new Response('{}', { headers: { 'content-type': 'application/json' } });
          },
        });
        const { error } = await client.POST(mainBalancePath, { body: extra as never });
        expect(error).toBeUndefined();
        const payload = seen?.headers.get(signingHeaders.Payload) ?? '';
        expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(seen?.body);
        expect(seen?.headers.get(signingHeaders.Signature)).toBe(verify(payload));
        const sent = JSON.parse(seen?.body ?? '');
        expect(sent.request).toBe(mainBalancePath);
        expect(sent.nonce).toMatch(/^[0-9]+$/);
        // JSON has no -0 or undefined: compare with what JSON itself makes of the value.
        for (const [key, value] of Object.entries(extra))
          expect(sent[key]).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 200 },
    );
  });

  describe('through the default transport, on the wire', () => {
    let server: LocalServer;
    const raw: Buffer[] = [];
    beforeAll(async () => {
      server = await startLocalServer((request, response) => {
        raw.push(Buffer.from(request.body, 'utf8'));
        json(response, 200, {});
      });
    });
    afterAll(() => server.close());

    it('the body bytes on the wire are the base64-decoded payload, compact JSON', async () => {
      const client = createPrivateClient({
        apiKey: 'wire-key',
        apiSecret: secret,
        baseUrl: server.url,
        rateLimit: false,
      });
      await fc.assert(
        fc.asyncProperty(extraFields, async (extra) => {
          const before = server.received.length;
          const { error } = await client.POST(mainBalancePath, { body: extra as never });
          expect(error).toBeUndefined();
          const request = server.received[before];
          const payload = String(request?.headers[signingHeaders.Payload.toLowerCase()]);
          expect(Buffer.from(payload, 'base64').equals(raw[before] as Buffer)).toBe(true);
          expect(request?.headers[signingHeaders.Signature.toLowerCase()]).toBe(verify(payload));
          expect(request?.headers[signingHeaders.ApiKey.toLowerCase()]).toBe('wire-key');
          expect(request?.headers['content-type']).toBe('application/json');
          const body = request?.body ?? '';
          expect(body).toBe(JSON.stringify(JSON.parse(body)));
        }),
        { numRuns: 60 },
      );
      await client.close();
    });
  });

  it('public calls are not signed', async () => {
    const server = await startLocalServer((_, response) => json(response, 200, ['pong']));
    const { createPublicClient } = await import('../../src/index.ts');
    const client = createPublicClient({ baseUrl: server.url });
    const { data } = await client.GET(pingPath);
    expect(data).toEqual(['pong']);
    const headers = server.received[0]?.headers ?? {};
    for (const name of Object.values(signingHeaders)) expect(headers[name.toLowerCase()]).toBeUndefined();
    expect(server.received[0]?.body).toBe('');
    await client.close();
    await server.close();
  });
});
