// A tiny static file server for site/, on 127.0.0.1 only. With `liveReload`, every HTML page it
// serves carries a few lines of script that listen for server-sent events on `liveReloadPath`
// and reload the page when `reload()` is called (the watch loop of `npm start` does, after each
// rebuild of the docs).
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { isAddressInUse, PortInUseError } from '../scripts/port-in-use.ts';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.yaml': 'text/yaml; charset=utf-8',
};

export interface StaticServer {
  url: string;
  port: number;
  /** Tells every open page to reload (with `liveReload`); returns how many pages were told. */
  reload(): number;
  close(): Promise<void>;
}

export const liveReloadPath = '/__live-reload';

const liveReloadScript = `<script>new EventSource('${liveReloadPath}').onmessage = () => location.reload();</script>`;

/** A page with the live-reload script added at the end of its body. */
export function withLiveReload(html: string): string {
  const end = html.lastIndexOf('</body>');
  return end < 0 ? html + liveReloadScript : `${html.slice(0, end)}${liveReloadScript}\n${html.slice(end)}`;
}

/**
 * Serves the files under `root` on 127.0.0.1:`port` (0 picks a free port). A port in use rejects
 * with a PortInUseError, one line naming the port and `portVariable` (the variable that moves it).
 */
export async function serveStatic(
  root: string,
  port = 0,
  options: { liveReload?: boolean; portVariable?: string } = {},
): Promise<StaticServer> {
  const base = normalize(root + sep);
  const listeners = new Set<ServerResponse>();
  const server = createServer(async (request, response) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request\n');
      return;
    }
    if (options.liveReload && path === liveReloadPath && request.method === 'GET') {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      // A comment line, so the page's EventSource opens at once.
      response.write(': connected\n\n');
      listeners.add(response);
      request.once('close', () => listeners.delete(response));
      return;
    }
    const file = normalize(join(base, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(base) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404).end();
      return;
    }
    try {
      const content = await readFile(file);
      const body =
        options.liveReload && extname(file) === '.html' ? withLiveReload(content.toString()) : content;
      response.writeHead(200, {
        'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(isAddressInUse(error) ? new PortInUseError('docs', port, options.portVariable) : error),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/`,
    port: actual,
    reload() {
      for (const listener of listeners) listener.write('data: reload\n\n');
      return listeners.size;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
