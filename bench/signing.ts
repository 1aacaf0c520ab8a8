// Signing: signatures per second of the client's signer (src/signing.ts, both implementations)
// for bodies of about 100 B, 1 KB and 10 KB, against the bare equivalent: base64 of the body and
// node:crypto createHmac('sha512', secret) over that base64 string, hex digest. Implementations
// are interleaved round by round; each round runs for a fixed time and a bounded number of calls.
import { Buffer } from 'node:buffer';
import { createHmac } from 'node:crypto';
import { createSigner } from '../src/signing.ts';
import { median } from './stats.ts';

const secret = 'bench-secret';

/** A compact JSON body of about `bytes` bytes, shaped like a real signed call. */
export function bodyOf(bytes: number): string {
  const base = { request: '/api/v4/main-account/balance', nonce: '1700000000000', ticker: 'BTC', memo: '' };
  const filler = Math.max(0, bytes - JSON.stringify(base).length);
  return JSON.stringify({ ...base, memo: 'x'.repeat(filler) });
}

type Sign = (body: string) => unknown;

export const implementations: { id: string; label: string; make(): Sign }[] = [
  {
    id: 'bare',
    label: 'bare createHmac (baseline)',
    make: () => (body) => {
      const payload = Buffer.from(body, 'utf8').toString('base64');
      return { payload, signature: createHmac('sha512', secret).update(payload).digest('hex') };
    },
  },
  { id: 'node', label: "createSigner 'node'", make: () => createSigner(secret, 'node') },
  { id: 'web', label: "createSigner 'web'", make: () => createSigner(secret, 'web') },
];

async function rate(sign: Sign, body: string, durationMs: number, maxCalls: number): Promise<number> {
  const begin = performance.now();
  const deadline = begin + durationMs;
  let calls = 0;
  // Check the clock every 64 calls; await only what is a promise (the web signer).
  while (calls < maxCalls && performance.now() < deadline) {
    for (let i = 0; i < 64; i++) {
      const result = sign(body);
      if (result instanceof Promise) await result;
    }
    calls += 64;
  }
  return calls / ((performance.now() - begin) / 1000);
}

export interface SigningResult {
  id: string;
  label: string;
  bytes: number;
  perSecond: number;
  /** perSecond / the bare baseline's, same body size. */
  ratio: number;
}

export async function runSigning(options: {
  sizes: number[];
  rounds: number;
  roundMs: number;
}): Promise<SigningResult[]> {
  const signers = implementations.map((implementation) => ({
    ...implementation,
    sign: implementation.make(),
  }));
  const results: SigningResult[] = [];
  for (const bytes of options.sizes) {
    const body = bodyOf(bytes);
    // Same answer from every implementation, or the comparison means nothing.
    const expected = JSON.stringify(await signers[0]?.sign(body));
    for (const signer of signers) {
      if (JSON.stringify(await signer.sign(body)) !== expected)
        throw new Error(`${signer.id} signs differently`);
      await rate(signer.sign, body, Math.min(100, options.roundMs), 1e6); // warm-up
    }
    const rates = new Map<string, number[]>();
    for (let round = 0; round < options.rounds; round++) {
      for (let i = 0; i < signers.length; i++) {
        const signer = signers[(i + round) % signers.length] as (typeof signers)[number];
        const list = rates.get(signer.id) ?? [];
        list.push(await rate(signer.sign, body, options.roundMs, 5e6));
        rates.set(signer.id, list);
      }
    }
    const bare = median(rates.get('bare') ?? []);
    for (const signer of signers) {
      const perSecond = median(rates.get(signer.id) ?? []);
      results.push({ id: signer.id, label: signer.label, bytes, perSecond, ratio: perSecond / bare });
    }
  }
  return results;
}
