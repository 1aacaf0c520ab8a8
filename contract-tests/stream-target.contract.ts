// Where the stream part connects, for each target (support/stream-target.ts): the sandbox's own
// origin at /ws, checked only once it takes the upgrade there; a URL target only through
// CONTRACT_STREAM_TARGET, with CONTRACT_STREAM_TOKEN for the account channels. A local server
// stands for each: the stream mock serves /ws at its origin as the sandbox is to, and the checks
// pass against it when it is named the way the sandbox is. Nothing leaves 127.0.0.1.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractVariables } from '../model/environment.ts';
import { loadStreamCatalog } from '../model/stream-catalog.ts';
import { type StreamMock, startStreamMock } from '../scripts/stream-mock.ts';
import { checkRequests, checkSubscribeThenUpdate } from './support/stream-checks.ts';
import { startStreamTarget, streamUrlOf } from './support/stream-target.ts';

const catalog = loadStreamCatalog();
let mock: StreamMock;
let plain: Server;
let plainOrigin = '';

beforeAll(async () => {
  mock = await startStreamMock({ pace: 0.25, catalog });
  // An HTTP server with no stream endpoint: the sandbox before it serves /ws.
  plain = createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"message":"not found"}');
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainOrigin = `http://127.0.0.1:${(plain.address() as { port: number }).port}`;
});

afterAll(async () => {
  await mock.close();
  await new Promise((resolve) => plain.close(resolve));
});

describe('the stream target', () => {
  it("is a server's origin at /ws, ws or wss as the origin is http or https", () => {
    expect(streamUrlOf('http://127.0.0.1:4012')).toBe('ws://127.0.0.1:4012/ws');
    expect(streamUrlOf('https://sandbox.example/')).toBe('wss://sandbox.example/ws');
  });

  it('of the sandbox: <its origin>/ws, and the checks pass against a server there', async () => {
    const origin = `http://127.0.0.1:${mock.port}`;
    const { context, close } = await startStreamTarget('sandbox', origin, {});
    await close();
    expect(context).toEqual({ target: 'sandbox', url: mock.url, mock: false });
    const depth = catalog.channels.find((channel) => channel.name === 'depth');
    if (!depth) throw new Error('no depth channel');
    expect(await checkRequests(context, catalog, depth)).toEqual([]);
    const subscribe = depth.requests.find((request) => request.role === 'subscribe');
    const example = subscribe?.message.examples[0];
    if (!subscribe || !example) throw new Error('no depth subscribe example');
    expect(await checkSubscribeThenUpdate(context, catalog, depth, subscribe, example)).toEqual([]);
  });

  it('of a sandbox without /ws: not run, saying why', async () => {
    const { context } = await startStreamTarget('sandbox', plainOrigin, {});
    expect(context.url).toBeUndefined();
    expect(context.notRun).toBe(
      `the sandbox serves no stream endpoint at ${streamUrlOf(plainOrigin)} (HTTP 404 instead of an upgrade)`,
    );
  });

  it('of a URL target: only the one given, with the token given', async () => {
    const without = await startStreamTarget('https://staging.example', undefined, {});
    expect(without.context.url).toBeUndefined();
    expect(without.context.notRun).toContain(`--stream-target (${contractVariables.streamTarget})`);
    const given = await startStreamTarget('https://staging.example', undefined, {
      [contractVariables.streamTarget]: mock.url,
      [contractVariables.streamToken]: 'a-token',
    });
    expect(given.context).toEqual({ target: mock.url, url: mock.url, mock: false, token: 'a-token' });
    // Public channels only without a token.
    const publicOnly = await startStreamTarget('mock', undefined, {
      [contractVariables.streamTarget]: mock.url,
    });
    expect(publicOnly.context.token).toBeUndefined();
  });

  it('of the mocks: a stream mock of its own, with a token it takes, stopped by close', async () => {
    const { context, close } = await startStreamTarget('mock', undefined, {});
    expect(context).toMatchObject({ target: 'mock', mock: true });
    expect(context.token).toBeDefined();
    const service = catalog.channels.find((channel) => channel.name === 'service');
    if (!service) throw new Error('no service channel');
    expect(await checkRequests(context, catalog, service)).toEqual([]);
    await close();
    const after = await checkRequests(context, catalog, service);
    expect(after.join('\n')).toMatch(
      /^\[reply_matches_schema\] the stream endpoint ws:\/\/127\.0\.0\.1:\d+\/ws could not be connected to: /,
    );
  });
});
