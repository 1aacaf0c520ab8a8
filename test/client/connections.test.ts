// The default transport keeps its connections: one request on each at a time, idle ones reused,
// a failed one replaced, all of them closed with the client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrivateClient } from '../../src/index.ts';
import { mainBalancePath } from './paths.ts';

let server: Server;
let url: string;
const sockets: Socket[] = [];
let inFlight = 0;
let hangUpNext = false;
let mostInFlight = 0;
/** Answers are held until this many requests are in flight (a latch, not a delay), then all go. */
let holdUntil = 1;
const held: (() => void)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    request.resume();
    request.on('end', () => {
      held.push(() => {
        inFlight--;
        if (hangUpNext) {
          hangUpNext = false;
          request.socket.destroy();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
      if (held.length >= holdUntil) for (const answer of held.splice(0)) answer();
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
  // Nothing is answered until all eight are on the server: each must have a connection of its own.
  holdUntil = 8;
  const client = newClient();
  const burst = async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => client.POST(mainBalancePath)));
    for (const { error } of results) expect(error).toBeUndefined();
  };
  await burst();
  expect(mostInFlight).toBe(8);
  const opened = sockets.length - before;
  expect(opened).toBe(8);
  await burst();
  await burst();
  expect(sockets.length - before).toBe(opened);
  holdUntil = 1;
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
