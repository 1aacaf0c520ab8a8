// The tests' own minimal stream client (ws), independent of src/: it sends requests with
// numbered ids, pairs each answer with its request, keeps the updates in the order they came for
// the test to take one by one, and records every message both ways, so that a test can check each
// against the documents (stream-schemas.ts). It has no time limit of its own: a wait that never
// ends is the test's time limit.
import { WebSocket } from 'ws';

export interface StreamMessage {
  id: number | null;
  method?: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON messages, inspected by the tests
  params?: any;
  // biome-ignore lint/suspicious/noExplicitAny: JSON messages, inspected by the tests
  result?: any;
  error?: { code: number; message: string } | null;
}

interface Waiter {
  match: (message: StreamMessage) => boolean;
  resolve: (message: StreamMessage) => void;
}

export class TestStream {
  /** Every message received, in order. */
  readonly received: StreamMessage[] = [];
  /** The method of each request sent, by id: what its answer answers. */
  readonly sent = new Map<number, string>();
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #socket: WebSocket;
  /** Updates not taken yet, in the order they came. */
  #updates: StreamMessage[] = [];
  #answers = new Map<number, (message: StreamMessage) => void>();
  #waiters: Waiter[] = [];
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as StreamMessage;
      this.received.push(message);
      if (message.id !== null && this.#answers.has(message.id)) {
        const answer = this.#answers.get(message.id);
        this.#answers.delete(message.id);
        answer?.(message);
        return;
      }
      const waiter = this.#waiters.find((candidate) => candidate.match(message));
      if (waiter) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      } else {
        this.#updates.push(message);
      }
    });
  }

  static open(url: string): Promise<TestStream> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new TestStream(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends a request and resolves with its answer. */
  request(method: string, params: unknown): Promise<StreamMessage> {
    const id = this.#nextId++;
    this.sent.set(id, method);
    const answered = new Promise<StreamMessage>((resolve) => this.#answers.set(id, resolve));
    this.#socket.send(JSON.stringify({ id, method, params }));
    return answered;
  }

  /** Sends a frame as it is. */
  raw(text: string): void {
    this.#socket.send(text);
  }

  /** Takes the first update not taken yet of `method` that `match` accepts (waiting for it if need be). */
  next(method: string, match: (message: StreamMessage) => boolean = () => true): Promise<StreamMessage> {
    const wanted = (message: StreamMessage) => message.method === method && match(message);
    const index = this.#updates.findIndex(wanted);
    if (index >= 0) return Promise.resolve(this.#updates.splice(index, 1)[0] as StreamMessage);
    return new Promise((resolve) => this.#waiters.push({ match: wanted, resolve }));
  }

  /** The updates of `method` not taken yet (without waiting). */
  pending(method: string): StreamMessage[] {
    return this.#updates.filter((message) => message.method === method);
  }

  close(): Promise<{ code: number; reason: string }> {
    this.#socket.close();
    return this.closed;
  }
}
