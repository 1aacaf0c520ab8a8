// The setup the stream client's test files share (as test/sandbox/burst.ts's loadSuite is the load
// suites'): a stream server of its own for each test (./stream-server.ts), and the client the test
// connects to it, closed after the test with the server, once the clock and any stubbed global
// are put back. Each test starts from a server that has seen nothing.
import { afterEach, beforeEach, vi } from 'vitest';
import { createStreamClient, type StreamClient, type StreamClientOptions } from '../../src/streams/index.ts';
import { type StreamServer, startStreamServer } from './stream-server.ts';

export interface StreamSuiteOptions {
  /** Whether the server answers pings by itself (by default it does: only the keepalive's tests see them). */
  answerPings?: boolean;
  /** Fake the timers from the start of each test, after the server has started. */
  fakeTimers?: boolean;
}

export interface StreamSuite {
  /** The current test's server (the same object throughout the file: it reads the test's own). */
  readonly server: StreamServer;
  /** A client of the test, against its server unless `options` name another URL; closed after the test. */
  connect(options?: StreamClientOptions): StreamClient;
}

export function streamSuite(options: StreamSuiteOptions = {}): StreamSuite {
  let current: StreamServer | undefined;
  const clients: StreamClient[] = [];
  beforeEach(async () => {
    current = await startStreamServer({ answerPings: options.answerPings ?? true });
    if (options.fakeTimers)
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await current?.close();
    current = undefined;
  });
  const started = (): StreamServer => {
    if (!current) throw new Error('the stream server starts in beforeEach');
    return current;
  };
  const server: StreamServer = {
    get url() {
      return started().url;
    },
    get connections() {
      return started().connections;
    },
    get refused() {
      return started().refused;
    },
    get accepting() {
      return started().accepting;
    },
    set accepting(value: boolean) {
      started().accepting = value;
    },
    nextConnection: () => started().nextConnection(),
    close: () => started().close(),
  };
  return {
    server,
    connect(clientOptions = {}) {
      const client = createStreamClient({ url: started().url, ...clientOptions });
      clients.push(client);
      return client;
    },
  };
}
