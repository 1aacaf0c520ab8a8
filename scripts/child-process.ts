// How the project starts a Node program that must end with the process that starts it (a server:
// Prism, the sandbox, a vitest run): the preload scripts/exit-with-parent.mjs and an IPC channel,
// whose closing tells the child that its parent is gone, SIGKILL included.
import type { StdioOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preload = pathToFileURL(fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url))).href;

/** Node's own arguments that load the watcher, to put before the program's. */
export const endWithParentArgs: readonly string[] = ['--import', preload];

type Stream = 'ignore' | 'pipe' | 'inherit';

/** The child's stdio, plus the IPC channel the watcher listens on. */
export function withParentChannel(stdin: Stream, stdout: Stream, stderr: Stream): StdioOptions {
  return [stdin, stdout, stderr, 'ipc'];
}

/** The parent of a process and its command line, from /proc (Linux), or undefined. */
function processInfo(pid: number): { parent: number; command: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …"; comm may hold spaces, so split after the last ')'.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    return { parent, command };
  } catch {
    return undefined;
  }
}

/** npm names its process `npm <command>`, or runs as `node …/npm-cli.js`. */
const isNpm = (command: string) => /^(\S*\/)?npm( |$)|\/npm-cli\.js( |$)/.test(command);

/** Whether the process `pid` exists: signal 0 checks without sending; only ESRCH means gone. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * For a program a user starts through npm (`npm start`, `npm run sandbox`): npm runs it as
 * npm → sh → tsx → node, and when npm is killed with SIGKILL nothing reaches the end of that
 * chain: the shell and tsx live on, and so do the servers and their ports. So this process finds
 * the nearest npm among its ancestors, checks twice a second that it still exists, and calls
 * `stop` (as Ctrl-C would) once it is gone. Without /proc (not Linux), or with no npm above it,
 * there is nothing to watch. The timer is unref'd.
 */
export function endWithLauncher(stop: () => void, everyMs = 500): void {
  let npm: number | undefined;
  for (let pid = process.ppid, depth = 0; pid > 1 && depth < 16; depth++) {
    const info = processInfo(pid);
    if (!info) return;
    if (isNpm(info.command)) {
      npm = pid;
      break;
    }
    pid = info.parent;
  }
  if (npm === undefined) return;
  const launcher = npm;
  const timer = setInterval(() => {
    if (isRunning(launcher)) return;
    clearInterval(timer);
    stop();
  }, everyMs);
  timer.unref();
}
