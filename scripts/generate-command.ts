// `npm run generate [-- --check] [--root DIR]`, as a function of its arguments and its output
// lines, so that a test runs the command on a copy of the project without a process that loads
// codegen again (scripts/generate.ts is its command line). Writes generated/ from the documents;
// with --check it writes nothing and fails when any file in generated/ differs from what the
// documents produce or is not produced by them at all, so CI catches a forgotten generate.
import { fileURLToPath } from 'node:url';
import { staleGeneratedFiles, writeGeneratedFiles } from './generated-files.ts';

/** Where the command's lines go: what a run prints, and what it prints as failure. */
export interface GenerateOutput {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: GenerateOutput = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** Runs the command; resolves with its exit code (1: --check found generated/ stale). */
export async function runGenerate(args: readonly string[], output = consoleOutput): Promise<number> {
  const rootFlag = args.indexOf('--root');
  const root = rootFlag >= 0 ? (args[rootFlag + 1] as string) : fileURLToPath(new URL('..', import.meta.url));
  if (args.includes('--check')) {
    const { differing, leftover } = await staleGeneratedFiles(root);
    for (const file of differing) output.err(`${file} is stale: run npm run generate`);
    for (const file of leftover) output.err(`${file} is not produced by the documents: run npm run generate`);
    if (differing.length + leftover.length > 0) return 1;
    output.out('generated/ is up to date');
    return 0;
  }
  const { written, removed } = await writeGeneratedFiles(root);
  for (const file of written) output.out(`wrote ${file}`);
  for (const file of removed) output.out(`removed ${file}`);
  return 0;
}
