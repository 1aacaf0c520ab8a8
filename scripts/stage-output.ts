// What `npm test` quotes of a failed stage after every stage has ended (scripts/test-stages.ts).
// The stages of the two lanes print side by side for minutes, so a failure's details sit far up in
// the log, among the other lane's lines; a reader of the run's end (CI shows the end of a log)
// sees the table say FAILED and nothing of why. So each lane stage's output is kept as it passes,
// and a failed stage's failure is printed again just above the table.
import { Writable } from 'node:stream';

/** Lines of a failure quoted at most, and lines quoted of an output without a failure section. */
const quotedLines = 80;
const lastLines = 40;

/**
 * Where vitest begins its account of what failed (a failed test, or an error outside any test): a
 * line of its own, after the stage's label.
 */
const failureSection =
  /^(\[[^\]]*\] )?\s*⎯+ (Failed Tests \d+|Failed Suites \d+|Unhandled Errors?|Unhandled Rejection)\b/;

/** What a stage printed, on stdout and stderr in the order it came, kept as it passes on. */
export class StageTranscript {
  private readonly chunks: Buffer[] = [];

  /** A stream that writes on to `target` and keeps what passed. */
  through(target: NodeJS.WritableStream): Writable {
    const { chunks } = this;
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        target.write(chunk, () => done());
      },
    });
    // npm-run-all2 colours its labels for a terminal only.
    return Object.assign(stream, { isTTY: (target as { isTTY?: boolean }).isTTY === true });
  }

  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * The part of a failed stage's output that says why: from vitest's first failure section on, or
 * else the output's last lines (a tsc, lint or script failure ends with its reason). Without
 * colours, each line as it was printed.
 */
export function failureExcerpt(output: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape starts every colour code.
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  while (lines.at(-1)?.trim() === '') lines.pop();
  const start = lines.findIndex((line) => failureSection.test(line));
  return start >= 0 ? lines.slice(start, start + quotedLines) : lines.slice(-lastLines);
}
