// The loopback server the stream contenders read: a `ws` server on 127.0.0.1, an ephemeral port, at
// the documents' address, speaking the depth channel as the documents describe it. It runs in its
// own child process (its own event loop and core, as bench/server.ts does for HTTP), reports its
// port over IPC and exits when its parent disconnects or tells it to stop.
//
// Each consumer connects with `?consumer=<contender id>` (the query is the bench's; the protocol
// does not see it). A `depth_subscribe` is answered as the documents' example answers it, followed
// by a whole book, and the parent is told. The parent then asks for phases on one consumer's
// connection, each a whole book and then changes (bench/depth-stream.ts):
// - `flood`: as fast as the consumer takes them (a batch at a time, written to the socket in one
//   go, the next once the last is written out), for the rate a consumer parses and applies them;
// - `paced`: one change every `intervalMs`, each one's send time kept (the system's monotonic
//   clock, which every process reads alike), for the delivery latency.
// Each phase ends with the server's book, for the parent to compare with the consumer's.

import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { loadStreamCatalog } from '../model/stream-catalog.ts';
import { monotonicMicros } from './clock.ts';
import { type BookSides, type DepthMarket, DepthStream } from './depth-stream.ts';

export interface PhaseCommand {
  type: 'flood' | 'paced';
  consumer: string;
  seed: number;
  phase: number;
  /** Changes after the whole book. */
  updates: number;
  /** `paced`: milliseconds between two changes. */
  intervalMs?: number;
}

export type ServerMessage =
  | { type: 'listening'; port: number; address: string }
  | { type: 'subscribed'; consumer: string }
  | { type: 'phase'; phase: number; book: BookSides; sentAt?: Float64Array }
  | { type: 'failed'; phase: number; reason: string };

/** Frames written before waiting for them to go out: enough to keep the socket busy, not the memory. */
const floodBatch = 256;

/** A consumer's WebSocket, and the TCP socket under it (the upgrade request's), to batch writes on. */
interface Consumer {
  socket: WebSocket;
  tcp: Duplex;
}

const catalog = loadStreamCatalog();
const depth = catalog.channels.find((channel) => channel.name === 'depth');
const subscribeRequest = depth?.requests.find((request) => request.role === 'subscribe');
const unsubscribeRequest = depth?.requests.find((request) => request.role === 'unsubscribe');
const confirmed = subscribeRequest?.reply?.examples[0]?.payload as Record<string, unknown> | undefined;
const pong = catalog.keepalive.reply?.examples[0]?.payload as Record<string, unknown> | undefined;
if (!subscribeRequest || !confirmed || !pong)
  throw new Error('the documents show no depth subscribe or pong');

/** The market streamed, as the parent gives it (the first argument, JSON). */
const market = JSON.parse(process.argv[2] ?? 'null') as DepthMarket;
const report = (message: ServerMessage) => process.send?.(message);
const consumers = new Map<string, Consumer>();

/** What a subscribe is answered with, then the whole book the documents say comes first. */
function subscribed(socket: WebSocket, consumer: string, id: unknown, params: unknown): void {
  const asked = Array.isArray(params) ? params[0] : undefined;
  if (asked !== market.name) {
    socket.send(
      JSON.stringify({ id, result: null, error: { code: 1, message: `no market ${String(asked)}` } }),
    );
    return;
  }
  socket.send(JSON.stringify({ ...confirmed, id }));
  // Phase 0's whole book: no phase of the parent's uses it.
  socket.send(new DepthStream({ market, seed: 0, phase: 0 }).wholeBook());
  report({ type: 'subscribed', consumer });
}

function receive(socket: WebSocket, consumer: string, data: unknown): void {
  let request: { id?: unknown; method?: unknown; params?: unknown };
  try {
    request = JSON.parse(String(data));
  } catch {
    socket.close(1007, 'not JSON');
    return;
  }
  const { id, method, params } = request;
  if (method === subscribeRequest?.method) {
    subscribed(socket, consumer, id, params);
  } else if (method === catalog.keepalive.method) {
    socket.send(JSON.stringify({ ...pong, id }));
  } else if (method === unsubscribeRequest?.method) {
    // The documents do not show this answer; the subscribe's lets a client waiting on it go on.
    socket.send(JSON.stringify({ ...confirmed, id }));
  } else {
    socket.send(
      JSON.stringify({ id, result: null, error: { code: 4, message: `no method ${String(method)}` } }),
    );
  }
}

/** Resolves once everything sent so far is written out to the socket. */
const flushed = (socket: WebSocket, frame: string) =>
  new Promise<void>((resolve, reject) => socket.send(frame, (error) => (error ? reject(error) : resolve())));

/** The frames of one phase, made before the first is sent, so that making them costs no send. */
function framesOf(command: PhaseCommand): { frames: string[]; book: BookSides } {
  const stream = new DepthStream({ market, seed: command.seed, phase: command.phase });
  const frames = [stream.wholeBook()];
  for (let index = 0; index < command.updates; index++) frames.push(stream.nextChange());
  return { frames, book: stream.book() };
}

/** The same seed and phase give the same frames: made once a round, sent to every contender. */
const made = new Map<string, { frames: string[]; book: BookSides }>();
/** A round's flood and paced frames. */
const keptFrames = 2;
function cachedFrames(command: PhaseCommand) {
  const key = `${command.seed}/${command.phase}/${command.updates}`;
  let entry = made.get(key);
  if (!entry) {
    entry = framesOf(command);
    made.set(key, entry);
    const [oldest] = made.keys();
    if (made.size > keptFrames && oldest !== undefined) made.delete(oldest);
  }
  return entry;
}

/**
 * Sends every frame, a batch at a time: the batch's frames are held in the TCP socket (cork) and
 * written together, so that the server spends no system call per frame and outpaces a consumer.
 */
async function flood({ socket, tcp }: Consumer, frames: readonly string[]): Promise<void> {
  for (let start = 0; start < frames.length; start += floodBatch) {
    const end = Math.min(frames.length, start + floodBatch);
    tcp.cork();
    for (let index = start; index < end - 1; index++) socket.send(frames[index] as string);
    const written = flushed(socket, frames[end - 1] as string);
    tcp.uncork();
    await written;
  }
}

function paced(socket: WebSocket, frames: readonly string[], intervalMs: number): Promise<Float64Array> {
  const sentAt = new Float64Array(frames.length);
  return new Promise((resolve) => {
    let next = 0;
    const sendNext = () => {
      sentAt[next] = monotonicMicros();
      socket.send(frames[next] as string);
      next++;
      if (next < frames.length) setTimeout(sendNext, intervalMs);
      else resolve(sentAt);
    };
    sendNext();
  });
}

async function runPhase(command: PhaseCommand): Promise<void> {
  const consumer = consumers.get(command.consumer);
  const socket = consumer?.socket;
  if (!consumer || !socket || socket.readyState !== socket.OPEN) {
    report({ type: 'failed', phase: command.phase, reason: `no open connection of ${command.consumer}` });
    return;
  }
  const { frames, book } = cachedFrames(command);
  try {
    if (command.type === 'flood') {
      await flood(consumer, frames);
      report({ type: 'phase', phase: command.phase, book });
    } else {
      const sentAt = await paced(socket, frames, command.intervalMs ?? 1);
      report({ type: 'phase', phase: command.phase, book, sentAt });
    }
  } catch (error) {
    report({ type: 'failed', phase: command.phase, reason: String(error) });
  }
}

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: catalog.address });
server.on('connection', (socket, request) => {
  const consumer = new URL(request.url ?? '/', 'ws://127.0.0.1').searchParams.get('consumer') ?? '';
  consumers.set(consumer, { socket, tcp: request.socket });
  socket.on('message', (data) => receive(socket, consumer, data));
  socket.on('close', () => {
    if (consumers.get(consumer)?.socket === socket) consumers.delete(consumer);
  });
});

const stop = () => {
  for (const socket of server.clients) socket.terminate();
  server.close();
  process.exit(0);
};
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('message', (message: PhaseCommand | 'stop') => {
  if (message === 'stop') stop();
  else void runPhase(message);
});
server.on('listening', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  report({ type: 'listening', port, address: catalog.address });
});
