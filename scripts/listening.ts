// Waiting for a server process to listen, on its word rather than by knocking on its port: the
// process is started with the preload scripts/report-listening.mjs (and an IPC channel,
// scripts/child-process.ts), which sends its port the moment it listens. A process that ends
// first ends the wait at once.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preload = pathToFileURL(fileURLToPath(new URL('./report-listening.mjs', import.meta.url))).href;

/** Node's own arguments that load the reporter, to put before the program's. */
export const reportListeningArgs: readonly string[] = ['--import', preload];

/** How the wait ended: the process listens on the port, it ended, or the limit came first. */
export type ListeningOutcome = 'listening' | 'ended' | 'timed out';

/**
 * Resolves once `child` (just spawned) reports listening on `port`, or has ended (its output read
 * to the end), or `limitMs` has passed.
 */
export function whenListening(child: ChildProcess, port: number, limitMs: number): Promise<ListeningOutcome> {
  return new Promise((resolve) => {
    const done = (outcome: ListeningOutcome) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('close', onClose);
      resolve(outcome);
    };
    const onMessage = (message: unknown) => {
      if ((message as { listening?: unknown } | null)?.listening === port) done('listening');
    };
    const onClose = () => done('ended');
    const timer = setTimeout(() => done('timed out'), limitMs);
    child.on('message', onMessage);
    child.once('close', onClose);
  });
}
