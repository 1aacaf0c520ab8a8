// What npm test quotes of a failed stage (scripts/stage-output.ts): vitest's account of the
// failure when there is one, else the output's last lines; colour codes dropped.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { failureExcerpt, StageTranscript } from '../../scripts/stage-output.ts';

const numbered = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);

describe('failureExcerpt', () => {
  it("quotes from vitest's first failure section on, at most 80 lines, without colour codes", () => {
    const output = [
      ...numbered(50, '[test:unit] ✓ passed'),
      '[test:unit] \u001b[31m⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯\u001b[39m',
      ...numbered(100, '[test:unit] detail'),
      '',
    ].join('\n');
    const excerpt = failureExcerpt(output);
    expect(excerpt[0]).toBe('[test:unit] ⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯');
    expect(excerpt).toHaveLength(80);
    expect(excerpt.at(-1)).toBe('[test:unit] detail 79');
  });

  it('finds an error outside any test too', () => {
    const output = [...numbered(5, 'ok'), '⎯⎯ Unhandled Errors ⎯⎯', 'Error: socket hang up'].join('\n');
    expect(failureExcerpt(output)).toEqual(['⎯⎯ Unhandled Errors ⎯⎯', 'Error: socket hang up']);
  });

  it('without a failure section, the last 40 lines', () => {
    const excerpt = failureExcerpt(`${numbered(100, 'line').join('\n')}\n\n`);
    expect(excerpt).toEqual(numbered(100, 'line').slice(-40));
  });
});

describe('StageTranscript', () => {
  it('passes stdout and stderr on, and keeps both in the order they came', async () => {
    const transcript = new StageTranscript();
    const [out, err] = [new PassThrough(), new PassThrough()];
    const passed: string[] = [];
    out.on('data', (chunk: Buffer) => passed.push(`out:${chunk}`));
    err.on('data', (chunk: Buffer) => passed.push(`err:${chunk}`));
    const [stdout, stderr] = [transcript.through(out), transcript.through(err)];
    const write = (stream: NodeJS.WritableStream, text: string) =>
      new Promise<void>((resolve) => stream.write(text, () => resolve()));
    await write(stdout, 'one\n');
    await write(stderr, 'two\n');
    await write(stdout, 'three\n');
    expect(passed).toEqual(['out:one\n', 'err:two\n', 'out:three\n']);
    expect(transcript.text).toBe('one\ntwo\nthree\n');
  });
});
