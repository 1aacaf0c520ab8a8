// `txc watch <channel> [market]`: subscribes with the stream client (streams/) and prints each
// update until Ctrl-C. Piped, or with --json, each update's params go out as one line of JSON
// (NDJSON), as the server sent them (amounts stay strings); writing waits while the pipe is full,
// so a reader that falls far behind ends the watch with the client's overflow error rather than
// growing memory. On a terminal it is a live view (live-view.ts): the depth channel as a book kept
// from its updates (book-view.ts), every other channel as a table of its newest updates
// (table-view.ts). Ctrl-C (SIGINT) or SIGTERM leaves the subscription (the client unsubscribes),
// closes the connection, puts the terminal back and exits 0, as `npm start` and the sandbox do; a
// reader gone from the pipe ends it the same way. A connection that never opens, a subscription
// refused, or a token that cannot be had ends it with one line and the exit code of its kind
// (failure.ts). After a drop the client reconnects and subscribes again by itself, and txc says so.
import { createPrivateClient, type PrivateClient } from '../../index.ts';
import {
  createStreamClient,
  type StreamClient,
  type StreamHooks,
  type TokenOption,
} from '../../streams/index.ts';
import { privateClientOptions } from '../connection.ts';
import { exitCodes } from '../exit-codes.ts';
import type { FieldFlag } from '../flags.ts';
import { wantsJson } from '../output/write.ts';
import { bookBody } from './book-view.ts';
import type { WatchChannel } from './channels.ts';
import { failureExitCode, failureLine } from './failure.ts';
import { type LiveBody, LiveView, type Subscribe } from './live-view.ts';
import { LiveScreen } from './screen.ts';
import { type StreamFlags, streamTarget } from './stream-url.ts';
import { tableBody } from './table-view.ts';
import { tokenOperation, tokenOperationId, tokenProvider } from './token.ts';

export interface WatchFlags extends StreamFlags {
  json?: boolean;
}

/** The channel whose live view is a book: the one the stream client keeps a book from. */
const bookChannel = 'depth';

/** Resolves once `stream` drains, closes, or `signal` aborts. */
function drained(stream: NodeJS.WriteStream, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The URL as shown: without a query, which could carry what is not for a screen. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** A channel's live body: the book for depth, the newest rows for the others. */
function liveBody(
  channel: WatchChannel,
  params: readonly unknown[],
  notice: (text: string) => void,
): LiveBody {
  if (channel.channel !== bookChannel) return tableBody(channel.channel, params, channel.updateShape);
  // The book's options are the subscribe's positions of the same names.
  const named = <Value>(name: string) => params[channel.params.names.indexOf(name)] as Value;
  return bookBody(
    { market: named('market'), limit: named('limit'), priceInterval: named('price_interval') },
    notice,
  );
}

/** The private client and token provider of an account channel; a line and exit code if none. */
function accountToken(
  subject: string,
  values: WatchFlags,
): { http: PrivateClient; token: TokenOption } | { exitCode: number } {
  const operation = tokenOperation();
  if (!operation) {
    process.stderr.write(
      `txc: watch ${subject}: an account channel needs a WebSocket token, and the documents this txc was built from have no ${tokenOperationId} to get one\n`,
    );
    return { exitCode: exitCodes.other };
  }
  const http = createPrivateClient(privateClientOptions(values));
  return { http, token: tokenProvider(http, operation) };
}

export async function runWatch(
  channel: WatchChannel,
  argument: readonly string[],
  values: WatchFlags & Record<string, unknown>,
  attributeOf: (flag: FieldFlag) => string,
): Promise<number> {
  const subject = [channel.command, ...argument].join(' ');
  const built = channel.params.build({ argument, values, attributeOf });
  if ('violation' in built) {
    const { message, flag } = built.violation;
    process.stderr.write(`txc: invalid-request: ${message}${flag ? ` (${flag})` : ''}\n`);
    return exitCodes.usage;
  }
  const target = streamTarget(values);
  const account = channel.requiresAuthorization ? accountToken(subject, values) : undefined;
  if (account && 'exitCode' in account) return account.exitCode;

  const stop = new AbortController();
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
    stop.abort();
  };
  const json = wantsJson(values.json);
  let view: LiveView | undefined;
  // On a terminal the view's status line; piped, a line on stderr (stdout is the updates').
  const status = (text: string) => {
    if (view) view.status(text);
    else process.stderr.write(`txc: watch ${subject}: ${text}\n`);
  };
  const notice = (text: string) => {
    if (view) view.note(text);
    else process.stderr.write(`txc: watch ${subject}: ${text}\n`);
  };
  let opened = false;
  const hooks: StreamHooks = {
    open: [
      () => {
        opened = true;
        view?.status('connected');
      },
    ],
    // A connection that never opened is not tried for ever: its first failure ends the watch.
    error: [
      ({ error }) => {
        if (!opened && error.kind === 'connection') fail(error);
      },
    ],
    // After a drop, once the watch was connected: before that, or once it ends, nobody waits.
    reconnect: [
      ({ delayMs, errorKind }) => {
        if (opened && !stop.signal.aborted)
          status(`connection lost (${errorKind}); reconnecting in ${delayMs} ms`);
      },
    ],
    resubscribe: [() => notice('connected again, and subscribed again')],
  };
  let client: StreamClient;
  try {
    client = createStreamClient({ ...target, ...(account && { token: account.token }), hooks });
  } catch (error) {
    await account?.http.close();
    throw error;
  }
  const subscribe: Subscribe = (name, params, options) =>
    (client.subscribe as unknown as Subscribe)(name, params, { ...options, signal: stop.signal });

  const onSignal = () => stop.abort();
  // A reader that leaves the pipe (`| head`) ends the watch as Ctrl-C does.
  const onOutputError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') stop.abort();
    else fail(error);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.stdout.on('error', onOutputError);
  try {
    if (json) {
      for await (const update of subscribe(channel.channel, built.params)) {
        if (!process.stdout.write(`${JSON.stringify(update)}\n`)) await drained(process.stdout, stop.signal);
      }
    } else {
      const body = liveBody(channel, built.params, notice);
      const title = `txc watch ${subject} · ${shownUrl(client.options.url)}`;
      view = new LiveView(new LiveScreen(process.stdout), title, body.render);
      view.start();
      const shown = view;
      await body.run(subscribe, () => shown.updated());
    }
  } catch (error) {
    fail(error);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await client.close();
    await account?.http.close();
    view?.stop();
    process.stdout.off('error', onOutputError);
  }
  if (failure === undefined) return exitCodes.success;
  process.stderr.write(`${failureLine(subject, failure)}\n`);
  return failureExitCode(failure);
}
