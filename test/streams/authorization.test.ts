// Private channels: the connection is authorized first, once, with a token from the `token`
// option (a string, or a provider such as the HTTP client's websocket_token call); a refused token
// is replaced by a fresh one from a provider once; a new connection gets a fresh token.
import { describe, expect, it, vi } from 'vitest';
import { AuthorizationError, StreamRequestError } from '../../src/streams/index.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

const { server, connect } = streamSuite();

/** A provider that hands out token-1, token-2, … and counts its calls. */
function provider() {
  let calls = 0;
  const fetchToken = async () => `token-${++calls}`;
  return {
    fetchToken,
    get calls() {
      return calls;
    },
  };
}

describe('authorization', () => {
  it('authorizes once per connection before the first private request, with the provider`s token', async () => {
    const tokens = provider();
    const client = connect({ token: tokens.fetchToken });
    const first = client.request('balanceSpot_request', ['USDT']);
    const second = client.request('balanceSpot_request', ['BTC']);
    const connection = await server.nextConnection();
    const authorize = await connection.next();
    expect(authorize).toMatchObject({ method: 'authorize', params: ['token-1', 'public'] });
    connection.confirm(authorize);
    const [a, b] = [await connection.next(), await connection.next()];
    expect([a.method, b.method]).toEqual(['balanceSpot_request', 'balanceSpot_request']);
    connection.answer(a, { USDT: { available: '1', freeze: '0' } });
    connection.answer(b, { BTC: { available: '2', freeze: '0' } });
    expect(await first).toEqual({ USDT: { available: '1', freeze: '0' } });
    expect(await second).toEqual({ BTC: { available: '2', freeze: '0' } });
    expect(tokens.calls).toBe(1);
    // A public request needs no authorization.
    const time = client.request('time', []);
    connection.answer(await connection.next(), 1);
    expect(await time).toBe(1);
    expect(connection.received.filter((message) => message.method === 'authorize')).toHaveLength(1);
  });

  it('a refused token: a fresh one from the provider, then the subscription goes on', async () => {
    const tokens = provider();
    const recorder = hookRecorder();
    const client = connect({ token: tokens.fetchToken, hooks: recorder.hooks });
    const subscription = client.subscribe('ordersPending', ['BTC_USDT']);
    const connection = await server.nextConnection();
    const refused = await connection.next();
    expect(refused.params).toEqual(['token-1', 'public']);
    connection.refuse(refused, { code: 1, message: 'token expired' });
    const fresh = await connection.next();
    expect(fresh).toMatchObject({ method: 'authorize', params: ['token-2', 'public'] });
    connection.confirm(fresh);
    const subscribe = await connection.next();
    expect(subscribe).toMatchObject({ method: 'ordersPending_subscribe', params: ['BTC_USDT'] });
    connection.confirm(subscribe);
    await subscription.ready;
    expect(recorder.events.filter((event) => event.name === 'authorize')).toEqual([
      { name: 'authorize', connection: 1, attempt: 1, ok: false },
      { name: 'authorize', connection: 1, attempt: 2, ok: true },
    ]);
  });

  it('a fresh token refused too: an AuthorizationError at the iteration, the refusal as its cause', async () => {
    const tokens = provider();
    const client = connect({ token: tokens.fetchToken });
    const subscription = client.subscribe('deals', [['BTC_USDT']]);
    const connection = await server.nextConnection();
    connection.refuse(await connection.next(), { message: 'no' });
    connection.refuse(await connection.next(), { message: 'still no' });
    const error = await subscription.next().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as AuthorizationError).cause).toBeInstanceOf(StreamRequestError);
    expect(tokens.calls).toBe(2);
    expect(connection.received.map((message) => message.method)).toEqual(['authorize', 'authorize']);
  });

  it('a token given as a string is not asked for again: one refusal is an AuthorizationError', async () => {
    const client = connect({ token: 'fixed-token' });
    const asked = client.request('balanceSpot_request', []);
    const connection = await server.nextConnection();
    connection.refuse(await connection.next(), { message: 'no' });
    await expect(asked).rejects.toBeInstanceOf(AuthorizationError);
    expect(connection.received).toHaveLength(1);
  });

  it('without a token, or with a provider that fails, an AuthorizationError and nothing sent', async () => {
    const tokenless = connect();
    await expect(tokenless.request('balanceSpot_request', [])).rejects.toMatchObject({
      kind: 'authorization',
      message: expect.stringContaining('token option'),
    });
    await tokenless.close();
    const failure = new Error('HTTP call failed');
    const client = connect({
      token: async () => {
        throw failure;
      },
    });
    const error = await client.request('balanceSpot_request', []).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect((error as Error).cause).toBe(failure);
    for (const connection of server.connections) expect(connection.received).toEqual([]);
  });

  it('after a drop, the new connection is authorized with a fresh token before subscribing again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const tokens = provider();
    const recorder = hookRecorder();
    const client = connect({
      token: tokens.fetchToken,
      hooks: recorder.hooks,
      pingIntervalMs: 0,
    });
    const subscription = client.subscribe('balanceSpot', ['USDT']);
    const first = await server.nextConnection();
    first.confirm(await first.next());
    first.confirm(await first.next());
    await subscription.ready;
    const reconnecting = recorder.next('reconnect');
    first.terminate();
    await vi.advanceTimersByTimeAsync((await reconnecting).delayMs as number);
    const second = await server.nextConnection();
    const authorize = await second.next();
    expect(authorize).toMatchObject({ method: 'authorize', params: ['token-2', 'public'] });
    second.confirm(authorize);
    const again = await second.next();
    expect(again).toMatchObject({ method: 'balanceSpot_subscribe', params: ['USDT'] });
    const resubscribed = recorder.next('resubscribe');
    second.confirm(again);
    expect(await resubscribed).toEqual({ connection: 2, channel: 'balanceSpot' });
    second.update('balanceSpot_update', [{ USDT: { available: '5', freeze: '0' } }]);
    expect((await subscription.next()).value).toEqual([{ USDT: { available: '5', freeze: '0' } }]);
  });
});
