// The README's TypeScript examples are type-checked against the real client and generated types,
// so that they cannot drift from the API.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import { projectRoot } from '../scripts/openapi-document.ts';

const blocks = [
  ...readFileSync(join(projectRoot, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g),
].map((match) => match[1] as string);
// Inside the project, so that `import … from 'txc-api-v4'` resolves to the package itself.
const folder = join(projectRoot, 'node_modules', '.readme-examples');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('README examples', { timeout: 60_000 }, () => {
  it('show every operation of the documents', () => {
    const code = blocks.join('\n');
    for (const { method, path } of Object.values(operations)) {
      expect(code, path).toContain(`${method.toUpperCase()}('${path}'`);
    }
  });

  it('type-check', () => {
    mkdirSync(folder, { recursive: true });
    const files = blocks.map((code, index) => {
      const file = join(folder, `example-${index}.ts`);
      writeFileSync(file, `${code}\nexport {};\n`);
      return file;
    });
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        include: files.map((file) => file.slice(folder.length + 1)),
      }),
    );
    const result = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', folder],
      {
        encoding: 'utf8',
      },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
