// The manual a reader copies from: the README and the guides (docs/guides/*.md), and their
// TypeScript code blocks, each with the file it is written in. The tests type-check, lint and run
// these blocks (test/readme.test.ts, test/readme-opentelemetry.test.ts) and check the names they
// use (test/environment-names.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { guideInputs } from '../docs/guides.ts';
import { projectRoot } from '../model/document.ts';

/** The README, then each guide, relative to the project root. */
export const manualFiles = (): string[] => ['README.md', ...guideInputs(projectRoot)];

/** A guide by its name (`txc` is docs/guides/txc.md), as text. */
export const guideText = (name: string): string =>
  readFileSync(join(projectRoot, 'docs', 'guides', `${name}.md`), 'utf8');

export interface CodeBlock {
  /** The file it is written in: `docs/guides/hooks.md`. */
  source: string;
  /** Its place among that file's TypeScript blocks, from 0. */
  index: number;
  code: string;
}

/** Every ```ts block of the README and the guides. */
export function manualCodeBlocks(): CodeBlock[] {
  return manualFiles().flatMap((source) =>
    [...readFileSync(join(projectRoot, source), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
      (match, index) => ({ source, index, code: match[1] as string }),
    ),
  );
}

/**
 * The one block that holds every one of `markers`: the blocks a test runs are found by what they
 * do, so a test that runs one fails plainly when it has gone or become two.
 */
export function blockWith(...markers: string[]): CodeBlock {
  const found = manualCodeBlocks().filter((block) => markers.every((marker) => block.code.includes(marker)));
  if (found.length !== 1) {
    throw new Error(
      `expected one code block of the README or a guide with ${markers.join(' and ')}, found ${found.length}`,
    );
  }
  return found[0] as CodeBlock;
}
