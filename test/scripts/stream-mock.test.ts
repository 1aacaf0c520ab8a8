// The stream mock (scripts/stream-mock.ts) answers as the AsyncAPI documents say: every request
// example with its reply example, a subscribe with a confirmation and then the channel's updates
// (the request's market put in), ping and time, and refusals of what it cannot take. Order comes
// from the messages: a wait ends on the message it waits for, never on a sleep.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { StreamConnection } from '../../contract-tests/support/stream-connection.ts';
import { isRecord, type JsonRecord } from '../../model/json.ts';
import { loadStreamCatalog, type StreamRequestView } from '../../model/stream-catalog.ts';
import { isAddressInUse } from '../../scripts/port-in-use.ts';
import {
  refusalCodes,
  type StreamMock,
  startStreamMock,
  substitutedUpdates,
} from '../../scripts/stream-mock.ts';

const catalog = loadStreamCatalog();
const requests = catalog.channels.flatMap((channel) => channel.requests);
const authorize = requests.find((request) => request.role === 'authorize') as StreamRequestView;
const byMethod = (method: string) => catalog.request(method) as StreamRequestView;
const isAnswer = (message: unknown): message is JsonRecord => isRecord(message) && !('method' in message);

let mock: StreamMock;
const opened: StreamConnection[] = [];
beforeAll(async () => {
  mock = await startStreamMock({ pace: 0.05, catalog });
});
afterAll(async () => {
  for (const connection of opened) connection.close();
  await mock.close();
});

async function connect(): Promise<StreamConnection> {
  const connection = await StreamConnection.open(mock.url);
  opened.push(connection);
  return connection;
}

/** Sends `payload` and returns the next answer (a message without a method). */
async function ask(connection: StreamConnection, payload: unknown): Promise<JsonRecord> {
  const from = connection.received.length;
  connection.send(payload);
  const found = await connection.next(isAnswer, from);
  if (!found) throw new Error(`no answer to ${JSON.stringify(payload)}`);
  return found.message as JsonRecord;
}

const authorizeWith = (token: string) => ({
  ...(authorize.message.examples[0]?.payload as JsonRecord),
  params: [token, 'public'],
});

describe('the stream mock', () => {
  it('serves at /ws on 127.0.0.1, and says so to a request that is not an upgrade', async () => {
    expect(mock.url).toBe(`ws://127.0.0.1:${mock.port}${catalog.address}`);
    const response = await fetch(`http://127.0.0.1:${mock.port}/`);
    expect(response.status).toBe(426);
    expect(await response.text()).toContain('WebSocket endpoint at /ws');
  });

  it('answers every request example of every channel with its reply example, the id put in', async () => {
    const connection = await connect();
    expect((await ask(connection, authorizeWith('any token'))).error).toBeNull();
    let answered = 0;
    for (const request of requests) {
      for (const example of request.message.examples) {
        const payload = example.payload as JsonRecord;
        const answer = await ask(connection, { ...payload, id: 1000 + answered });
        answered += 1;
        expect(answer.id, `${request.method} ${example.name}`).toBe(1000 + answered - 1);
        expect(answer.error, `${request.method} ${example.name}`).toBeNull();
        // Where the documents show no answer (a public unsubscribe), its subscribe's.
        const reply =
          request.reply ??
          catalog.channels
            .find((channel) => channel.name === request.channel)
            ?.requests.find((candidate) => candidate.role === 'subscribe')?.reply;
        expect(reply, request.method).toBeDefined();
        expect(reply?.problems(answer), `${request.method} ${example.name}`).toEqual([]);
        expect({ ...answer, id: 0 }).toEqual({ ...(reply?.examples[0]?.payload as JsonRecord), id: 0 });
      }
    }
    expect(answered).toBe(requests.reduce((count, request) => count + request.message.examples.length, 0));
    expect(answered).toBeGreaterThan(40);
  });

  it('answers ping and time with their examples', async () => {
    const connection = await connect();
    for (const method of ['ping', 'time']) {
      const request = byMethod(method);
      const answer = await ask(connection, { id: 7, method, params: [] });
      expect(answer).toEqual({ ...(request.reply?.examples[0]?.payload as JsonRecord), id: 7 });
    }
  });

  it('confirms a subscribe, then pushes the updates, with the market it was asked for', async () => {
    const connection = await connect();
    const subscribe = byMethod('depth_subscribe');
    const answer = await ask(connection, {
      id: 5,
      method: 'depth_subscribe',
      params: ['BTC_USDT', 100, '0', true],
    });
    expect(answer).toEqual({ id: 5, result: { status: 'success' }, error: null });
    const channel = catalog.channels.find((candidate) => candidate.name === subscribe.channel);
    const update = channel?.updates[0];
    // Every example in turn, the first right after the confirmation, each valid and for BTC_USDT.
    let from = connection.received.indexOf(answer);
    for (const example of update?.message.examples ?? []) {
      const found = await connection.next(
        (message) => isRecord(message) && message.method === update?.method,
        from + 1,
      );
      expect(found).toBeDefined();
      from = found?.index ?? from;
      const pushed = found?.message as JsonRecord;
      expect(update?.message.problems(pushed)).toEqual([]);
      expect((pushed.params as unknown[]).at(-1)).toBe('BTC_USDT');
      expect({ ...pushed, params: (pushed.params as unknown[]).slice(0, -1) }).toEqual({
        ...(example.payload as JsonRecord),
        params: ((example.payload as JsonRecord).params as unknown[]).slice(0, -1),
      });
    }
  });

  it('pushes one update per market a list subscribe names', async () => {
    const connection = await connect();
    await ask(connection, { id: 6, method: 'lastprice_subscribe', params: ['BTC_USDT', 'DOGE_USDT'] });
    const markets = new Set<unknown>();
    let from = 0;
    while (markets.size < 2) {
      const found = await connection.next(
        (message) => isRecord(message) && message.method === 'lastprice_update',
        from,
      );
      if (!found) throw new Error('no lastprice_update');
      from = found.index + 1;
      markets.add(((found.message as JsonRecord).params as unknown[])[0]);
    }
    expect([...markets].sort()).toEqual(['BTC_USDT', 'DOGE_USDT']);
  });

  it('puts in only what matches by name and schema; else pushes the example as written', () => {
    const kline = catalog.channels.find((channel) => channel.name === 'kline');
    const update = kline?.updates[0];
    const example = update?.message.examples[0]?.payload;
    if (!update || !example) throw new Error('no kline update');
    // The candles name their market inside each candle: not a position of the params to fill.
    expect(substitutedUpdates(example, update, byMethod('candles_subscribe'), ['BTC_USDT', 60])).toEqual([
      example,
    ]);
  });

  it('stops the updates after an unsubscribe, while a second connection still gets them', async () => {
    const [leaving, staying] = [await connect(), await connect()];
    const isUpdate = (message: unknown) => isRecord(message) && message.method === 'market_update';
    for (const connection of [leaving, staying]) {
      const answer = await ask(connection, { id: 1, method: 'market_subscribe', params: ['ETH_BTC'] });
      expect(answer.error).toBeNull();
      expect(await connection.next(isUpdate)).toBeDefined();
    }
    expect((await ask(leaving, { id: 2, method: 'market_unsubscribe', params: [] })).id).toBe(2);
    const after = leaving.received.length;
    const first = await staying.next(isUpdate, staying.received.length);
    expect(await staying.next(isUpdate, (first?.index ?? 0) + 1)).toBeDefined();
    // What the mock sent the leaving connection before its answer to this ping has arrived by then.
    const pong = await ask(leaving, { id: 3, method: 'ping', params: [] });
    expect(pong.result).toBe('pong');
    expect(leaving.received.slice(after).filter(isUpdate)).toEqual([]);
  });

  it('refuses an unknown method, naming it, with the id it was sent', async () => {
    const connection = await connect();
    expect(await ask(connection, { id: 9, method: 'depth_subscrbe', params: [] })).toEqual({
      id: 9,
      result: null,
      error: {
        code: refusalCodes.methodNotFound,
        message: 'method not found: depth_subscrbe is not a request of the stream documents',
      },
    });
  });

  it('refuses a request that breaks its schema, naming the parameter', async () => {
    const connection = await connect();
    const answer = await ask(connection, {
      id: 10,
      method: 'depth_subscribe',
      params: ['BTC_USDT', 7, '0', true],
    });
    expect(answer.result).toBeNull();
    expect(answer.error).toMatchObject({ code: refusalCodes.invalidArgument });
    expect(String((answer.error as JsonRecord).message)).toMatch(
      /^invalid argument: depth_subscribe: params\.1: /,
    );
  });

  it('refuses an account channel before authorize, takes any non-empty token, refuses an empty one', async () => {
    const connection = await connect();
    const privateRequests = requests.filter(
      (request) =>
        catalog.channels.find((channel) => channel.name === request.channel)?.requiresAuthorization,
    );
    expect(privateRequests.length).toBeGreaterThan(10);
    for (const request of privateRequests) {
      const answer = await ask(connection, request.message.examples[0]?.payload);
      expect(answer.error, request.method).toMatchObject({ code: refusalCodes.requiresAuthorization });
      expect(String((answer.error as JsonRecord).message)).toContain(request.method);
    }
    expect((await ask(connection, authorizeWith(''))).error).toMatchObject({
      code: refusalCodes.invalidArgument,
    });
    expect(
      (await ask(connection, byMethod('balanceSpot_request').message.examples[0]?.payload)).error,
    ).toMatchObject({
      code: refusalCodes.requiresAuthorization,
    });
    expect((await ask(connection, authorizeWith('whatever'))).error).toBeNull();
    const balance = await ask(connection, byMethod('balanceSpot_request').message.examples[0]?.payload);
    expect(balance.error).toBeNull();
    expect(byMethod('balanceSpot_request').reply?.problems(balance)).toEqual([]);
  });

  it('closes a connection that sends a frame that is not JSON', async () => {
    const socket = new WebSocket(mock.url);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send('not json');
    expect(await closed).toBe(1007);
  });

  it('reports a port in use as the operating system does, for its caller to name', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const error = await startStreamMock({ port, catalog }).catch((caught: unknown) => caught);
    await new Promise((resolve) => holder.close(resolve));
    expect(isAddressInUse(error)).toBe(true);
  });
});
