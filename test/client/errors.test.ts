import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  type ApiErrorKind,
  ConfigurationError,
  createPrivateClient,
  createPublicClient,
  type PrivateClientOptions,
  unwrap,
} from '../../src/index.ts';
import { gate } from './latch.ts';
import { json, type LocalServer, startLocalServer } from './local-server.ts';
import { historyPath, mainBalancePath, pingPath } from './paths.ts';

const secret = 'do-not-leak-this-secret-0123456789';

type Answer = (response: import('node:http').ServerResponse) => void;
const answers = new Map<string, Answer>();
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const answer = answers.get(String(request.headers['user-agent']).replace(/^case /, ''));
    if (!answer) return json(response, 500, { message: 'no such case' });
    answer(response);
  });
});
afterAll(() => server.close());

type Transport = 'default transport' | 'injected fetch';

/** The case travels in the User-Agent, so the default transport needs no seam. */
function clientFor(testCase: string, transport: Transport = 'default transport') {
  return createPrivateClient({
    apiKey: 'errors-key',
    apiSecret: secret,
    baseUrl: server.url,
    rateLimit: false,
    userAgent: `case ${testCase}`,
    ...(transport === 'injected fetch' ? { fetch: (request: Request) => fetch(request) } : {}),
  });
}

/** A client of `baseUrl` with the test's secret, the rate limiter off, and `options` on top. */
function clientAt(baseUrl: string, options: Partial<PrivateClientOptions> = {}) {
  return createPrivateClient({ apiKey: 'k', apiSecret: secret, baseUrl, rateLimit: false, ...options });
}

const cases: [ApiErrorKind, Answer, number | undefined][] = [
  [
    'private-error',
    (response) =>
      json(response, 400, {
        code: 0,
        message: 'Validation failed',
        errors: { plan: ['The selected plan is invalid.'] },
      }),
    400,
  ],
  // A message alone, without a code (observed upstream: a sub-account API key that is not found).
  ['private-error', (response) => json(response, 404, { message: 'API key not found' }), 404],
  [
    'rate-limited',
    (response) => json(response, 429, { code: 0, errors: {}, message: 'Too many requests.' }),
    429,
  ],
  ['unauthorized', (response) => json(response, 401, { code: 10, message: 'Unauthorized request.' }), 401],
  [
    'forbidden',
    (response) => json(response, 403, { message: "You don't have permission to use this endpoint." }),
    403,
  ],
  ['server-error', (response) => response.writeHead(503).end(), 503],
  [
    'unexpected-body',
    (response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy</html>'),
    200,
  ],
  [
    'unexpected-body',
    (response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"BTC":{"main_'),
    200,
  ],
  [
    'unexpected-body',
    (response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>'),
    404,
  ],
  ['unexpected-body', (response) => response.writeHead(404).end(), 404],
];

describe('each failure arrives typed, with status and operation, and without the secret', () => {
  const transports: Transport[] = ['default transport', 'injected fetch'];
  it.each(
    transports.flatMap((transport) =>
      cases.map(([kind, answer, status], index) => ({ kind, answer, status, index, transport })),
    ),
  )('$kind (case $index, $transport)', async ({ kind, answer, status, index, transport }) => {
    answers.set(String(index), answer);
    const client = clientFor(String(index), transport);
    const { data, error, response } = await client.POST(historyPath);
    expect(data).toBeUndefined();
    expect(error).toBeInstanceOf(ApiError);
    expect(error?.kind).toBe(kind);
    expect(error?.status).toBe(status);
    expect(response?.status).toBe(status);
    expect(error?.operationId).toBe('listFlexInvestmentHistory');
    // Callers print `kind` and `message` side by side: the message does not say the kind again.
    expect(error?.message).not.toContain(kind);
    expect(error?.message).toMatch(new RegExp(`^listFlexInvestmentHistory \\(HTTP ${status}\\)`));
    expectNoSecret(error);
    await expect(unwrap(client.POST(historyPath))).rejects.toMatchObject({ kind, status });
    await client.close();
  });

  it('an empty 404, the answer to a path with no route, points at baseUrl', async () => {
    answers.set('no-route', (response) => response.writeHead(404).end());
    answers.set('html-404', (response) =>
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>'),
    );
    const empty = clientFor('no-route');
    const html = clientFor('html-404');
    const [noRoute, page] = await Promise.all([empty.POST(mainBalancePath), html.POST(mainBalancePath)]);
    await Promise.all([empty.close(), html.close()]);
    expect(noRoute.error?.message).toBe(
      'getMainBalance (HTTP 404): empty, the answer to a path with no route (check baseUrl)',
    );
    // A 404 with a body says what its body says, nothing about routes.
    expect(page.error?.message).toBe('getMainBalance (HTTP 404): <h1>404</h1>');
  });

  it('the private error object keeps its code and its messages per field', async () => {
    answers.set('fields', (response) =>
      json(response, 422, {
        code: 30,
        message: 'Validation failed',
        errors: { ticker: ['ticker is invalid.'] },
      }),
    );
    const client = clientFor('fields');
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error?.kind).toBe('private-error');
    expect(error?.code).toBe(30);
    expect(error?.fieldErrors).toEqual({ ticker: ['ticker is invalid.'] });
    expect(error?.message).toBe('getMainBalance (HTTP 422): Validation failed: ticker: ticker is invalid.');
  });

  it('a refusal that is its messages per field alone is a private error too', async () => {
    answers.set('errors-alone', (response) =>
      json(response, 422, { errors: { limit: ['The limit field must be at least 1.'] } }),
    );
    const client = clientFor('errors-alone');
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error?.kind).toBe('private-error');
    expect(error?.code).toBeUndefined();
    expect(error?.fieldErrors).toEqual({ limit: ['The limit field must be at least 1.'] });
    expect(error?.message).toBe('getMainBalance (HTTP 422): limit: The limit field must be at least 1.');
  });

  it('a private error of a message alone (a 404 observed upstream): no code, no field errors', async () => {
    answers.set('message-alone', (response) => json(response, 404, { message: 'API key not found' }));
    const client = clientFor('message-alone');
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error?.kind).toBe('private-error');
    expect(error?.code).toBeUndefined();
    expect(error?.fieldErrors).toEqual({});
    expect(error?.message).toBe('getMainBalance (HTTP 404): API key not found');
  });

  it('the message gives every field error in one line', async () => {
    answers.set('two-fields', (response) =>
      json(response, 400, {
        code: 0,
        message: 'Validation failed',
        errors: { planId: ['The selected planId is invalid.'], amount: ['Too small.', 'Too many decimals.'] },
      }),
    );
    const client = clientFor('two-fields');
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error?.message).toBe(
      'getMainBalance (HTTP 400): Validation failed: planId: The selected planId is invalid.; amount: Too small. Too many decimals.',
    );
    expect(error?.message).not.toContain('\n');
  });

  it('the public error object', async () => {
    const publicServer = await startLocalServer((_, response) =>
      json(response, 400, { success: false, message: 'Bad request', params: [] }),
    );
    const client = createPublicClient({ baseUrl: publicServer.url });
    const { error } = await client.GET(pingPath);
    expect(error?.kind).toBe('public-error');
    expect(error?.body).toEqual({ success: false, message: 'Bad request', params: [] });
    await client.close();
    await publicServer.close();
  });

  it('Retry-After is read from a 429', async () => {
    answers.set('retry-after', (response) =>
      json(response, 429, { code: 0, message: 'Too many requests.' }, { 'retry-after': '3' }),
    );
    const client = clientFor('retry-after');
    const { error } = await client.POST(mainBalancePath);
    await client.close();
    expect(error?.retryAfterMs).toBe(3000);
  });
});

describe("an answer's headers", () => {
  it.each(['default transport', 'injected fetch'] as const)(
    'read as Headers.get does, whatever the case, a repeated one joined (%s)',
    async (transport) => {
      answers.set('headers', (response) => {
        response.setHeader('X-Repeated', ['first', 'second']);
        response.setHeader('Retry-After', '4');
        json(response, 429, { code: 0, message: 'Too many requests.' });
      });
      const client = clientFor('headers', transport);
      const { error, response } = await client.POST(mainBalancePath);
      await client.close();
      expect(response?.headers.get('x-repeated')).toBe('first, second');
      expect(response?.headers.get('X-REPEATED')).toBe('first, second');
      expect(response?.headers.get('content-type')).toBe('application/json');
      expect(response?.headers.get('x-absent')).toBeNull();
      expect(error?.retryAfterMs).toBe(4000);
    },
  );
});

describe('transport failures', () => {
  it('connection refused', async () => {
    const port = await closedPort();
    const client = clientAt(`http://127.0.0.1:${port}`);
    const { error, response } = await client.POST(mainBalancePath);
    expect(error?.kind).toBe('transport');
    expect(error?.status).toBeUndefined();
    expect(response).toBeUndefined();
    expect(error?.message).toMatch(/^getMainBalance: the connection failed: .*ECONNREFUSED/);
    expectNoSecret(error);
    await client.close();
  });

  it('connection reset', async () => {
    const resetting = await startLocalServer((_, response) => {
      response.socket?.destroy();
    });
    const client = clientAt(resetting.url);
    const { error } = await client.POST(mainBalancePath);
    expect(error?.kind).toBe('transport');
    expectNoSecret(error);
    await client.close();
    await resetting.close();
  });

  it('timeout, caller abort, and both combined', async () => {
    // The server answers nothing until the test is over, and tells when a call has arrived: the
    // caller aborts a call that is on the server, and no answer can beat a timeout.
    const hold = gate();
    let arrived = () => {};
    const slow = await startLocalServer(async (_, response) => {
      arrived();
      await hold.passed;
      json(response, 200, {});
    });
    const onServer = () => new Promise<void>((resolve) => (arrived = resolve));
    const client = clientAt(slow.url, { timeoutMs: 100 });
    const timedOut = (await client.POST(mainBalancePath)).error;
    expect(timedOut?.kind).toBe('timeout');
    expect(timedOut?.message).toMatch(/^getMainBalance: no answer in time/);

    const controller = new AbortController();
    const noTimeout = clientAt(slow.url, { timeoutMs: 0 });
    const reached = onServer();
    const pending = noTimeout.POST(mainBalancePath, { signal: controller.signal });
    await reached;
    controller.abort();
    const aborted = (await pending).error;
    expect(aborted?.kind).toBe('aborted');
    expect(aborted?.message).toMatch(/^getMainBalance: stopped by the caller's signal/);

    // Caller's signal fires first although a timeout is set: aborted. A per-call timeout wins over
    // the client's (a timeout past the test's own limit: only the abort can end the call).
    const both = new AbortController();
    const reachedToo = onServer();
    const first = client.POST(mainBalancePath, { signal: both.signal, timeoutMs: 2 ** 31 - 1 });
    await reachedToo;
    both.abort();
    expect((await first).error?.kind).toBe('aborted');
    expect((await client.POST(mainBalancePath, { signal: new AbortController().signal })).error?.kind).toBe(
      'timeout',
    );
    hold.open();
    await Promise.all([client.close(), noTimeout.close()]);
    await slow.close();
  });

  it('timeouts of a second or more (one shared timer) end their calls, in order', async () => {
    // No answer before both calls have ended: each ends by its own timeout, however slow the machine.
    const hold = gate();
    const silent = await startLocalServer(async (_, response) => {
      await hold.passed;
      json(response, 200, {});
    });
    const client = clientAt(silent.url, { timeoutMs: 1000 });
    const started = performance.now();
    const ended: string[] = [];
    const watch = async (name: string, call: Promise<{ error?: { kind: string } | undefined }>) => {
      const { error } = await call;
      ended.push(name);
      return { error, elapsed: performance.now() - started };
    };
    const [longer, shorter] = await Promise.all([
      watch('longer', client.POST(mainBalancePath, { timeoutMs: 1300 })),
      watch('shorter', client.POST(mainBalancePath)),
    ]);
    expect(shorter.error?.kind).toBe('timeout');
    expect(longer.error?.kind).toBe('timeout');
    expect(ended).toEqual(['shorter', 'longer']);
    expect(shorter.elapsed).toBeGreaterThanOrEqual(1000);
    expect(longer.elapsed).toBeGreaterThanOrEqual(1300);
    // Nothing was answered: the timeouts, not the server, ended both calls.
    expect(silent.received).toHaveLength(2);
    hold.open();
    await client.close();
    await silent.close();
  });
});

describe('the secret stays secret', () => {
  it('in util.inspect and JSON.stringify of the client and its options', () => {
    const client = createPrivateClient({ apiKey: 'k', apiSecret: secret, baseUrl: 'http://127.0.0.1:9' });
    for (const text of [
      inspect(client, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      JSON.stringify(client),
      JSON.stringify(client.options),
      inspect(client.options, { showHidden: true }),
      String(client),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(client.options.apiSecret).toBe('[redacted]');
    // Credentials in a base URL are refused outright, without echoing them.
    let refused: unknown;
    try {
      createPrivateClient({ apiKey: 'k', apiSecret: 's', baseUrl: `http://user:${secret}@127.0.0.1:9` });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ConfigurationError);
    expect((refused as ConfigurationError).field).toBe('baseUrl');
    expectNoSecret(refused);
  });
});

function expectNoSecret(error: unknown) {
  expect(inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(secret);
  expect(JSON.stringify(error)).not.toContain(secret);
  expect(String(error)).not.toContain(secret);
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
