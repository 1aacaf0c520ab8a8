// The openapi-fetch middleware signs through the client's own signer: the body it sends is the
// exact bytes signed, with request and nonce added; and its window-mode hold is the client's one
// wait, which ends with the reason as soon as the request's signal aborts.
import { createHmac } from 'node:crypto';
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { type CallerPaths, createSigningMiddleware } from '../../src/middleware.ts';
import { mainBalancePath, summaryPath } from './paths.ts';

const apiSecret = 'middleware-secret';

describe('createSigningMiddleware', () => {
  it('sends the exact bytes it signed, with request and nonce added', async () => {
    const sent: Request[] = [];
    const client = createClient<CallerPaths>({
      baseUrl: 'http://127.0.0.1:9/prefix',
      fetch: async (request) => {
        sent.push(request);
        return new Response('{"main_balance":"1"}', { headers: { 'content-type': 'application/json' } });
      },
    });
    client.use(createSigningMiddleware({ apiKey: 'middleware-key', apiSecret }));
    const { data } = await client.POST(summaryPath, { body: { ticker: 'BTC' } });
    expect(data).toEqual({ main_balance: '1' });
    const [request] = sent as [Request];
    const body = await request.text();
    expect(JSON.parse(body)).toMatchObject({ request: summaryPath, ticker: 'BTC' });
    expect(JSON.parse(body).nonce).toMatch(/^\d+$/);
    const payload = request.headers.get('x-txc-payload') as string;
    expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(body);
    expect(request.headers.get('x-txc-signature')).toBe(
      createHmac('sha512', apiSecret).update(payload).digest('hex'),
    );
    expect(request.headers.get('x-txc-apikey')).toBe('middleware-key');
  });

  it("a window-mode hold ends with the reason when the request's signal aborts", async () => {
    // The clock steps back a minute once the nonce is taken: the call would be held that long.
    const now = Date.now();
    const readings = [now];
    const middleware = createSigningMiddleware({
      apiKey: 'middleware-hold-key',
      apiSecret,
      nonceWindow: true,
      clock: () => readings.shift() ?? now - 60_000,
    });
    const controller = new AbortController();
    const request = new Request(`http://127.0.0.1:9${mainBalancePath}`, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    });
    const signing = middleware.onRequest?.({
      request,
      schemaPath: mainBalancePath,
      params: {},
      options: {},
      id: 'hold',
    } as unknown as Parameters<NonNullable<typeof middleware.onRequest>>[0]);
    const reason = new Error('the caller gave up');
    controller.abort(reason);
    await expect(signing).rejects.toBe(reason);
  });
});
