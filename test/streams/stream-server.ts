// A real WebSocket server on 127.0.0.1 for the stream client's tests (`ws`): it records what each
// connection receives and sends what the test tells it to, so nothing is mocked and every order
// comes from a signal (a message arrived, a connection opened or closed), never from a sleep.
// Pings are answered by default, so that only the keepalive's own tests see them.
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface Received {
  readonly id: unknown;
  readonly method: string;
  readonly params: unknown;
}

/** A queue whose `next()` waits for the next item. */
class Queue<Item> {
  private readonly items: Item[] = [];
  private readonly waiters: ((item: Item) => void)[] = [];

  push(item: Item): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }

  next(): Promise<Item> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  get length(): number {
    return this.items.length;
  }
}

export class ServerConnection {
  /** Every request received, pings included, in order. */
  readonly received: Received[] = [];
  /** Resolves with the close code once the connection has closed. */
  readonly closed: Promise<number>;
  private readonly queue = new Queue<Received>();
  private readonly socket: WebSocket;

  constructor(socket: WebSocket, answerPings: boolean) {
    this.socket = socket;
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Received;
      this.received.push(message);
      if (answerPings && message.method === 'ping') this.answer(message, 'pong');
      else this.queue.push(message);
    });
  }

  /** The next request received (pings too, unless they are answered by themselves). */
  next(): Promise<Received> {
    return this.queue.next();
  }

  /** The next request of `method`; requests of other methods before it are skipped. */
  async nextOf(method: string): Promise<Received> {
    for (;;) {
      const message = await this.next();
      if (message.method === method) return message;
    }
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  answer(request: Received, result: unknown): void {
    this.send({ id: request.id, result, error: null });
  }

  confirm(request: Received): void {
    this.answer(request, { status: 'success' });
  }

  refuse(request: Received, error: unknown): void {
    this.send({ id: request.id, result: null, error });
  }

  update(method: string, params: unknown): void {
    this.send({ id: null, method, params });
  }

  /** Closes with a close frame. */
  close(code = 1000): void {
    this.socket.close(code);
  }

  /** Drops the TCP connection without a close frame, as a network failure does. */
  terminate(): void {
    this.socket.terminate();
  }
}

export interface StreamServer {
  readonly url: string;
  readonly connections: ServerConnection[];
  /** How many WebSocket handshakes were refused while `accepting` was false. */
  readonly refused: number;
  /** Whether handshakes are accepted (true) or answered 503 (false). */
  accepting: boolean;
  /** The next connection to arrive (or the first one not yet taken). */
  nextConnection(): Promise<ServerConnection>;
  close(): Promise<void>;
}

export async function startStreamServer(options: { answerPings?: boolean } = {}): Promise<StreamServer> {
  const connections: ServerConnection[] = [];
  const arrivals = new Queue<ServerConnection>();
  const state = { accepting: true, refused: 0 };
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: (_, done) => {
      if (!state.accepting) state.refused++;
      done(state.accepting, 503);
    },
  });
  server.on('connection', (socket) => {
    const connection = new ServerConnection(socket, options.answerPings ?? true);
    connections.push(connection);
    arrivals.push(connection);
  });
  await new Promise<void>((resolve) => server.on('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    connections,
    get refused() {
      return state.refused;
    },
    get accepting() {
      return state.accepting;
    },
    set accepting(value: boolean) {
      state.accepting = value;
    },
    nextConnection: () => arrivals.next(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** Records every hook event under its hook's name, and resolves waits for the next of a name. */
export function hookRecorder() {
  const events: ({ name: string } & Record<string, unknown>)[] = [];
  const waiting = new Map<string, ((event: Record<string, unknown>) => void)[]>();
  const record =
    (name: string) =>
    (event: object): void => {
      events.push({ name, ...event });
      const waiters = waiting.get(name);
      const waiter = waiters?.shift();
      waiter?.(event as Record<string, unknown>);
    };
  const hooks = {
    open: [record('open')],
    close: [record('close')],
    reconnect: [record('reconnect')],
    authorize: [record('authorize')],
    resubscribe: [record('resubscribe')],
    resnapshot: [record('resnapshot')],
    error: [record('error')],
  };
  return {
    hooks,
    events,
    names: () => events.map((event) => event.name),
    /** Resolves with the next event of `name` that is recorded from now on. */
    next(name: string): Promise<Record<string, unknown>> {
      return new Promise((resolve) => {
        const waiters = waiting.get(name) ?? [];
        waiters.push(resolve);
        waiting.set(name, waiters);
      });
    },
  };
}
