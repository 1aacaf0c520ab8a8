// The README's TypeScript examples are type-checked against the real client and generated types,
// so that they cannot drift from the API.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import { projectRoot } from '../model/document.ts';

const blocks = [
  ...readFileSync(join(projectRoot, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g),
].map((match) => match[1] as string);
// At the project root, where a reader runs them: `import … from 'txc-api-v4'` resolves to the
// package itself and `./sandbox/…` to the sandbox.
const files = blocks.map((_, index) => join(projectRoot, `.readme-example-${index}.ts`));
const tsconfig = join(projectRoot, '.readme-examples.tsconfig.json');
afterAll(() => {
  for (const file of [...files, tsconfig]) rmSync(file, { force: true });
});

describe('README examples', { timeout: 60_000 }, () => {
  it('show every operation of the documents', () => {
    const code = blocks.join('\n');
    for (const { method, path } of Object.values(operations)) {
      expect(code, path).toContain(`${method.toUpperCase()}('${path}'`);
    }
  });

  it('type-check', () => {
    blocks.forEach((code, index) => {
      writeFileSync(files[index] as string, `${code}\nexport {};\n`);
    });
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: './tsconfig.json',
        include: files.map((file) => file.slice(projectRoot.length)),
      }),
    );
    const result = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', tsconfig],
      {
        encoding: 'utf8',
      },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
