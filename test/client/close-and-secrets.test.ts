// close() ends calls in flight at once and fails later ones; nothing a server sends back carries
// the API secret into an error.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateClient } from '../../src/index.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { mainBalancePath, summaryPath } from './paths.ts';
import { transportOption, transports } from './transports.ts';

const secret = 'echoed-secret-0123456789abcdef';
let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    if (request.headers['user-agent'] === 'hang') return; // never answers
    json(response, 400, {
      code: 0,
      message: `Validation failed for ${secret}`,
      errors: { ticker: [secret] },
    });
  });
});
afterAll(() => server.close());

describe.each(transports)('close() and echoed secrets, %s transport', (_, fetch) => {
  const client = (userAgent: string) =>
    createPrivateClient({
      apiKey: 'close-key',
      apiSecret: secret,
      baseUrl: server.url,
      rateLimit: false,
      timeoutMs: 60_000,
      userAgent,
      ...transportOption(fetch),
    });

  it('ends calls in flight at once with a closed error, and fails later calls', async () => {
    const subject = client('hang');
    const inFlight = subject.POST(mainBalancePath);
    // The first call of a client waits for its engine and transport to load: on a loaded machine
    // that takes longer than a poll's default second.
    await expect
      .poll(() => server.received.some((request) => request.headers['user-agent'] === 'hang'), {
        timeout: 8000,
      })
      .toBe(true);
    await subject.close();
    expect((await inFlight).error?.kind).toBe('closed');
    const before = server.received.length;
    expect((await subject.POST(mainBalancePath)).error?.kind).toBe('closed');
    expect(server.received.length).toBe(before);
  });

  it('a server that echoes the secret does not get it into the error', async () => {
    const subject = client('echo');
    const { error } = await subject.POST(summaryPath, { body: { ticker: 'BTC' } });
    await subject.close();
    expect(error?.kind).toBe('private-error');
    expect(error?.message).toContain('[redacted]');
    for (const text of [error?.message, JSON.stringify(error?.body), inspect(error, { depth: 10 })]) {
      expect(text).not.toContain(secret);
    }
  });
});
