import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { liveReloadPath, serveStatic } from '../../docs/serve.ts';

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

describe('the docs server with live reload', () => {
  it('adds the reload script to HTML pages only, and tells open pages to reload', async () => {
    writeFileSync(join(root, 'page.html'), '<html><body><p>page</p></body></html>');
    writeFileSync(join(root, 'data.json'), '{"body":"</body>"}');
    const server = await serveStatic(root, 0, { liveReload: true });
    const page = await get(server.url, '/page.html');
    expect(page.body).toBe(
      `<html><body><p>page</p><script>new EventSource('${liveReloadPath}').onmessage = () => location.reload();</script>\n</body></html>`,
    );
    expect((await get(server.url, '/data.json')).body).toBe('{"body":"</body>"}');

    const events = new AbortController();
    const stream = await fetch(new URL(liveReloadPath, server.url), { signal: events.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let received = new TextDecoder().decode((await reader.read()).value);
    expect(server.reload()).toBe(1);
    while (!received.includes('data: reload'))
      received += new TextDecoder().decode((await reader.read()).value);
    events.abort();
    await server.close();
  });

  it('serves pages untouched and has no event stream without it', async () => {
    writeFileSync(join(root, 'page.html'), '<html><body><p>page</p></body></html>');
    const server = await serveStatic(root, 0);
    expect((await get(server.url, '/page.html')).body).toBe('<html><body><p>page</p></body></html>');
    expect((await get(server.url, liveReloadPath)).status).toBe(404);
    expect(server.reload()).toBe(0);
    await server.close();
  });
});
