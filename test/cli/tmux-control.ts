// A tmux control-mode client (`tmux -C attach-session`) on one session: the signal that the pane
// changed. tmux writes `%output` for every chunk a program in the session writes to its terminal,
// after it has drawn that chunk on the screen; a command sent on the client's stdin is answered in
// a `%begin … %end` block in the same stream, in order. So a screen captured through the client
// after an `%output` shows at least that output, and nothing a program writes after the client is
// attached goes unnoticed: a wait needs no polling. A control client takes no part in sizing the
// window (it has set no size), so attaching it leaves the terminal as the test made it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface PaneControl {
  /** What the pane shows now (`capture-pane -p`), read in order with the output notices. */
  capture(): Promise<string>;
  /** Settles at the next output the pane receives after this call (rejects if the client ends). */
  nextOutput(): Promise<void>;
  /** Detaches the client (end of its stdin) and waits for it to end. */
  close(): Promise<void>;
}

/** The reply lines of one command; `%error` ends it as a failure. */
interface Pending {
  resolve(lines: string[]): void;
  reject(error: Error): void;
}

/** Attaches a control client to `session`; `tmuxArgs` select the server (`-S socket …`). */
export function attachControl(
  tmuxArgs: readonly string[],
  session: string,
  env: NodeJS.ProcessEnv,
): PaneControl {
  const child = spawn('tmux', [...tmuxArgs, '-C', 'attach-session', '-t', session], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.once('error', (error) => {
    stderr += error.message;
  });
  // A command written as the client ends fails below, by its reply never coming: not an EPIPE crash.
  child.stdin.on('error', () => undefined);
  const replies: Pending[] = [];
  let outputWaiters: Pending[] = [];
  let ended: Error | undefined;
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  // A block's lines until its end; blocks with flags 0 answer no command of ours (the attach).
  let block: { end: string; fromUs: boolean; lines: string[] } | undefined;
  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    if (block) {
      const [word, ...rest] = line.split(' ');
      if ((word === '%end' || word === '%error') && rest.join(' ') === block.end) {
        const { fromUs, lines: reply } = block;
        block = undefined;
        if (!fromUs) return;
        const pending = replies.shift();
        if (word === '%end') pending?.resolve(reply);
        else pending?.reject(new Error(`tmux control: ${reply.join('\n')}`));
      } else {
        block.lines.push(line);
      }
      return;
    }
    if (line.startsWith('%begin ')) {
      const end = line.slice('%begin '.length);
      block = { end, fromUs: end.split(' ')[2] === '1', lines: [] };
    } else if (line.startsWith('%output ')) {
      const waiters = outputWaiters;
      outputWaiters = [];
      for (const waiter of waiters) waiter.resolve([]);
    }
  });
  void closed.then(() => {
    ended = new Error(`the tmux control client on ${session} ended${stderr ? `: ${stderr.trim()}` : ''}`);
    for (const pending of [...replies, ...outputWaiters]) pending.reject(ended);
    replies.length = 0;
    outputWaiters = [];
  });

  const command = (text: string) =>
    new Promise<string[]>((resolve, reject) => {
      if (ended) return reject(ended);
      replies.push({ resolve, reject });
      child.stdin.write(`${text}\n`);
    });

  return {
    async capture() {
      // The same text `tmux capture-pane -p` prints: each line ended by a newline.
      return (await command(`capture-pane -p -t '${session}'`)).map((line) => `${line}\n`).join('');
    },
    nextOutput() {
      return new Promise<void>((resolve, reject) => {
        if (ended) return reject(ended);
        outputWaiters.push({ resolve: () => resolve(), reject });
      });
    },
    async close() {
      child.stdin.end();
      await closed;
    },
  };
}
