// The sandbox server: node:http on 127.0.0.1, every operation of the documents. Each call goes
// through one pipeline (route, signature, rate limit, nonce, key and partner access, request
// validation); then the operation's state transition (transitions.ts) carries it out, or, for an
// operation without one, its document's first named success example answers it. Optional
// response validation (strict) and fault injection. Beside HTTP, on the same port, the WebSocket
// streams of the same state (streams/serve.ts), told of every change.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DocumentModel } from '../model/model.ts';
import type { Answer } from './answer.ts';
import { authenticate, NonceTracker } from './auth.ts';
import type { CallContext } from './context.ts';
import { control, controlPath, type DepositRequest, depositFromOutside } from './control.ts';
import { answerCors } from './cors.ts';
import { type OperationDocument, sandboxDocuments } from './document.ts';
import { invalidPayload, keyNotEnabled, noPermission, tooManyRequests } from './errors.ts';
import { movePrice, settle } from './exchange.ts';
import { type FaultOptions, Faults } from './faults.ts';
import { checkFixture, credentialKey, type Fixture, loadFixture } from './fixture.ts';
import { subAccountKeyRefusal } from './key-access.ts';
import { actionTypesOf } from './lending.ts';
import { type WalkOptions, walkMarkets } from './market.ts';
import { seconds } from './orders.ts';
import { readParameters } from './parameters.ts';
import { SlidingWindowLimiter } from './rate-limit.ts';
import { SandboxState } from './state.ts';
import { StateChanges } from './state-changes.ts';
import { streamUrlOf } from './streams/methods.ts';
import { serveStreams } from './streams/serve.ts';
import { transitionOf } from './transitions.ts';
import { validateRequest } from './validation.ts';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 picks a free one. Default 4012. */
  port?: number;
  /** A fixture object or the path of a fixture file; default sandbox/fixture.json. */
  fixture?: Fixture | string;
  /**
   * The documents to serve: a project root (its redocly.yaml names them) or a document model;
   * default this project's. Every operation they hold is answered.
   */
  documents?: string | DocumentModel;
  faults?: FaultOptions;
  /** Validate every answer against the document; an answer that does not match becomes a 500. */
  strict?: boolean;
  /** Milliseconds since the epoch; tests may pass a fake clock. */
  clock?: () => number;
  /**
   * The price walk: each trading market's price moves at every step of the clock, seeded, with a
   * trade of other participants at each step. Off unless given (`npm run sandbox` turns it on).
   */
  walk?: WalkOptions | undefined;
  /** Half-width of the nonceWindow acceptance window; default the documents' x-window-seconds. */
  nonceWindowMs?: number;
  /** Origins (such as `http://127.0.0.1:5173`) whose pages may call the sandbox: CORS preflights are answered for them. */
  corsOrigins?: readonly string[] | undefined;
  /**
   * Called with one line per answered request and, in strict mode, one per answer that does not
   * match the document (never with secrets). Without it, only those mismatches are written, to stderr.
   */
  log?: ((line: string) => void) | undefined;
}

export interface ResponseViolation {
  operationId: string;
  status: number;
  problems: string[];
}

export interface Sandbox {
  url: string;
  port: number;
  /** The WebSocket streams' URL, on the same origin (`ws://127.0.0.1:<port>/ws`). */
  streamUrl: string;
  /** The exchange's state (a new object after `reset`). */
  readonly state: SandboxState;
  /** The current fault injector, with counts of what it injected. */
  readonly faults: Faults;
  /** Replaces the fault options (undefined: none). */
  setFaults(options?: FaultOptions): void;
  /**
   * Moves a market's price, at the sandbox's clock: stop orders it reaches activate and resting
   * limit orders it moves through fill (after what the clock has reached, see `settle`).
   */
  setPrice(market: string, price: string): void;
  /** Moves the sandbox's clock forward by `milliseconds` (it runs on from there), as the control does. */
  advanceClock(milliseconds: number): void;
  /**
   * A deposit arrives from outside, as `POST /sandbox/deposit` does: into the printed key's account
   * unless the request names another (or a deposit address). Throws with the reason it cannot.
   */
  deposit(request: DepositRequest): void;
  /**
   * Applies what the sandbox's clock has reached: the walk's steps, kill-switch timers that ran
   * out, delistings.
   * Every call does this first; a test that moves a fake clock and reads `state` calls it.
   */
  settle(): void;
  /**
   * Puts the exchange back to the fixture's state at the sandbox's clock: balances, orders, deals,
   * histories, kill switches and prices. Nonces and rate limits stay: they belong to the clients
   * that already called, whose next nonce must still be new.
   */
  reset(): void;
  /** Answers that did not match the document (strict mode). */
  violations: ResponseViolation[];
  close(): Promise<void>;
}

const maxBodyBytes = 1024 * 1024;

/** The body, `too-large` past maxBodyBytes, or `hung-up` when the client went away mid-upload. */
function readBody(request: IncomingMessage): Promise<Buffer | 'too-large' | 'hung-up'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > maxBodyBytes ? 'too-large' : Buffer.concat(chunks)));
    // A client that hangs up is not the sandbox's failure: nothing to answer, nothing to log.
    request.on('error', () => resolve('hung-up'));
    request.on('aborted', () => resolve('hung-up'));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const fixture =
    typeof options.fixture === 'string'
      ? loadFixture(options.fixture)
      : options.fixture
        ? checkFixture(options.fixture)
        : loadFixture();
  const documents = sandboxDocuments(options.documents);
  const baseClock = options.clock ?? Date.now;
  // The control's moves of the clock, on top of the given one.
  let clockOffsetMs = 0;
  const clock = () => baseClock() + clockOffsetMs;
  /** Applies what the clock has reached: the walk's steps, then timers and delistings. */
  const actionTypes = actionTypesOf(documents);
  const catchUp = (now: number) => {
    walkMarkets(state, options.walk, now);
    settle(state, now, actionTypes);
  };
  let state = new SandboxState(fixture, seconds(clock()));
  /** The account a deposit through the control arrives in unless it names one: the printed key's. */
  const defaultAccount = credentialKey(fixture).account;
  const limiter = new SlidingWindowLimiter();
  const nonces = new NonceTracker(options.nonceWindowMs ?? documents.nonceWindowSeconds * 1000);
  const violations: ResponseViolation[] = [];
  let faults = new Faults(options.faults);
  // Said after everything that may change the state: a call, a control request, a catch-up.
  const changes = new StateChanges();

  /**
   * The rate limit's refusal when the bucket is full. With `count`, a call with room is counted at
   * once; otherwise the caller counts it (`limiter.record`) only once it has been carried out, so
   * that refused calls (a replayed nonce, a bad body) never use up a key's limit.
   */
  function rateLimited(
    operation: OperationDocument,
    bucket: string,
    refusal: () => Answer,
    count: boolean,
  ): Answer | undefined {
    const limit = operation.facts.rateLimit;
    const name = `${operation.id} ${bucket}`;
    const verdict = count ? limiter.take(name, limit, clock()) : limiter.check(name, limit, clock());
    if (verdict.ok) return undefined;
    return { ...refusal(), headers: { 'retry-after': String(verdict.retryAfterSeconds) } };
  }

  /** The transition's answer, or for an operation without one, its document's success example. */
  function carryOut(context: CallContext, body: unknown): Answer {
    const transition = transitionOf(context.operation);
    if (transition) return transition.run(context, body as never);
    const example = context.operation.successExample();
    if (!example) throw new Error(`${context.operation.id} has neither a transition nor a success example`);
    return { status: example.status, body: example.value };
  }

  function handlePrivate(operation: OperationDocument, request: IncomingMessage, raw: Buffer): Answer {
    const authenticated = authenticate(operation, request.headers, raw, (apiKey) => state.signingKey(apiKey));
    if ('status' in authenticated) return authenticated;
    const { key, body } = authenticated;
    const bucket = `key:${key.apiKey}`;
    const limited = rateLimited(operation, bucket, () => tooManyRequests(operation), false);
    if (limited) return limited;
    // The nonce is checked here, but used up only once the call has been carried out (below):
    // a call refused for any reason (key, permission, body, business rule) leaves the key's
    // nonce where it was. Nothing awaits in between, so no other call can slip in.
    const now = clock();
    catchUp(now);
    const staleNonce = nonces.check(operation, key, body, now);
    if (staleNonce) return staleNonce;
    if (key.enabled === false || (key.operations && !key.operations.includes(operation.id))) {
      return keyNotEnabled(operation);
    }
    if (operation.facts.partnerOnly && key.partner !== true) return noPermission(operation);
    const refused = subAccountKeyRefusal(state, operation, key.apiKey, request.socket.remoteAddress ?? '');
    if (refused) return refused;
    // A batch's items are its transition's to check; an operation without one is checked whole.
    const invalid = validateRequest(
      operation,
      body,
      transitionOf(operation) ? operation.batchField() : undefined,
    );
    if (invalid) return invalid;
    const answer = carryOut({ state, operation, key, now }, body);
    if (answer.status >= 200 && answer.status < 300) {
      nonces.record(operation, key, body, now);
      limiter.record(`${operation.id} ${bucket}`, now);
      state.subAccountKeys.used(key.apiKey, Math.floor(now / 1000));
    }
    return answer;
  }

  /**
   * A call authorised by the fiat gateway's token (auth `gateway-token`): unsigned, its token in
   * the header its scheme names. Only a token this sandbox issued (issueJwtToken) and not yet
   * expired on its clock is taken, else 401 with no body (the operator shows none); then the
   * body is checked against the document, and the state change the operation's `x-sandbox-state`
   * names carries the call out for the token's account.
   */
  function handleGatewayToken(operation: OperationDocument, request: IncomingMessage, raw: Buffer): Answer {
    // The header the operation's security scheme names (generated/operations.ts), never a default.
    const named = operation.facts.tokenHeader;
    if (!named) throw new Error(`${operation.id}: a gateway-token operation without its token header`);
    const header = named.toLowerCase();
    const token = request.headers[header];
    const now = clock();
    catchUp(now);
    const account =
      typeof token === 'string' && token !== ''
        ? state.accountOfGatewayToken(token, seconds(now))
        : undefined;
    if (!account) return { status: 401, body: undefined };
    const bucket = `gateway:${account.id}`;
    const limited = rateLimited(operation, bucket, () => tooManyRequests(operation), true);
    if (limited) return limited;
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    const invalid = validateRequest(operation, body ?? {});
    if (invalid) return invalid;
    return carryOut({ state, operation, now, gatewayAccount: account }, body);
  }

  function handlePublic(
    operation: OperationDocument,
    request: IncomingMessage,
    pathParams: Readonly<Record<string, string>>,
    search: URLSearchParams,
  ): Answer {
    const bucket = `address:${request.socket.remoteAddress ?? ''}`;
    // The gateway's rate-limit answer has a body that is not JSON and whose text the
    // document does not show (observed upstream): the sandbox sends none.
    const limited = rateLimited(operation, bucket, () => ({ status: 429, body: undefined }), true);
    if (limited) return limited;
    const params = readParameters(operation, pathParams, search);
    if ('status' in params) return params;
    const now = clock();
    catchUp(now);
    return carryOut({ state, operation, now, params }, undefined);
  }

  function checkReply(operation: OperationDocument, reply: Answer): string[] {
    const shape = operation.responseShape(reply.status);
    if (shape.kind === 'json') {
      return shape.validate(reply.body)
        ? []
        : (shape.validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    }
    if (shape.kind === 'empty')
      return reply.body === undefined ? [] : ['the document shows no body for this status'];
    // Observed upstream, not in every operation's document: a 400 for a payload that is not
    // canonical JSON (and the main balance's request validation). It must still be the
    // private error object.
    if (operation.facts.auth === 'signed' && reply.status === 400) {
      const validate = documents.componentValidator(operation.facts.api, 'PrivateError');
      return validate(reply.body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    }
    return [`status ${reply.status} is not documented for ${operation.id}`];
  }

  function send(response: ServerResponse, operation: OperationDocument | undefined, reply: Answer) {
    let { status, body } = reply;
    const operationId = operation?.id;
    if (options.strict && operation && operationId) {
      const problems = checkReply(operation, reply);
      if (problems.length > 0) {
        violations.push({ operationId, status, problems });
        const line = `sandbox: ${operationId} ${status} does not match the document: ${problems.join('; ')}`;
        if (options.log) options.log(line);
        else process.stderr.write(`${line}\n`);
        status = 500;
        body = {
          sandbox: 'the answer does not match the document',
          operationId,
          status: reply.status,
          problems,
        };
      }
    }
    const headers: Record<string, string> = { ...reply.headers };
    if (operation?.facts.noCache) headers['cache-control'] = 'no-store';
    if (body === undefined) {
      response.writeHead(status, { ...headers, 'content-length': '0' }).end();
    } else {
      const text = JSON.stringify(body);
      response
        .writeHead(status, {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
        })
        .end(text);
    }
    options.log?.(`${operationId ?? '-'} ${status}`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    if (options.corsOrigins && answerCors(options.corsOrigins, request, response)) return;
    // A request target that is not a path (`//%zz`, `http://[`) is the client's mistake: 400.
    const target = request.url ?? '/';
    const url =
      target.startsWith('/') && URL.canParse(target, 'http://sandbox.invalid')
        ? new URL(target, 'http://sandbox.invalid')
        : undefined;
    if (url === undefined) {
      request.resume();
      send(response, undefined, { status: 400 });
      return;
    }
    if (url.pathname === controlPath || url.pathname.startsWith(`${controlPath}/`)) {
      const raw = await readBody(request);
      const reply = control(
        { state, clock, catchUp, advance: (ms) => (clockOffsetMs += ms), defaultAccount },
        request.method ?? 'GET',
        url.pathname,
        raw === 'too-large' || raw === 'hung-up' ? undefined : raw,
      );
      changes.changed();
      send(response, undefined, reply);
      return;
    }
    const routed = documents.route(request.method ?? 'GET', url.pathname);
    if (routed === undefined || routed === 'wrong-method') {
      request.resume();
      const status = routed ? 405 : 404;
      send(response, undefined, {
        status,
        body: { success: false, message: status === 404 ? 'Not found.' : 'Method not allowed.', params: [] },
      });
      return;
    }
    const { operation, pathParams } = routed;
    const active = faults;
    const delay = active.delayMs(operation.id);
    if (delay > 0) await sleep(delay);
    const decision = active.decide(operation.id);
    if (decision === 'drop-before') {
      request.socket.destroy();
      return;
    }
    if (decision === 'unavailable') {
      request.resume();
      send(response, operation, { status: 503 });
      return;
    }
    const raw = await readBody(request);
    if (raw === 'hung-up') return;
    let reply: Answer;
    if (operation.facts.auth === 'none') {
      // A public call takes no body: whatever was sent is not read.
      reply = handlePublic(operation, request, pathParams, url.searchParams);
    } else if (operation.facts.auth === 'gateway-token' && raw !== 'too-large') {
      reply = handleGatewayToken(operation, request, raw);
    } else if (raw === 'too-large') {
      // Larger than any body of the documents: refused like any payload it cannot accept.
      reply = invalidPayload(operation);
    } else {
      reply = handlePrivate(operation, request, raw);
    }
    changes.changed();
    if (decision === 'drop-after') {
      request.socket.destroy();
      return;
    }
    send(response, operation, reply);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      process.stderr.write(
        `sandbox: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ sandbox: 'internal error' }));
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4012, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const streams = serveStreams(server, {
    get state() {
      return state;
    },
    clock,
    settle() {
      catchUp(clock());
      changes.changed();
    },
    changes,
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    streamUrl: streamUrlOf(`http://127.0.0.1:${port}`),
    get state() {
      return state;
    },
    get faults() {
      return faults;
    },
    setFaults(next?: FaultOptions) {
      faults = new Faults(next);
    },
    setPrice(market: string, price: string) {
      const now = clock();
      catchUp(now);
      movePrice(state, market, price, now);
      changes.changed();
    },
    advanceClock(milliseconds: number) {
      clockOffsetMs += milliseconds;
      catchUp(clock());
      changes.changed();
    },
    deposit(request: DepositRequest) {
      const now = clock();
      catchUp(now);
      const done = depositFromOutside(state, request, defaultAccount, now);
      if (typeof done === 'string') throw new Error(`sandbox: the deposit was refused: ${done}`);
    },
    settle() {
      catchUp(clock());
      changes.changed();
    },
    reset() {
      state = new SandboxState(fixture, seconds(clock()));
      changes.changed();
    },
    violations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        streams.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
