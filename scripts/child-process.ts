// How the project starts a Node program that must end with the process that starts it (a server:
// Prism, the sandbox, a vitest run): the preload scripts/exit-with-parent.mjs and an IPC channel,
// whose closing tells the child that its parent is gone, SIGKILL included.
import type { StdioOptions } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preload = pathToFileURL(fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url))).href;

/** Node's own arguments that load the watcher, to put before the program's. */
export const endWithParentArgs: readonly string[] = ['--import', preload];

type Stream = 'ignore' | 'pipe' | 'inherit';

/** The child's stdio, plus the IPC channel the watcher listens on. */
export function withParentChannel(stdin: Stream, stdout: Stream, stderr: Stream): StdioOptions {
  return [stdin, stdout, stderr, 'ipc'];
}
