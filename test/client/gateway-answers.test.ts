// The gateway's own answers (observed upstream, described in the documents): a rate limit and
// maintenance come with a body that is not JSON, an internal error as {"error":[…]}. Each is
// still typed by its status, with the text kept in the message, cut short.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateClient, createPublicClient } from '../../src/index.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { mainBalancePath, pingPath } from './paths.ts';

const longPage = `<html><body>${'Service is under maintenance. '.repeat(40)}</body></html>`;
const answers: Record<string, (response: import('node:http').ServerResponse) => void> = {
  'text 429': (response) => {
    response.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '2' });
    response.end('Too many requests');
  },
  'html 503': (response) => {
    response.writeHead(503, { 'content-type': 'text/html' });
    response.end(longPage);
  },
  'json 500': (response) => json(response, 500, { error: ['Internal server error.'] }),
};

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const answer = answers[String(request.headers['user-agent'])];
    if (answer) answer(response);
    else json(response, 418, { message: 'no such case' });
  });
});
afterAll(() => server.close());

const publicClient = (userAgent: string) =>
  createPublicClient({ baseUrl: server.url, rateLimit: false, userAgent });
const privateClient = (userAgent: string) =>
  createPrivateClient({
    apiKey: 'k',
    apiSecret: 'gateway-test-secret',
    baseUrl: server.url,
    rateLimit: false,
    userAgent,
  });

describe('gateway answers', () => {
  it('a 429 whose body is not JSON is rate-limited, with its text and Retry-After', async () => {
    const client = publicClient('text 429');
    const { error } = await client.GET(pingPath);
    await client.close();
    expect(error?.kind).toBe('rate-limited');
    expect(error?.status).toBe(429);
    expect(error?.retryAfterMs).toBe(2000);
    expect(error?.message).toMatch(/: Too many requests$/);
  });

  it('a 503 whose body is an HTML page is a server error, its text cut short', async () => {
    const client = privateClient('html 503');
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error?.kind).toBe('server-error');
    expect(error?.status).toBe(503);
    const quoted = error?.message.split(': ').slice(1).join(': ') ?? '';
    expect(quoted.startsWith('<html><body>Service is under maintenance.')).toBe(true);
    expect(quoted.length).toBeLessThanOrEqual(201);
    expect(quoted.endsWith('…')).toBe(true);
  });

  it('a 500 {"error":[…]} is a server error naming the error', async () => {
    const client = publicClient('json 500');
    const { error } = await client.GET(pingPath);
    await client.close();
    expect(error?.kind).toBe('server-error');
    expect(error?.message).toMatch(/: Internal server error\.$/);
  });
});
