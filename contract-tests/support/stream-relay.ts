// A mutant of a stream target that keeps state (the sandbox): a WebSocket relay on 127.0.0.1 in
// front of it that passes every frame both ways except those a filter drops (the updates a write
// causes, an unsubscribe request), so that a check of the stream part can be shown to fail against
// the real server with one fault, and to pass through the same relay without it.
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

export interface StreamRelayOptions {
  /** Whether a frame the client sends reaches the target (parsed JSON, or its text). */
  toTarget?: (message: unknown) => boolean;
  /** Whether a frame the target sends reaches the client. */
  toClient?: (message: unknown) => boolean;
}

export interface StreamRelay {
  url: string;
  close(): Promise<void>;
}

const parsed = (data: WebSocket.RawData): unknown => {
  try {
    return JSON.parse(data.toString());
  } catch {
    return data.toString();
  }
};

/** Starts a relay to the stream endpoint `target`; each client connection gets its own connection there. */
export async function startStreamRelay(
  target: string,
  options: StreamRelayOptions = {},
): Promise<StreamRelay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  server.on('connection', (client) => {
    const upstream = new WebSocket(target);
    const pending: WebSocket.RawData[] = [];
    upstream.on('open', () => {
      for (const data of pending.splice(0)) upstream.send(data.toString());
    });
    client.on('message', (data) => {
      if (options.toTarget && !options.toTarget(parsed(data))) return;
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data.toString());
      else pending.push(data);
    });
    upstream.on('message', (data) => {
      if (options.toClient && !options.toClient(parsed(data))) return;
      if (client.readyState === WebSocket.OPEN) client.send(data.toString());
    });
    const end = () => {
      client.terminate();
      upstream.terminate();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
