// Starts and stops Prism (mock or validating proxy) on a free port of 127.0.0.1. Each Prism runs
// in its own process group, which is killed on stop, on process exit and on SIGINT/SIGTERM, and
// it ends by itself when this process is gone (scripts/exit-with-parent.mjs), so an interrupted,
// failed or killed run leaves no server behind.
import { type ChildProcess, spawn } from 'node:child_process';
import { projectRoot } from '../../model/document.ts';
import { endWithParentArgs, withParentChannel } from '../../scripts/child-process.ts';
import { reportListeningArgs, whenListening } from '../../scripts/listening.ts';
import { pickFreePorts } from '../../scripts/port-in-use.ts';
import { prismArgs } from '../../scripts/prism-command.ts';
import { timeLimits } from '../../scripts/time-limits.ts';

export interface PrismOptions {
  /** Path of the OpenAPI document (absolute, or relative to the project root). */
  document: string;
  /** `mock` answers from the document; `proxy` forwards to `upstream` and validates both ways. */
  mode: 'mock' | 'proxy';
  upstream?: string;
  /** Turn request and response violations into error responses (always on for proxies). */
  errors?: boolean;
  /** Strings to blank out of Prism's output before it is ever shown (credentials). */
  redact?: string[];
  startTimeoutMs?: number;
}

export interface PrismServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

let handlersInstalled = false;
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const child of running) killGroup(child, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = () => {
      for (const child of running) killGroup(child, 'SIGKILL');
      running.clear();
      process.off(signal, handler);
      // Let the default (or the runner's own) handling of the signal go on.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.on(signal, handler);
  }
}

/** A port that was free a moment ago, from outside the range the kernel hands to connections. */
export async function freePort(): Promise<number> {
  const [port] = await pickFreePorts(1);
  return port as number;
}

function redactAll(text: string, secrets: string[]): string {
  return secrets.filter(Boolean).reduce((out, secret) => out.replaceAll(secret, '[redacted]'), text);
}

async function startOnce(options: PrismOptions, port: number): Promise<PrismServer> {
  const args = [
    ...endWithParentArgs,
    ...reportListeningArgs,
    ...prismArgs,
    options.mode,
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
  ];
  // Prism logs each request at `info`, every line through a JSON repair and a formatter, and each
  // refused request's violations at `error`: lines nobody reads (the suite's checks read the
  // answers), and at `error` still about a tenth of the mock's CPU, measured, as the suite sends
  // a thousand refused bodies. What it says when it cannot start, the only lines shown, is `fatal`.
  args.push('--verboseLevel', 'fatal');
  if (options.errors || options.mode === 'proxy') args.push('--errors');
  args.push(options.document);
  if (options.mode === 'proxy') {
    if (!options.upstream) throw new Error('a Prism proxy needs an upstream URL');
    args.push(options.upstream);
  }
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    detached: true,
    stdio: withParentChannel('ignore', 'pipe', 'pipe'),
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  running.add(child);
  installExitHandlers();
  let output = '';
  const keep = (chunk: Buffer) => {
    // Only the tail is kept, and only shown (redacted) when Prism fails to start.
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    killGroup(child);
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeLimits.stopGraceMs);
    await exited;
    clearTimeout(timer);
  };
  // Prism is ready when its server listens (it says so only at a log level it is not run at, so the
  // preload tells); if it ends first, its output says why (EADDRINUSE: the port was taken).
  const ready = await whenListening(child, port, options.startTimeoutMs ?? timeLimits.serverStartMs);
  if (ready === 'listening') return { url, pid: child.pid as number, stop };
  await stop();
  throw new Error(
    `Prism ${options.mode} on ${options.document} did not listen on ${url} (${ready}):\n${redactAll(output, options.redact ?? [])}`,
  );
}

/** Starts Prism and resolves once it listens; retries once if the free port was taken. */
export async function startPrism(options: PrismOptions): Promise<PrismServer> {
  try {
    return await startOnce(options, await freePort());
  } catch (error) {
    if (!String(error).includes('EADDRINUSE')) throw error;
    return startOnce(options, await freePort());
  }
}
