// One WebSocket connection to the sandbox's streams: its requests, each answered by the channel
// the documents file its method under (methods.ts), its authorization, its subscriptions (the
// feeds it holds per channel) and its updates, at most one a channel per the channel's interval.
// Failures are the operator's error objects (failures.ts).
import type { WebSocket } from 'ws';
import type { StreamChannelName } from '../../generated/streams.ts';
import { streamRateLimits } from '../../generated/streams.ts';
import type { AccountState } from '../state.ts';
import type { ChannelSources, Feed, StreamView } from './channel.ts';
import { isRefusal, type StreamError, streamErrors } from './failures.ts';
import { streamMethods, streamUpdates } from './methods.ts';
import { isValidRequest } from './request-schemas.ts';

/** What a connection needs of the sandbox: the view of its state now, and its clock. */
export interface StreamHost {
  view(account: string | undefined): StreamView;
  /** The sandbox's clock, milliseconds. */
  clock(): number;
}

/**
 * The requests a connection may send per window: one connection carries both documents' channels,
 * so the stricter of their limits (they state the same; observed upstream, counted per connection).
 */
const { requests: requestLimit, windowSeconds } = Object.values(streamRateLimits).reduce((stricter, limit) =>
  limit.requests / limit.windowSeconds < stricter.requests / stricter.windowSeconds ? limit : stricter,
);

interface Subscription {
  feeds: readonly Feed[];
  /** When an update of the channel was last sent, on the real clock (ms): the interval counts from there. */
  sentAt: number;
}

const confirmed = { status: 'success' } as const;

export class StreamConnection {
  readonly #socket: WebSocket;
  readonly #host: StreamHost;
  readonly #sources: ChannelSources;
  #account: string | undefined;
  readonly #subscriptions = new Map<StreamChannelName, Subscription>();
  /** The sandbox times of the requests within the rate limit's window. */
  #requests: number[] = [];
  /** When the client was last heard from, on the sandbox's clock (ms). */
  lastActivity: number;

  constructor(socket: WebSocket, host: StreamHost, sources: ChannelSources) {
    this.#socket = socket;
    this.#host = host;
    this.#sources = sources;
    this.lastActivity = host.clock();
  }

  /** The id of the account `authorize` bound the connection to. */
  get account(): string | undefined {
    return this.#account;
  }

  get open(): boolean {
    return this.#socket.readyState === this.#socket.OPEN;
  }

  close(code: number, reason: string): void {
    this.#socket.close(code, reason);
  }

  #send(message: unknown): void {
    if (this.open) this.#socket.send(JSON.stringify(message));
  }

  /** Carries out one request: a text frame holding a JSON value. */
  request(text: string): void {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      // Observed upstream: a frame that is not JSON ends the connection at once. The close code
      // is not shown: 1007, a text frame whose data its type cannot hold (as the stream mock).
      this.close(1007, 'not JSON');
      return;
    }
    const request =
      typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
    const id = Number.isInteger(request.id) ? request.id : null;
    const answer = this.#answer(request, payload);
    if ('refused' in answer) {
      this.#send({ id, result: null, error: answer.refused });
      return;
    }
    this.#send({ id, result: answer.result, error: null });
    // What a subscriber gets at once follows the confirmation.
    if (answer.subscribed)
      this.#update(answer.subscribed, this.#host.view(this.#account), performance.now(), true);
  }

  /** A request's answer: its result, or the error it is refused with. */
  #answer(
    request: Record<string, unknown>,
    payload: unknown,
  ): { result: unknown; error: null; subscribed?: StreamChannelName } | { refused: StreamError } {
    const now = this.#host.clock();
    this.lastActivity = now;
    this.#requests = this.#requests.filter((at) => at > now - windowSeconds * 1000);
    if (this.#requests.length >= requestLimit) return { refused: streamErrors.tooManyRequests };
    this.#requests.push(now);
    const facts = typeof request.method === 'string' ? streamMethods.get(request.method) : undefined;
    if (!facts) return { refused: streamErrors.methodNotFound };
    // An account channel refuses a connection not authorized whatever it asks (observed upstream).
    if (facts.requiresAuthorization && this.#account === undefined)
      return { refused: streamErrors.requireAuthentication };
    if (!isValidRequest(facts.method, payload)) return { refused: streamErrors.invalidArgument };
    const source = this.#sources[facts.channel];
    const params = request.params as never[];
    const view = this.#host.view(this.#account);
    if (facts.kind === 'query') {
      const session = { authorize: (account: AccountState) => (this.#account = account.id) };
      const result = source.query?.(facts.method, params, view, session);
      if (result === undefined) return { refused: streamErrors.methodNotFound };
      return isRefusal(result) ? result : { result, error: null };
    }
    const held = this.#subscriptions.get(facts.channel)?.feeds ?? [];
    if (facts.kind === 'unsubscribe') {
      const kept = source.unsubscribe?.(params, held) ?? [];
      if (kept.length > 0) this.#subscriptions.set(facts.channel, { feeds: kept, sentAt: 0 });
      else this.#subscriptions.delete(facts.channel);
      return { result: confirmed, error: null };
    }
    const feeds = source.subscribe?.(params, view, held);
    if (feeds === undefined) return { refused: streamErrors.methodNotFound };
    if (isRefusal(feeds)) return feeds;
    this.#subscriptions.set(facts.channel, { feeds, sentAt: 0 });
    return { result: confirmed, error: null, subscribed: facts.channel };
  }

  /** Sends each channel's updates that are due: as things happen, or once its interval has passed. */
  update(view: StreamView, realNow: number): void {
    for (const channel of this.#subscriptions.keys()) this.#update(channel, view, realNow, false);
  }

  #update(channel: StreamChannelName, view: StreamView, realNow: number, always: boolean): void {
    const subscription = this.#subscriptions.get(channel);
    const update = streamUpdates.get(channel);
    if (!subscription || !update) return;
    if (!always && realNow - subscription.sentAt < update.intervalMs) return;
    let due = subscription.feeds.flatMap((feed) => feed.next(view));
    if (due.length === 0 && !always && update.intervalMs > 0)
      due = subscription.feeds.flatMap((feed) => feed.again?.(view) ?? []);
    for (const params of due) this.#send({ id: null, method: update.method, params });
    if (due.length > 0) subscription.sentAt = realNow;
  }
}
