// A child process of `npm start` (a Prism mock, the sandbox): a Node program, its output prefixed
// with its name, ready once its URL answers HTTP, stopped with its whole process group, and never
// outliving this process, even one killed with SIGKILL (scripts/exit-with-parent.mjs).
import { type ChildProcess, spawn } from 'node:child_process';
import { endWithParentArgs, withParentChannel } from './child-process.ts';
import { PortInUseError, portIsFree } from './port-in-use.ts';
import { timeLimits } from './time-limits.ts';

export interface DevProcess {
  pid: number;
  /** Settles when the process ends, with how it ended. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

export interface DevProcessOptions {
  name: string;
  /** The Node program and its arguments, after Node's own (`--import tsx`, …). */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Resolve only once this URL answers HTTP (any status). */
  readyUrl: string;
  /** Where its output lines go, already prefixed with the name. */
  log: (line: string) => void;
  /**
   * The port it listens on and the variable that sets it: checked before it starts, since
   * readiness is "the URL answers" and another server on the port would answer too.
   */
  port?: { number: number; variable?: string | undefined };
  /** Give `log` only what it writes to stderr (its warnings and errors), not its stdout. */
  quiet?: boolean;
  /** Sees every output line, logged or not (a mock watches for Prism's "listening"). */
  onLine?: (line: string) => void;
  startTimeoutMs?: number;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Whether `url` answers HTTP within a second, whatever the status. */
export async function answersHttp(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** Starts the process and resolves once `readyUrl` answers; rejects (and stops it) if it never does. */
export async function startDevProcess(options: DevProcessOptions): Promise<DevProcess> {
  if (options.port && !(await portIsFree(options.port.number))) {
    throw new PortInUseError(options.name, options.port.number, options.port.variable);
  }
  // Its own process group, so that a child's children (tsx runs node) stop with it.
  const child = spawn(process.execPath, [...endWithParentArgs, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: withParentChannel('ignore', 'pipe', 'pipe'),
  });
  running.add(child);
  const forward = (logged: boolean) => (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim() === '') continue;
      options.onLine?.(line);
      if (logged) options.log(`[${options.name}] ${line}`);
    }
  };
  child.stdout?.on('data', forward(!options.quiet));
  child.stderr?.on('data', forward(true));
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`));
  });
  void exited.then(() => running.delete(child));
  const stop = async () => {
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeLimits.stopGraceMs);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? timeLimits.serverStartMs);
  let ended: string | undefined;
  void exited.then((how) => {
    ended = how;
  });
  while (Date.now() < deadline && ended === undefined) {
    if (await answersHttp(options.readyUrl)) return { pid: child.pid as number, exited, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(
    `${options.name} did not answer on ${options.readyUrl}${ended ? ` (it ended: ${ended})` : ''}`,
  );
}

/** A server `npm start` keeps running and brings up to date after each good build. */
export interface DevService {
  name: string;
  url: string;
  /** The files (relative to the watched root) it serves from: it is brought up to date when they change. */
  inputs(): string[];
  start(): Promise<DevProcess>;
  /** Brings a running process up to date in place, when it can; rejects when it could not. */
  refresh?(running: DevProcess): Promise<void>;
  process?: DevProcess;
}
