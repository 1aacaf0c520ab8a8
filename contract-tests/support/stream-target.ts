// The target of the suite's stream part (streams.contract.ts), beside the HTTP target of
// target.ts, started once by the global setup:
//
//   CONTRACT_STREAM_TARGET=<ws(s) url>  that endpoint, whatever the HTTP target; read-only (the
//                                       stream requests only read), the account channels only with
//                                       a token in CONTRACT_STREAM_TOKEN
//   HTTP target `mock` (the default)    the stream mock (scripts/stream-mock.ts), in this process
//   HTTP target `sandbox`               the sandbox's own endpoint, `<its origin>/ws`: checked only
//                                       once it answers the upgrade there (until then the part is
//                                       not run, and the report says why)
//   HTTP target <http(s) url>           none: a deployment's stream endpoint is not its HTTP origin
//                                       (upstream, api.… serves /ws), so it is given apart
import WebSocket from 'ws';
import { operations } from '../../generated/operations.ts';
import { streamTokenOperation } from '../../generated/streams.ts';
import { contractVariables } from '../../model/environment.ts';
import { startStreamMock } from '../../scripts/stream-mock.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { TokenAnswerError } from '../../src/cli/watch/token-answer-error.ts';
import { callByPath } from '../../src/client.ts';
import { createPrivateClient } from '../../src/index.ts';
import { describeTarget } from './variables.ts';

declare module 'vitest' {
  interface TaskMeta {
    /** The stream channel a test checks, for the report's stream table. */
    stream?: { channel: string };
  }
}

export interface StreamContext {
  /** What the report shows: `mock`, `sandbox` or the URL without credentials. */
  target: string;
  /** The endpoint the checks connect to; undefined when the part does not run (`notRun` says why). */
  url?: string;
  notRun?: string;
  /**
   * The stream mock: every channel pushes at its pace, so the flow checks (an update after
   * subscribing, none after unsubscribing) run on every channel; elsewhere only on channels whose
   * documents state an interval (the others push as things happen, perhaps never during a run).
   */
  mock: boolean;
  /** A WebSocket token for the account channels; never printed. Undefined: public channels only. */
  token?: string;
  /**
   * How long a check waits for a message: the limit for a loaded machine unless set. The suite's
   * proofs that a check fails set less where nothing will ever come (a target that never pushes).
   */
  waitMs?: number;
}

/** The token the checks present to the stream mock, which takes any: not a secret. */
export const mockStreamToken = 'contract-mock-token';

/** The stream endpoint of a server at `origin` (http or https): the same origin, at /ws. */
export function streamUrlOf(origin: string): string {
  const url = new URL('/ws', origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** Whether `url` takes a WebSocket upgrade; the reason when it does not. */
function refusal(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { handshakeTimeout: timeLimits.streamMessageMs });
    socket.once('open', () => {
      socket.close();
      resolve(undefined);
    });
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      socket.terminate();
      resolve(`HTTP ${response.statusCode} instead of an upgrade`);
    });
    socket.once('error', (error) => resolve(error.message));
  });
}

/**
 * A WebSocket token for the account channels, from the REST operation that issues one: the one the
 * stream documents name (x-token-operation), at its path in the operation facts.
 */
async function streamTokenOf(origin: string, credentials: { apiKey: string; apiSecret: string }) {
  const { operationId, field } = streamTokenOperation;
  const { path } = operations[operationId];
  const client = createPrivateClient({ baseUrl: origin, ...credentials });
  try {
    const answer = await callByPath(client, path, {});
    if (answer.error) throw answer.error;
    const token = (answer.data as Record<string, unknown> | undefined)?.[field];
    if (typeof token !== 'string' || token === '') throw new TokenAnswerError(operationId, field);
    return token;
  } finally {
    await client.close();
  }
}

/** Starts (or names) the stream target for the HTTP target `target`, whose server is at `origin`. */
export async function startStreamTarget(
  target: string,
  origin: string | undefined,
  env: NodeJS.ProcessEnv,
  credentials?: { apiKey: string; apiSecret: string },
): Promise<{ context: StreamContext; close(): Promise<void> }> {
  const none = async () => {};
  const given = env[contractVariables.streamTarget]?.trim();
  const token = env[contractVariables.streamToken] || undefined;
  if (given) {
    return {
      context: { target: describeTarget(given), url: given, mock: false, ...(token ? { token } : {}) },
      close: none,
    };
  }
  if (target === 'mock') {
    // At four times the documents' pace: the flow checks wait for updates, the run stays short.
    const mock = await startStreamMock({ pace: 0.25 });
    return {
      context: { target: 'mock', url: mock.url, mock: true, token: mockStreamToken },
      close: () => mock.close(),
    };
  }
  if (target === 'sandbox' && origin) {
    const url = streamUrlOf(origin);
    const refused = await refusal(url);
    if (refused)
      return {
        context: {
          target: 'sandbox',
          mock: false,
          notRun: `the sandbox serves no stream endpoint at ${url} (${refused})`,
        },
        close: none,
      };
    // The sandbox brings its own credentials: its account channels are checked with a token from
    // its own REST operation, as a user's program gets one.
    const sandboxToken = credentials ? await streamTokenOf(origin, credentials) : undefined;
    return {
      context: { target: 'sandbox', url, mock: false, ...(sandboxToken ? { token: sandboxToken } : {}) },
      close: none,
    };
  }
  return {
    context: {
      target: describeTarget(target),
      mock: false,
      notRun: `no stream endpoint: set --stream-target (${contractVariables.streamTarget}) to the deployment's ws(s) URL`,
    },
    close: none,
  };
}
