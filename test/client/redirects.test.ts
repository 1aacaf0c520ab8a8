// No redirect is ever followed: signed headers and bodies go to the configured origin only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateClient } from '../../src/index.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { investPath } from './paths.ts';
import { transportOption, transports } from './transports.ts';

const investBody = { planId: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b', amount: '100.00' };
let elsewhere: LocalServer;
let redirecting: LocalServer;

beforeAll(async () => {
  elsewhere = await startLocalServer((_, response) => json(response, 201, { id: 'stolen' }));
  const target = new URL(elsewhere.url);
  target.username = 'user';
  target.password = 'location-password';
  target.pathname = '/collect';
  redirecting = await startLocalServer((request, response) => {
    const status = Number(request.headers['user-agent']);
    response.writeHead(status, { location: target.href }).end();
  });
});

afterAll(async () => {
  await Promise.all([elsewhere.close(), redirecting.close()]);
});

describe.each(transports)('redirects, %s transport', (_, fetch) => {
  it.each([301, 302, 303, 307, 308])(
    'a %i is a redirect error naming the location; nothing goes there',
    async (status) => {
      const client = createPrivateClient({
        apiKey: 'redirect-key',
        apiSecret: 'redirect-secret',
        baseUrl: redirecting.url,
        rateLimit: false,
        userAgent: String(status),
        ...transportOption(fetch),
      });
      const { data, error } = await client.POST(investPath, { body: investBody });
      await client.close();
      expect(data).toBeUndefined();
      expect(error?.kind).toBe('redirect');
      expect(error?.status).toBe(status);
      expect(error?.message).toContain(`HTTP ${status}`);
      expect(error?.message).toContain(`${elsewhere.url}/collect`);
      expect(error?.message).not.toContain('location-password');
      expect(elsewhere.received).toHaveLength(0);
    },
  );
});
