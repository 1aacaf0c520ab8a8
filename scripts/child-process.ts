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

/**
 * For a program a user starts through npm (`npm start`, `npm run sandbox`): npm runs it as
 * npm → sh → tsx → node, and when npm is killed with SIGKILL nothing reaches the end of that
 * chain: the shell and tsx live on, and so do the servers and their ports. The shell that ran npm
 * made npm its process group's leader, so this process checks, twice a second, that the leader
 * still exists, and calls `stop` (as Ctrl-C would) once it is gone. Linux only (/proc); a process
 * that leads its own group, or that cannot read /proc, has nothing to watch. The timer is unref'd.
 */
export function endWithLauncher(stop: () => void, everyMs = 500): void {
  let leader: number;
  try {
    // /proc/self/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces, so split after ')'.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    leader = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return;
  }
  if (!Number.isInteger(leader) || leader <= 1 || leader === process.pid) return;
  const timer = setInterval(() => {
    try {
      process.kill(leader, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') return;
      clearInterval(timer);
      stop();
    }
  }, everyMs);
  timer.unref();
}
