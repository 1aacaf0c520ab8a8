// Writes ask first. On a terminal txc shows exactly what it is about to send (where, the key, the
// body; never the secret) and waits for "y"; without a terminal it refuses unless --yes, so a
// script never changes an account by accident.
import { createInterface } from 'node:readline/promises';
import type { RetrySafe } from './operations.ts';
import { UsageError } from './usage-error.ts';

export interface PendingWrite {
  command: string;
  method: string;
  url: string;
  apiKey: string;
  body: Record<string, unknown>;
  /** Whether the client may repeat it (it never repeats one that is not). */
  retrySafe: RetrySafe;
}

function describeWrite(write: PendingWrite): string {
  return [
    `txc ${write.command} will send ${write.method.toUpperCase()} ${write.url}`,
    `  key:  ${write.apiKey}`,
    `  body: ${JSON.stringify(write.body)}`,
    '  (the client adds request and nonce and signs the body)',
    write.retrySafe === false
      ? '  sent once: it is never retried'
      : write.retrySafe === true
        ? ''
        : `  retried only when the body has ${write.retrySafe.idempotencyKey}`,
  ]
    .filter(Boolean)
    .join('\n');
}

/** Whether the write may go ahead; without a terminal or --yes, a UsageError. */
export async function confirmWrite(write: PendingWrite, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) {
    throw new UsageError(
      `${write.command} changes the account: run it on a terminal to confirm, or pass --yes`,
    );
  }
  process.stderr.write(`${describeWrite(write)}\n`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question('Send it? [y/N] ');
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}
