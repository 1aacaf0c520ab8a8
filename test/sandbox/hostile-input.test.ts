// Nothing a client can send makes the sandbox answer 500 or log a stack trace, and calls it
// refuses never use up a key's rate limit.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from 'vitest';
import { signingHeaders } from '../../generated/operations.ts';
import { invalidPayload } from '../../sandbox/errors.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { call, defaultFixture, documentOf, nextNonce, operations, partnerKey, sign } from './helpers.ts';

const fixture = defaultFixture();
const key = partnerKey(fixture);
const balancePath = operations.getMainBalance.path;
let sandbox: Sandbox;
let stderr: MockInstance<typeof process.stderr.write>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, fixture });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  stderr = vi.spyOn(process.stderr, 'write');
});
afterEach(() => {
  const sandboxLines = stderr.mock.calls
    .map(([line]) => String(line))
    .filter((line) => line.startsWith('sandbox:'));
  stderr.mockRestore();
  expect(sandboxLines).toEqual([]);
});

/** A signed POST of these exact bytes. */
function postBytes(bytes: Buffer): Promise<{ status: number; body: unknown }> {
  const payload = bytes.toString('base64');
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${sandbox.url}${balancePath}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [signingHeaders.ApiKey]: key.apiKey,
          [signingHeaders.Payload]: payload,
          [signingHeaders.Signature]: sign(key.secret, payload),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(bytes);
  });
}

/** Raw bytes on a socket; resolves with the status line of the answer, if any. */
function rawExchange(text: string, hangUp = false): Promise<string> {
  const url = new URL(sandbox.url);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(text);
      if (hangUp) socket.destroy();
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', () => resolve(''));
    // A bound on a sandbox that never answers; each exchange here ends with its connection.
    socket.setTimeout(timeLimits.unitTestMs, () => socket.destroy());
  });
}

describe('hostile input to the sandbox', () => {
  it('a body nested 5,000 levels deep is an invalid payload', async () => {
    // As deep as fits in the signing header (base64 of the body) within the server's header limit.
    const depth = 5_000;
    const text = `{"request":"${balancePath}","nonce":"${nextNonce()}","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const reply = await postBytes(Buffer.from(text));
    expect(reply).toEqual(invalidPayload(documentOf('getMainBalance')));
  });

  it('invalid UTF-8 in a signed body is an invalid payload, not silently replaced', async () => {
    const valid = Buffer.from(`{"request":"${balancePath}","nonce":"${nextNonce()}","ticker":"BTC"}`);
    const broken = Buffer.from(valid);
    broken[broken.indexOf('BTC')] = 0xff;
    const reply = await postBytes(broken);
    expect(reply).toEqual(invalidPayload(documentOf('getMainBalance')));
  });

  it.each(['//%zz', 'http://[', '*'])('a malformed request target %s is a 400', async (target) => {
    const status = await rawExchange(
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(status).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('a client that hangs up mid-upload is not an internal error', async () => {
    await rawExchange(
      `POST ${balancePath} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"request":`,
      true,
    );
    // The sandbox still answers, and has logged nothing (checked after each test).
    expect((await call(sandbox.url, key, 'getMainBalance')).status).toBe(200);
  });

  it('1,000 replays of a captured request do not use up the rate limit', async () => {
    const body = JSON.stringify({ request: balancePath, nonce: nextNonce() });
    expect((await postBytes(Buffer.from(body))).status).toBe(200);
    const limit = operations.getMainBalance.rateLimit.requests;
    for (let replay = 0; replay < limit; replay++) {
      expect((await postBytes(Buffer.from(body))).status).toBe(429);
    }
    expect((await call(sandbox.url, key, 'getMainBalance')).status).toBe(200);
  });
});
