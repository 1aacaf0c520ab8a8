// A fiat-gateway call (auth `gateway-token`): unsigned, its token in Authorization, sent to the
// operation's own server unless the client has a base URL; refused without its token, by name,
// before anything is sent; the token and the card number never shown. An injected fetch answers:
// nothing reaches the network.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { operations, signingHeaders } from '../../generated/operations.ts';
import { documentModel } from '../../model/model.ts';
import { gatewayTokenSource } from '../../model/token-source.ts';
import { createPrivateClient, type PrivateClientOptions } from '../../src/client.ts';

const token = 'eyJhbGciOiJSUzI1NiJ9.gateway-token-under-test.sig';
const cardNumber = '4111111111111111';
const path = '/api/card-token';
const facts = operations.issueCardToken;

/** A client whose fetch keeps every request and answers with `answer`; nothing is sent anywhere. */
function clientSeeing(answer: () => Response, options: Partial<PrivateClientOptions> = {}) {
  const seen: { url: string; headers: Headers; body: string }[] = [];
  const client = createPrivateClient({
    apiKey: 'gateway-test-key',
    apiSecret: 'gateway-test-secret',
    rateLimit: false,
    fetch: async (request: Request) => {
      seen.push({ url: request.url, headers: request.headers, body: await request.text() });
      return answer();
    },
    ...options,
  });
  return { client, seen };
}

const created = () =>
  new Response(JSON.stringify({ data: { token: 'ct_1' } }), {
    status: 201,
    headers: { 'content-type': 'application/json' },
  });

describe('a fiat-gateway call', () => {
  it('goes unsigned, with the token as Authorization, to the operation’s own server', async () => {
    const { client, seen } = clientSeeing(created);
    const result = await client.POST(path, { body: { cardNumber }, gatewayToken: token });
    await client.close();
    expect(result.error).toBeUndefined();
    expect(result.data).toEqual({ data: { token: 'ct_1' } });
    const [request] = seen;
    const own = facts.servers[0];
    expect(request?.url).toBe(`${own.variables.fiat_gateway_url}${path}`);
    expect(request?.headers.get(facts.tokenHeader)).toBe(token);
    expect(request?.headers.get('content-type')).toBe('application/json');
    for (const header of Object.values(signingHeaders)) expect(request?.headers.get(header)).toBeNull();
    // The body is the card number alone: no request, no nonce.
    expect(JSON.parse(request?.body ?? '')).toEqual({ cardNumber });
  });

  it('goes to the base URL when the client has one, as every call does', async () => {
    const { client, seen } = clientSeeing(created, { baseUrl: 'http://127.0.0.1:9/prefix' });
    await client.POST(path, { body: { cardNumber }, gatewayToken: token });
    await client.POST('/api/v4/jwt');
    await client.close();
    expect(seen.map((request) => request.url)).toEqual([
      `http://127.0.0.1:9/prefix${path}`,
      'http://127.0.0.1:9/prefix/api/v4/jwt',
    ]);
    // The signed call beside it is still signed, and carries no token.
    expect(seen[1]?.headers.get(signingHeaders.Signature)).toMatch(/^[0-9a-f]{128}$/);
    expect(seen[1]?.headers.get(facts.tokenHeader)).toBeNull();
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
  ])('is refused by the field’s name, nothing sent, when the token is %s', async (_, given) => {
    const { client, seen } = clientSeeing(created);
    const post = client.POST as (p: string, init: object) => ReturnType<typeof client.POST>;
    const result = await post(path, { body: { cardNumber }, gatewayToken: given });
    await client.close();
    expect(seen).toHaveLength(0);
    expect(result.error?.kind).toBe('invalid-request');
    expect(result.error?.field).toBe('gatewayToken');
    expect(result.error?.message).toMatch(/gatewayToken/);
  });

  it('says, without a token, which operation’s answer holds one, as the documents’ links give it', async () => {
    const { client } = clientSeeing(created);
    const post = client.POST as (p: string, init: object) => ReturnType<typeof client.POST>;
    const result = await post(path, { body: { cardNumber } });
    await client.close();
    const source = gatewayTokenSource(documentModel(), facts.operationId);
    expect(source).toBeDefined();
    const field = source?.at.slice(1).split('/').join('.');
    expect(result.error?.message).toBe(
      `gatewayToken: ${facts.operationId} needs the fiat gateway's token (${source?.operationId}'s ${field})`,
    );
  });

  it('never shows the token or the whole card number', async () => {
    // A server that echoes both back in its refusal.
    const echo = () =>
      new Response(
        JSON.stringify({
          code: 1,
          message: `bad ${token}`,
          errors: { cardNumber: [`${cardNumber} invalid`] },
        }),
        { status: 422, headers: { 'content-type': 'application/json' } },
      );
    const { client } = clientSeeing(echo);
    const refused = await client.POST(path, { body: { cardNumber }, gatewayToken: token });
    // A card number of the wrong type is refused before sending, its value masked.
    const post = client.POST as (p: string, init: object) => ReturnType<typeof client.POST>;
    const wrongType = await post(path, { body: { cardNumber: 4111111111111111 }, gatewayToken: token });
    await client.close();
    expect(refused.error?.status).toBe(422);
    expect(wrongType.error?.kind).toBe('invalid-request');
    expect(wrongType.error?.message).toContain('************1111');
    for (const error of [refused.error, wrongType.error]) {
      for (const shown of [inspect(error, { depth: 8 }), JSON.stringify(error), String(error?.message)]) {
        expect(shown).not.toContain(token);
      }
      expect(inspect(error, { depth: 8 })).not.toContain('4111111111111111');
      expect(String(error?.message)).not.toContain('4111111111111111');
    }
    expect(inspect(client)).not.toContain(token);
    expect(JSON.stringify(client)).not.toContain(token);
  });

  it('a card number that is JSON syntax or a digit is scrubbed from the answer, never the answer broken', async () => {
    // What a caller types is arbitrary: a property run sent `"`, which a plain text replace took
    // out of the JSON's own quotes. Each answer holds it in a string, and numbers and keys besides.
    for (const typed of ['"', '1', ':', 'ct_']) {
      const answer = { data: { token: 'ct_1', [`k${typed}`]: `x${typed}y`, code: 101 } };
      const { client } = clientSeeing(
        () =>
          new Response(JSON.stringify(answer), {
            status: 201,
            headers: { 'content-type': 'application/json' },
          }),
      );
      const { data, error } = await client.POST(path, { body: { cardNumber: typed }, gatewayToken: token });
      await client.close();
      expect(error, typed).toBeUndefined();
      const shown = JSON.stringify(data);
      // Every number and every JSON string survives; only the typed text, inside strings, is gone.
      expect((data as { data: { code: number } }).data.code, typed).toBe(101);
      expect(Object.keys((data as { data: object }).data), typed).toHaveLength(3);
      for (const text of Object.entries((data as { data: Record<string, unknown> }).data).flat())
        if (typeof text === 'string') expect(text, typed).not.toContain(typed);
      expect(shown, typed).not.toBe(JSON.stringify(answer));
    }
  });
});
