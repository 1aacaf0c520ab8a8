// txc in a real terminal: a tmux server of the test's own (its socket in a scratch directory),
// sessions that each run txc as built for the tests (./txc-bundle.setup.ts) and stay open after it
// exits, showing its exit code, and the waits the tests need: for txc to exit (the session's
// channel), and for the pane to show something (the screen, read again each time tmux reports
// output to the pane through a control-mode client, ./tmux-control.ts), each within a limit sized
// for a loaded machine.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../model/document.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { cleanEnvironment, txcCommand } from './helpers.ts';
import { attachControl } from './tmux-control.ts';

const run = promisify(execFile);

export interface Tmux {
  /** Any tmux command, on this server. */
  tmux(...args: string[]): Promise<{ stdout: string }>;
  /** Starts txc in a detached terminal (160x40 unless told); the pane stays open after it exits, showing its code. */
  startTxc(session: string, args: readonly string[], width?: number, height?: number): Promise<void>;
  /** What the pane shows. */
  screen(session: string): Promise<string>;
  /** The pane's lines, those the terminal wrapped joined (-J), trailing spaces and blank lines dropped. */
  joinedLines(session: string): Promise<string[]>;
  /** Waits until txc in the session has ended (its channel is signalled), and returns the screen. */
  waitForExit(session: string): Promise<string>;
  /** Reads the pane, and again each time output reaches it, until `wanted` holds; returns it. */
  waitFor(session: string, wanted: RegExp | ((text: string) => boolean), timeoutMs?: number): Promise<string>;
  /** A tmux format of the pane (`#{cursor_flag}`). */
  display(session: string, format: string): Promise<string>;
  /** Kills the server and every session. */
  kill(): Promise<void>;
}

/** A tmux server whose socket is in `dir`; fails with what to install when tmux is missing. */
export async function startTmux(dir: string): Promise<Tmux> {
  try {
    await run('tmux', ['-V']);
  } catch {
    throw new Error('tmux is required for the terminal tests: apt-get install -y tmux');
  }
  const socket = join(dir, 'tmux.sock');
  // -u: UTF-8 whatever the locale, so an ellipsis is one column.
  const tmuxArgs = ['-u', '-S', socket, '-f', '/dev/null'];
  const environment = cleanEnvironment();
  const tmux = (...args: string[]) =>
    run('tmux', [...tmuxArgs, ...args], { env: environment, timeout: timeLimits.runMs });
  const screen = async (session: string) => (await tmux('capture-pane', '-p', '-t', session)).stdout;
  return {
    tmux,
    async startTxc(session, args, width = 160, height = 40) {
      const command = [...txcCommand(), ...args].map((arg) => `'${arg}'`).join(' ');
      await tmux(
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        String(width),
        '-y',
        String(height),
        '-c',
        projectRoot,
        // The exit code shows on the pane, the session's channel tells the test, and the pane stays
        // open (until the tmux server is killed) for the test to read.
        `${command}; echo "[exit $?]"; tmux -S '${socket}' wait-for -S '${session}-exited'; tail -f /dev/null`,
      );
    },
    screen,
    async joinedLines(session) {
      return (await tmux('capture-pane', '-p', '-J', '-t', session)).stdout
        .split('\n')
        .map((line) => line.trimEnd())
        .filter((line) => line !== '');
    },
    async waitForExit(session) {
      await tmux('wait-for', `${session}-exited`);
      return screen(session);
    },
    async waitFor(session, wanted, timeoutMs = timeLimits.runMs) {
      const test = typeof wanted === 'function' ? wanted : (text: string) => wanted.test(text);
      const pane = attachControl(tmuxArgs, session, environment);
      let text = '';
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${String(wanted)} in:\n${text}`)),
          timeoutMs,
        );
      });
      try {
        for (;;) {
          // Asked before the capture: output drawn while it is read is not missed, only read twice.
          const changed = pane.nextOutput();
          changed.catch(() => undefined);
          text = await Promise.race([pane.capture(), timedOut]);
          if (test(text)) return text;
          await Promise.race([changed, timedOut]);
        }
      } finally {
        clearTimeout(timer);
        await pane.close();
      }
    },
    async display(session, format) {
      return (await tmux('display-message', '-p', '-t', session, format)).stdout.trim();
    },
    async kill() {
      await tmux('kill-server').catch(() => undefined);
    },
  };
}
