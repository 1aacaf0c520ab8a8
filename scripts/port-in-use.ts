// The one line a server gives when its port is taken: which port, and which variable moves it.
// Shared by `npm start` (docs, mocks, sandbox) and `npm run sandbox`, so that a clash never ends
// in an EADDRINUSE stack trace.
import { createServer } from 'node:net';

/** Whether an error is the operating system saying the address is already in use. */
export function isAddressInUse(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'EADDRINUSE';
}

/** `docs: port 8080 is in use; set DOCS_PORT to another port (0 picks a free one)`. */
export function portInUseLine(service: string, port: number, variable: string | undefined): string {
  const advice = variable ? `; set ${variable} to another port (0 picks a free one)` : '';
  return `${service}: port ${port} on 127.0.0.1 is in use${advice}`;
}

/** An error whose message is that line, to throw where the clash is found. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  readonly port: number;
  constructor(service: string, port: number, variable: string | undefined) {
    super(portInUseLine(service, port, variable));
    this.port = port;
  }
}

/** Whether 127.0.0.1:`port` can be listened on now (port 0 always can). */
export function portIsFree(port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * Ports below the kernel's ephemeral range (32768–60999 on Linux), from which it takes the local
 * port of every outgoing connection and every `listen(0)`: a port picked here for a server that
 * starts later (Prism, npm start's children) is not taken meanwhile by one of the thousands of
 * connections other tests open.
 */
const pickedRange = { from: 20_000, to: 32_000 };

/** `count` distinct ports that are free now, from outside the ephemeral range. */
export async function pickFreePorts(count: number): Promise<number[]> {
  const picked = new Set<number>();
  while (picked.size < count) {
    const port = pickedRange.from + Math.floor(Math.random() * (pickedRange.to - pickedRange.from));
    if (!picked.has(port) && (await portIsFree(port))) picked.add(port);
  }
  return [...picked];
}
