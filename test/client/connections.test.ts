// The default transport keeps its connections: one request on each at a time, idle ones reused,
// a failed one replaced, all of them closed with the client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrivateClient } from '../../src/index.ts';
import { type Latch, latch } from './latch.ts';
import { mainBalancePath } from './paths.ts';

let server: Server;
let url: string;
const sockets: Socket[] = [];
let inFlight = 0;
let hangUpNext = false;
let mostInFlight = 0;
/** While set, every answer waits until the latch's count of requests is on the server at once. */
let holdUntil: Latch | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    request.resume();
    request.on('end', async () => {
      await holdUntil?.arrive();
      inFlight--;
      if (hangUpNext) {
        hangUpNext = false;
        request.socket.destroy();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const newClient = () =>
  createPrivateClient({
    apiKey: 'connections-key',
    apiSecret: 'connections-secret',
    baseUrl: url,
    rateLimit: false,
  });

it('calls one after another share one connection', async () => {
  const before = sockets.length;
  const client = newClient();
  for (let i = 0; i < 10; i++) expect((await client.POST(mainBalancePath)).error).toBeUndefined();
  expect(sockets.length - before).toBe(1);
  await client.close();
});

it('concurrent calls each have a connection, reused by the next burst', async () => {
  const before = sockets.length;
  mostInFlight = 0;
  const client = newClient();
  // No answer leaves the server before all eight calls are on it: a client that sent them one
  // connection at a time would never get its first answer (and the test would hit its limit).
  const burst = async () => {
    holdUntil = latch(8);
    const results = await Promise.all(Array.from({ length: 8 }, () => client.POST(mainBalancePath)));
    holdUntil = undefined;
    for (const { error } of results) expect(error).toBeUndefined();
  };
  await burst();
  expect(mostInFlight).toBe(8);
  const opened = sockets.length - before;
  expect(opened).toBe(8);
  await burst();
  await burst();
  expect(sockets.length - before).toBe(opened);
  await client.close();
});

it('a connection the server drops is replaced, and closing the client closes the rest', async () => {
  const before = sockets.length;
  const client = newClient();
  expect((await client.POST(mainBalancePath)).error).toBeUndefined();
  hangUpNext = true;
  expect((await client.POST(mainBalancePath)).error?.kind).toBe('transport');
  expect((await client.POST(mainBalancePath)).error).toBeUndefined();
  expect((await client.POST(mainBalancePath)).error).toBeUndefined();
  // The dropped connection and the one that replaced it.
  const mine = sockets.slice(before);
  expect(mine.length).toBe(2);
  await client.close();
  await expect.poll(() => mine.every((socket) => socket.destroyed)).toBe(true);
});
