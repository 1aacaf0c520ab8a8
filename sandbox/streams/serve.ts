// The sandbox's WebSocket streams, on its own HTTP server: an upgrade request for the documents'
// address (`/ws`) becomes a connection; any other is refused. Whenever the state changes (the
// server's StateChanges: every call, control request and catch-up with the clock) each
// connection's subscriptions read the state and send what is new; while a connection is open, a
// timer catches the sandbox up with its clock (the walk moves on without calls) and sends what an
// interval held back. A connection with no request for the documents' idle time, on the
// sandbox's clock, is closed.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { SandboxState } from '../state.ts';
import type { StateChanges } from '../state-changes.ts';
import { accountChannels } from './account-channels.ts';
import { BookSequences } from './book-sequences.ts';
import type { ChannelSources, StreamView } from './channel.ts';
import { StreamConnection } from './connection.ts';
import { marketChannels } from './market-channels.ts';
import { keepalive, streamAddress, streamUpdates } from './methods.ts';

/** Every channel of the documents, each with its source: a channel without one fails the type check. */
const sources: ChannelSources = { ...marketChannels, ...accountChannels };

export interface StreamSandbox {
  readonly state: SandboxState;
  /** The sandbox's clock, milliseconds. */
  clock(): number;
  /** Catches the state up with the clock; the state's changes are then announced. */
  settle(): void;
  readonly changes: StateChanges;
}

export interface Streams {
  close(): void;
}

/** The largest frame a client may send: far above any request of the documents. */
const maxPayload = 64 * 1024;
/** How often the timer runs: the shortest update interval of the documents. */
const tickMs = Math.min(
  ...[...streamUpdates.values()].map((update) => update.intervalMs).filter((ms) => ms > 0),
);

export function serveStreams(server: Server, sandbox: StreamSandbox): Streams {
  const sockets = new WebSocketServer({ noServer: true, maxPayload });
  const connections = new Set<StreamConnection>();
  const books = new BookSequences();
  let ticker: NodeJS.Timeout | undefined;

  const host = {
    clock: () => sandbox.clock(),
    view(account: string | undefined): StreamView {
      const { state } = sandbox;
      return {
        state,
        now: sandbox.clock(),
        account: account === undefined ? undefined : state.accounts.get(account),
        books,
      };
    },
  };

  function update() {
    books.stale();
    if (connections.size === 0) return;
    const realNow = performance.now();
    const idleSince = sandbox.clock() - keepalive.idleCloseSeconds * 1000;
    for (const connection of connections) {
      if (!connection.open) continue;
      if (connection.lastActivity < idleSince) {
        connection.close(1000, `no request for ${keepalive.idleCloseSeconds} seconds`);
        continue;
      }
      try {
        connection.update(host.view(connection.account), realNow);
      } catch (error) {
        // A fault of the streams ends that connection, never the call that changed the state.
        failed(connection, error);
      }
    }
  }

  function failed(connection: StreamConnection, error: unknown) {
    process.stderr.write(
      `sandbox streams: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    connection.close(1011, 'internal error');
  }
  const stopListening = sandbox.changes.listen(update);

  function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    const path = URL.canParse(request.url ?? '', 'http://sandbox.invalid')
      ? new URL(request.url ?? '', 'http://sandbox.invalid').pathname
      : undefined;
    if (path !== streamAddress) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (socket) => {
      const connection = new StreamConnection(socket, host, sources);
      connections.add(connection);
      socket.on('message', (data, binary) => {
        if (binary) connection.close(1003, 'not JSON');
        else {
          try {
            connection.request(data.toString());
          } catch (error) {
            failed(connection, error);
          }
        }
      });
      socket.on('close', () => {
        connections.delete(connection);
        if (connections.size === 0 && ticker) {
          clearInterval(ticker);
          ticker = undefined;
        }
      });
      socket.on('error', () => socket.terminate());
      ticker ??= setInterval(() => sandbox.settle(), tickMs).unref();
    });
  }
  server.on('upgrade', upgrade);

  return {
    close() {
      stopListening();
      server.off('upgrade', upgrade);
      if (ticker) clearInterval(ticker);
      ticker = undefined;
      for (const socket of sockets.clients) socket.terminate();
      sockets.close();
    },
  };
}
