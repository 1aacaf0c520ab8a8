// One WebSocket connection of a stream check: what was sent (in order, for the reproducer), every
// message received (parsed, in order) and a wait for the next message that matches, which ends
// with the message or, past the limit for a loaded machine, with undefined: the order of events
// comes from the messages themselves, never from a sleep.
import WebSocket from 'ws';
import { timeLimits } from '../../scripts/time-limits.ts';
import { StreamUnreachableError } from './stream-unreachable-error.ts';
import { describeTarget } from './variables.ts';

interface Waiter {
  from: number;
  matches: (message: unknown) => boolean;
  resolve: (found: { message: unknown; index: number } | undefined) => void;
  timer: NodeJS.Timeout;
}

export class StreamConnection {
  /** Each frame sent, as sent. */
  readonly sent: string[] = [];
  /** Each message received, parsed (a frame that is not JSON is kept as its text). */
  readonly received: unknown[] = [];
  /** Called with each message as it arrives, before any wait sees it. */
  onMessage: ((message: unknown) => void) | undefined;
  /** How long a wait lasts. */
  readonly waitMs: number;
  private readonly socket: WebSocket;
  private readonly waiters = new Set<Waiter>();
  private closedWith: string | undefined;

  private constructor(socket: WebSocket, waitMs: number) {
    this.socket = socket;
    this.waitMs = waitMs;
    socket.on('message', (data) => {
      const text = data.toString();
      let message: unknown = text;
      try {
        message = JSON.parse(text);
      } catch {
        // kept as text: a schema check names it
      }
      this.received.push(message);
      this.onMessage?.(message);
      for (const waiter of [...this.waiters]) this.settle(waiter);
    });
    socket.on('close', (code, reason) => {
      this.closedWith = `closed by the server (${code}${reason.length ? ` ${reason.toString()}` : ''})`;
      for (const waiter of [...this.waiters]) this.finish(waiter, undefined);
    });
    socket.on('error', () => {
      // the close event follows and ends every wait
    });
  }

  /**
   * Opens a connection to `url`; rejects with StreamUnreachableError when it cannot. Each wait
   * (the handshake, each `next`) lasts `waitMs` at most: the limit for a loaded machine by default.
   */
  static open(url: string, waitMs: number = timeLimits.streamMessageMs): Promise<StreamConnection> {
    return new Promise((resolve, reject) => {
      const shown = describeTarget(url);
      const socket = new WebSocket(url, { handshakeTimeout: waitMs });
      socket.once('open', () => resolve(new StreamConnection(socket, waitMs)));
      socket.once('unexpected-response', (_request, response) => {
        reject(
          new StreamUnreachableError(
            shown,
            `HTTP ${response.statusCode} instead of an upgrade`,
            response.statusCode,
          ),
        );
        response.resume();
        socket.terminate();
      });
      socket.once('error', (error) => reject(new StreamUnreachableError(shown, error.message)));
    });
  }

  /** Why the connection ended, if it did. */
  get closed(): string | undefined {
    return this.closedWith;
  }

  send(message: unknown): void {
    const text = JSON.stringify(message);
    this.sent.push(text);
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  /**
   * The first message received at index `from` or later that `matches`, with its index; undefined
   * when none arrives within the limit or the connection ends first.
   */
  next(
    matches: (message: unknown) => boolean,
    from = this.received.length,
  ): Promise<{ message: unknown; index: number } | undefined> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        from,
        matches,
        resolve,
        timer: setTimeout(() => this.finish(waiter, undefined), this.waitMs),
      };
      this.waiters.add(waiter);
      this.settle(waiter);
      if (this.closedWith !== undefined) this.finish(waiter, undefined);
    });
  }

  close(): void {
    for (const waiter of [...this.waiters]) this.finish(waiter, undefined);
    this.socket.terminate();
  }

  private settle(waiter: Waiter): void {
    for (let index = waiter.from; index < this.received.length; index++) {
      if (waiter.matches(this.received[index])) {
        this.finish(waiter, { message: this.received[index], index });
        return;
      }
    }
  }

  private finish(waiter: Waiter, found: { message: unknown; index: number } | undefined): void {
    if (!this.waiters.delete(waiter)) return;
    clearTimeout(waiter.timer);
    waiter.resolve(found);
  }
}
