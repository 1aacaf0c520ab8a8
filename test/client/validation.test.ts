// Validation of real traffic: a local server answers like the service would, except for what a
// test breaks (a field of the wrong type, a status, a content type, a header), and the client's
// `validate` option (on each transport) and the openapi-fetch middleware report it as drift
// events naming the check and the field, with no secret in them. Sampling draws from an injected
// random source, so which answers are checked is known in advance.
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateClient, createPublicClient } from '../../src/index.ts';
import { type CallerPaths, createSigningMiddleware } from '../../src/middleware.ts';
import { createValidationMiddleware, type DriftEvent } from '../../src/validation.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { mainBalancePath, pingPath } from './paths.ts';
import { transportOption, transports } from './transports.ts';

const apiKey = 'validation-key';
const apiSecret = 'validation-secret-0123456789';

/** What the server answers next, by test; the default is a documented answer. */
let answer: (response: Parameters<typeof json>[0], signature: string) => void;
const documented = () => {
  answer = (response) => json(response, 200, { main_balance: '12.5' });
};
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((request, response) =>
    answer(response, String(request.headers['x-txc-signature'] ?? '')),
  );
});
afterAll(() => server.close());

/** A wrong type in one field; the answer also echoes the key and signature, which must not leak. */
const drifted = (response: Parameters<typeof json>[0], signature: string) =>
  json(response, 200, { main_balance: 12.5, note: apiSecret }, { 'x-echo': `${apiKey} ${signature}` });

function expectSecretFree(events: readonly DriftEvent[]) {
  const text = JSON.stringify(events);
  for (const request of server.received) {
    const signature = String(request.headers['x-txc-signature'] ?? '');
    if (signature) expect(text).not.toContain(signature);
  }
  expect(text).not.toContain(apiSecret);
  expect(text).not.toContain(apiKey);
}

describe.each(transports)('the client option validate, on the %s transport', (_name, fetch) => {
  const clientWith = (events: DriftEvent[], extra: { sampleRate?: number; random?: () => number } = {}) =>
    createPrivateClient({
      apiKey,
      apiSecret,
      baseUrl: server.url,
      rateLimit: false,
      ...transportOption(fetch),
      validate: { onDrift: (event) => events.push(event), ...extra },
    });

  it('flags a field of the wrong type, naming the check and the field, without a secret', async () => {
    const events: DriftEvent[] = [];
    const client = clientWith(events);
    answer = drifted;
    const result = await client.POST(mainBalancePath);
    // Validation reports; it never changes the result (the client scrubs the echoed secret anyway).
    expect(result.data).toMatchObject({ main_balance: 12.5 });
    expect(events).toHaveLength(1);
    const [event] = events as [DriftEvent];
    expect(event).toMatchObject({
      operationId: 'getMainBalance',
      method: 'post',
      path: mainBalancePath,
      status: 200,
    });
    expect(event.drifts).toContainEqual(
      expect.objectContaining({ check: 'response_schema_conformance', field: 'main_balance' }),
    );
    expect(Object.isFrozen(event)).toBe(true);
    expectSecretFree(events);

    documented();
    await client.POST(mainBalancePath);
    expect(events).toHaveLength(1);
    await client.close();
  });

  it('flags an undocumented status, content type and header value', async () => {
    const events: DriftEvent[] = [];
    const client = clientWith(events);
    answer = (response) => json(response, 418, { message: 'teapot' });
    await client.POST(mainBalancePath);
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html></html>');
    };
    await client.POST(mainBalancePath);
    answer = (response) =>
      json(response, 429, { code: 0, message: 'Too many requests.' }, { 'retry-after': 'soon' });
    await client.POST(mainBalancePath);
    expect(events.map((event) => [event.status, event.drifts.map((drift) => drift.check)])).toEqual([
      [418, ['status_code_conformance']],
      [200, ['content_type_conformance']],
      [429, ['response_headers_conformance']],
    ]);
    expect(events[2]?.drifts[0]?.field).toBe('retry-after');
    await client.close();
  });

  it('checks only the sampled answers: those whose draw is under sampleRate', async () => {
    const events: DriftEvent[] = [];
    const draws = [0.3, 0.05, 0.1, 0.0999];
    const client = clientWith(events, { sampleRate: 0.1, random: () => draws.shift() ?? 1 });
    answer = drifted;
    for (let call = 0; call < 4; call++) await client.POST(mainBalancePath);
    expect(draws).toEqual([]);
    // 0.05 and 0.0999 are under 0.1; 0.3 and 0.1 are not.
    expect(events).toHaveLength(2);
    await client.close();
  });

  it('a public client validates too', async () => {
    const events: DriftEvent[] = [];
    const client = createPublicClient({
      baseUrl: server.url,
      rateLimit: false,
      ...transportOption(fetch),
      validate: { onDrift: (event) => events.push(event) },
    });
    answer = (response) => json(response, 200, { pong: true });
    await client.GET(pingPath);
    expect(events.map((event) => event.operationId)).toEqual(['pingApi']);
    expect(events[0]?.drifts[0]?.check).toBe('response_schema_conformance');
    await client.close();
  });
});

describe('the option is checked when the client is made', () => {
  it.each([
    [{ sampleRate: 2, onDrift: () => {} }, 'validate.sampleRate'],
    [{ sampleRate: 0.5 }, 'validate.onDrift'],
  ])('%j is refused, naming %s', (validate, field) => {
    expect(() => createPublicClient({ baseUrl: server.url, validate: validate as never })).toThrow(
      expect.objectContaining({ field }),
    );
  });
});

describe('createValidationMiddleware', () => {
  it('flags the drifted field in an openapi-fetch client, after the signing middleware', async () => {
    const events: DriftEvent[] = [];
    const client = createClient<CallerPaths>({ baseUrl: server.url });
    client.use(createSigningMiddleware({ apiKey, apiSecret }));
    client.use(createValidationMiddleware({ onDrift: (event) => events.push(event) }));
    answer = drifted;
    const { data } = await client.POST(mainBalancePath, { body: {} });
    expect(data).toMatchObject({ main_balance: 12.5 });
    expect(events).toHaveLength(1);
    expect(events[0]?.drifts).toContainEqual(
      expect.objectContaining({ check: 'response_schema_conformance', field: 'main_balance' }),
    );
    expectSecretFree(events);
    documented();
    await client.POST(mainBalancePath, { body: {} });
    expect(events).toHaveLength(1);
  });

  it('does not read an answer left out of the sample', async () => {
    const events: DriftEvent[] = [];
    const client = createClient<CallerPaths>({ baseUrl: server.url });
    client.use(createSigningMiddleware({ apiKey, apiSecret }));
    client.use(createValidationMiddleware({ sampleRate: 0, onDrift: (event) => events.push(event) }));
    answer = drifted;
    await client.POST(mainBalancePath, { body: {} });
    expect(events).toEqual([]);
  });
});
