// Runs a fresh `node` as a user does (a child process with pipes, not a terminal), from the
// project root, and collects what it printed and how long it took; `runScript` runs one of the
// project's TypeScript programs that way, through tsx. The bench times its child processes with
// `runNode` too.
import { spawn } from 'node:child_process';
import { projectRoot } from '../model/document.ts';
import { timeLimits } from './time-limits.ts';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From spawn to exit, in milliseconds. */
  wallMs: number;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * A process still running after this long is killed, and its caller then fails on its output
   * (default: scripts/time-limits.ts).
   */
  timeoutMs?: number;
}

/** `node <args>`, until it exits. */
export function runNode(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: projectRoot,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? timeLimits.runMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, wallMs: performance.now() - started });
    });
  });
}

/**
 * `node --import tsx -- <args>`: `--` ends Node's own options (Node 20 otherwise checks a
 * `--env-file` meant for the program).
 */
export function runScript(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  return runNode(['--import', 'tsx', '--', ...args], options);
}
