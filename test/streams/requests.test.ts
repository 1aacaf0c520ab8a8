// Requests and their answers, matched by id whatever order the answers come in; a refusal, an
// answer nobody waits for, and a server that never answers, each a typed error.
import { describe, expect, it, vi } from 'vitest';
import {
  ConfigurationError,
  StreamClosedError,
  StreamRequestError,
  StreamTimeoutError,
  UnknownAnswerError,
} from '../../src/streams/index.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

const { server, connect } = streamSuite();

describe('requests', () => {
  it('match answers to requests by id, in whatever order they come', async () => {
    const client = connect();
    const time = client.request('time', []);
    const depth = client.request('depth_request', ['ETH_BTC', 2, '0']);
    const connection = await server.nextConnection();
    const first = await connection.next();
    const second = await connection.next();
    expect([first.method, second.method]).toEqual(['time', 'depth_request']);
    expect(second.params).toEqual(['ETH_BTC', 2, '0']);
    expect(first.id).not.toBe(second.id);
    // The later request is answered first.
    const book = { timestamp: 1, asks: [['0.020846', '29.369']], bids: [['0.02083', '9.598']] };
    connection.answer(second, book);
    connection.answer(first, 1493285895);
    expect(await depth).toEqual(book);
    expect(await time).toBe(1493285895);
  });

  it('a refusal is a StreamRequestError with the server error as it came', async () => {
    const client = connect();
    const asked = client.request('market_request', ['NOPE_USDT', 86400]);
    const connection = await server.nextConnection();
    const request = await connection.next();
    connection.refuse(request, { code: 2, message: 'invalid argument' });
    const error = await asked.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamRequestError);
    expect(error).toMatchObject({ kind: 'request-refused', method: 'market_request', code: 2 });
    expect((error as Error).message).toContain('invalid argument');
  });

  it('an answer nobody waits for is reported through the error hook; the connection stays', async () => {
    const recorder = hookRecorder();
    const client = connect({ hooks: recorder.hooks });
    const first = client.request('time', []);
    const connection = await server.nextConnection();
    const request = await connection.next();
    const reported = recorder.next('error');
    connection.send({ id: 987654, result: 'stray', error: null });
    const event = await reported;
    expect(event.error).toBeInstanceOf(UnknownAnswerError);
    expect(event).toMatchObject({ errorKind: 'unknown-answer' });
    connection.answer(request, 5);
    expect(await first).toBe(5);
    expect(server.connections).toHaveLength(1);
  });

  it('a server that never answers: a StreamTimeoutError at the deadline, nothing before it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const client = connect({ requestTimeoutMs: 5000, pingIntervalMs: 0 });
    let settled = false;
    const asked = client.request('time', []).finally(() => {
      settled = true;
    });
    asked.catch(() => undefined);
    const connection = await server.nextConnection();
    await connection.next();
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await asked.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamTimeoutError);
    expect(error).toMatchObject({ kind: 'timeout', method: 'time', timeoutMs: 5000, sent: true });
  });

  it('a per-request deadline and an AbortSignal end it too', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const client = connect({ pingIntervalMs: 0 });
    const short = client.request('time', [], { timeoutMs: 100 });
    short.catch(() => undefined);
    const controller = new AbortController();
    const aborted = client.request('time', [], { signal: controller.signal });
    aborted.catch(() => undefined);
    const connection = await server.nextConnection();
    await connection.next();
    await connection.next();
    await vi.advanceTimersByTimeAsync(100);
    await expect(short).rejects.toMatchObject({ kind: 'timeout', timeoutMs: 100 });
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
  });

  it('close() ends requests in flight with a StreamClosedError and refuses later ones', async () => {
    const client = connect();
    const asked = client.request('time', []);
    const connection = await server.nextConnection();
    await connection.next();
    await client.close();
    await expect(asked).rejects.toBeInstanceOf(StreamClosedError);
    await expect(client.request('time', [])).rejects.toBeInstanceOf(StreamClosedError);
    expect(await connection.closed).toBeGreaterThan(0);
  });

  it('refuses what is not a request: subscribing, authorizing, an unknown method', async () => {
    const client = connect();
    const untyped = client.request as (method: string, params: unknown) => Promise<unknown>;
    for (const method of ['depth_subscribe', 'authorize', 'no_such_method']) {
      await expect(untyped(method, [])).rejects.toBeInstanceOf(ConfigurationError);
    }
    expect(server.connections).toHaveLength(0);
  });
});
