// Answers larger than maxResponseBytes end the call with `too-large` and discard the connection,
// whether the size is declared up front or only shows while streaming.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateClient } from '../../src/index.ts';
import { mainBalancePath } from './paths.ts';
import { transportOption, transports } from './transports.ts';

const cap = 64 * 1024;
const chunk = Buffer.alloc(16 * 1024, 'a');
/** The most an endless answer may send; far more than the client may read. */
const endlessLimit = 256 * 1024 * 1024;
let server: Server;
let url: string;
const sentBeforeClose: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    const kind = request.headers['user-agent'];
    if (kind === 'declared' || kind === 'declared-capitalized') {
      // Node writes a header name as given: the transport matches it in any case.
      const name = kind === 'declared' ? 'content-length' : 'Content-Length';
      response.writeHead(200, { 'content-type': 'application/json', [name]: String(cap * 10) });
      response.write(chunk);
      return;
    }
    if (kind === 'compressed') {
      // Small on the wire, ten times the cap once decoded.
      const body = gzipSync(JSON.stringify({ padding: 'x'.repeat(cap * 10) }));
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(body.length),
      });
      response.end(body);
      return;
    }
    if (kind === 'at-cap') {
      const body = JSON.stringify({ padding: 'x'.repeat(cap - 20) });
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    // Endless: chunked, no length, written as fast as the client reads, until it hangs up.
    response.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const pump = () => {
      while (sent < endlessLimit && !response.destroyed) {
        sent += chunk.length;
        if (!response.write(chunk)) return;
      }
    };
    response.on('drain', pump);
    response.on('close', () => sentBeforeClose.push(sent));
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe.each(transports)('response size, %s transport', (_, fetch) => {
  const client = (kind: string) =>
    createPrivateClient({
      apiKey: 'size-key',
      apiSecret: 'size-secret',
      baseUrl: url,
      rateLimit: false,
      maxResponseBytes: cap,
      userAgent: kind,
      ...transportOption(fetch),
    });

  it.each(['declared', 'declared-capitalized'])(
    'a declared Content-Length over the cap is refused before reading (%s)',
    async (kind) => {
      const subject = client(kind);
      const { error } = await subject.POST(mainBalancePath);
      await subject.close();
      expect(error?.kind).toBe('too-large');
      expect(error?.message).toContain(String(cap));
    },
  );

  it('an endless answer is cut at the cap and its connection closed', async () => {
    const closedBefore = sentBeforeClose.length;
    const subject = client('endless');
    const { error } = await subject.POST(mainBalancePath);
    await subject.close();
    expect(error?.kind).toBe('too-large');
    await expect.poll(() => sentBeforeClose.length).toBe(closedBefore + 1);
    // The server stopped far short of what it would have sent: memory stayed bounded.
    expect(sentBeforeClose.at(-1)).toBeLessThan(endlessLimit / 4);
  });

  it('an answer within the cap is read whole', async () => {
    const subject = client('at-cap');
    const { data, error } = await subject.POST(mainBalancePath);
    await subject.close();
    expect(error).toBeUndefined();
    expect((data as unknown as { padding: string }).padding).toHaveLength(cap - 20);
  });
});

it('fetch transport: a compressed answer is measured as decoded, not by its declared length', async () => {
  const [, fetch] = transports.find(([name]) => name === 'fetch') ?? [];
  const subject = createPrivateClient({
    apiKey: 'size-key',
    apiSecret: 'size-secret',
    baseUrl: url,
    rateLimit: false,
    maxResponseBytes: cap,
    userAgent: 'compressed',
    ...transportOption(fetch),
  });
  const { error } = await subject.POST(mainBalancePath);
  await subject.close();
  expect(error?.kind).toBe('too-large');
});
