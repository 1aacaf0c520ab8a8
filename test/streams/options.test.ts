// The stream client's options are checked as it is made: a ConfigurationError names the option at
// fault; the defaults come from the documents (the server's address and keepalive).
import { describe, expect, it } from 'vitest';
import { streamChannels, streamKeepalive, streamServers } from '../../generated/streams.ts';
import { ConfigurationError, createStreamClient, type StreamClientOptions } from '../../src/streams/index.ts';

describe('stream client options', () => {
  it('default to the documents` global server at the channels` address, and the keepalive`s pace', async () => {
    const client = createStreamClient();
    expect(client.options).toMatchObject({
      url: `${streamServers['public-v4'].global}${streamChannels.service.address}`,
      pingIntervalMs: (streamKeepalive.idleCloseSeconds * 1000) / 2,
      token: undefined,
      webSocket: 'default',
      hooks: [],
    });
    const eu = createStreamClient({ server: 'eu' });
    expect(eu.options.url).toBe(`${streamServers['public-v4'].eu}${streamChannels.service.address}`);
    await Promise.all([client.close(), eu.close()]);
  });

  it.each<[string, StreamClientOptions]>([
    ['url', { url: 'https://api.example/ws' }],
    ['url', { url: 'ws://user:password@127.0.0.1/ws' }],
    ['url', { url: 'not a url' }],
    ['url', { url: 'ws://127.0.0.1/ws#fragment' }],
    ['server', { server: 'moon' as 'eu' }],
    ['token', { token: '' }],
    ['token', { token: 42 as unknown as string }],
    ['webSocket', { webSocket: 'ws' as never }],
    ['requestTimeoutMs', { requestTimeoutMs: 0 }],
    ['requestTimeoutMs', { requestTimeoutMs: -1 }],
    ['connectTimeoutMs', { connectTimeoutMs: Number.NaN }],
    ['pingIntervalMs', { pingIntervalMs: 2 ** 31 }],
    ['pongTimeoutMs', { pongTimeoutMs: 0 }],
    ['maxMessageBytes', { maxMessageBytes: 0 }],
    ['bufferSize', { bufferSize: 1.5 }],
    ['reconnect', { reconnect: 'yes' as never }],
    ['reconnect.attempts', { reconnect: { attempts: 0 } }],
    ['reconnect.baseDelayMs', { reconnect: { baseDelayMs: -5 } }],
    ['hooks.retry', { hooks: { retry: [() => undefined] } as never }],
    ['hooks.error', { hooks: { error: 'log' } as never }],
  ])('refuses a wrong %s', (field, options) => {
    expect(() => createStreamClient(options)).toThrow(ConfigurationError);
    try {
      createStreamClient(options);
    } catch (error) {
      expect((error as ConfigurationError).field).toBe(field);
    }
  });

  it('refuses a channel that has nothing to subscribe to, naming those that have', () => {
    const client = createStreamClient({ url: 'ws://127.0.0.1:1/ws' });
    const untyped = client.subscribe as (channel: string, params: unknown) => unknown;
    expect(() => untyped('service', [])).toThrow(/depth, trades/);
  });
});
