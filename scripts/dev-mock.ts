// A Prism mock of one document for `npm start`. Prism reads the document at start and reloads it
// by itself whenever the file changes, broken or not; so it is given a copy of the last good
// documents (a snapshot directory with the same layout, so relative $refs still resolve), which
// the watch loop updates only after a build passes, and only when the files this document reads
// changed. Prism's own reload is then the fast way to follow a save; when it does not report
// listening again in time, the mock is restarted.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type DevService, startDevProcess } from './dev-process.ts';
import { documentInputs, filesUnder } from './input-hashes.ts';
import { prismArgs } from './prism-command.ts';
import { timeLimits } from './time-limits.ts';

// Prism prints this when it serves (at start and after each reload of the document).
const listening = /Prism is listening on/;

export interface MockOptions {
  root: string;
  /** The document's path relative to the root, and the other documents (whose own mocks follow them). */
  file: string;
  otherDocuments: Set<string>;
  name: string;
  port: number;
  /** The directory of last good copies, shared by the mocks. */
  snapshot: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** The variable that sets the port, named when the port is taken. */
  portVariable?: string | undefined;
  /** Log Prism's every line (each request it answers); otherwise only its stderr. */
  verbose?: boolean;
  reloadTimeoutMs?: number;
}

/** Copies `relative` from root to snapshot when it differs (or always, when `force`); returns whether it did. */
function copyIfChanged(root: string, snapshot: string, relative: string, force = false): boolean {
  const source = join(root, relative);
  const target = join(snapshot, relative);
  if (!force && existsSync(target) && readFileSync(target).equals(readFileSync(source))) return false;
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(source, target);
  return true;
}

export function mockService(options: MockOptions): DevService {
  const { root, file, snapshot } = options;
  const url = `http://127.0.0.1:${options.port}`;
  /**
   * Brings the snapshot of this document and its parts (under openapi/, at any depth) up to date; the document is written last, and always when `touch`: its write is what Prism
   * reloads on, and by then its parts are in place. Another document's file is its own mock's.
   */
  const sync = (touch: boolean) => {
    for (const relative of filesUnder(root, 'openapi')) {
      if (relative !== file && !options.otherDocuments.has(relative)) copyIfChanged(root, snapshot, relative);
    }
    copyIfChanged(root, snapshot, file, touch);
  };
  let onLine: ((line: string) => void) | undefined;
  return {
    name: options.name,
    url,
    // What Prism serves from: the document and the files it $refs, not the code samples.
    inputs: () => documentInputs(root, file).filter((input) => /\.(ya?ml|json)$/.test(input)),
    start() {
      sync(false);
      return startDevProcess({
        name: options.name,
        args: [...prismArgs, 'mock', '-h', '127.0.0.1', '-p', String(options.port), join(snapshot, file)],
        cwd: root,
        env: options.env,
        readyUrl: url,
        log: options.log,
        onLine: (line) => onLine?.(line),
        port: { number: options.port, variable: options.portVariable },
        quiet: !options.verbose,
      });
    },
    async refresh() {
      // Prism watches the document alone: it is rewritten even when only a part changed, and
      // Prism then reads it and its parts again. It waits for the file to settle (0.5 s) before
      // it reloads, so the line it prints then is not missed here.
      const reloaded = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          onLine = undefined;
          reject(new Error('Prism did not reload the document in time'));
        }, options.reloadTimeoutMs ?? timeLimits.mockReloadMs);
        onLine = (line) => {
          if (!listening.test(line)) return;
          clearTimeout(timer);
          onLine = undefined;
          resolve();
        };
      });
      sync(true);
      await reloaded;
    },
  };
}
