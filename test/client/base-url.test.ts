// baseUrl is checked when the client is made and normalised: what it names is where calls go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createPrivateClient } from '../../src/index.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { mainBalancePath } from './paths.ts';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((_, response) => json(response, 200, {}));
});
afterAll(() => server.close());

const create = (baseUrl: string) =>
  createPrivateClient({ apiKey: 'url-key', apiSecret: 'url-secret', baseUrl, rateLimit: false });

describe('baseUrl', () => {
  it.each([
    ['credentials', 'http://user:hunter2-password@127.0.0.1:9'],
    ['a query', 'http://127.0.0.1:9/?x=1'],
    ['an empty query', 'http://127.0.0.1:9/?'],
    ['a fragment', 'http://127.0.0.1:9/#part'],
    ['another scheme', 'ftp://127.0.0.1:9'],
    ['no scheme', '127.0.0.1:9'],
  ])('with %s is a ConfigurationError that does not echo it', (_, baseUrl) => {
    let thrown: unknown;
    try {
      create(baseUrl);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as ConfigurationError).field).toBe('baseUrl');
    expect((thrown as Error).message).not.toContain('hunter2-password');
  });

  it('trailing and doubled slashes are normalised', async () => {
    const client = create(`${server.url}//gateway//v4/`);
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error).toBeUndefined();
    expect(server.received.at(-1)?.url).toBe(`/gateway/v4${mainBalancePath}`);
    expect(client.options.baseUrl).toBe(`${server.url}//gateway//v4/`);
  });
});
