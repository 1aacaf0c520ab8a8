import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveStatic } from '../../docs/serve.ts';

const root = mkdtempSync(join(tmpdir(), 'serve-'));
writeFileSync(join(root, 'index.html'), '<h1>docs</h1>');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A raw GET, so that a malformed path reaches the server as it is. */
const get = (url: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const target = new URL(url);
    request({ host: target.hostname, port: target.port, path }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });

describe('the docs server', () => {
  it('answers a malformed path with 400 and keeps serving', async () => {
    const server = await serveStatic(root, 0);
    expect((await get(server.url, '/%E0%A4%A')).status).toBe(400);
    expect(await get(server.url, '/')).toEqual({ status: 200, body: '<h1>docs</h1>' });
    expect((await get(server.url, '/../../etc/passwd')).status).toBe(404);
    await server.close();
  });
});
