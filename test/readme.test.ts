// The README's TypeScript examples are type-checked against the real client and generated types,
// so that they cannot drift from the API.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import { projectRoot } from '../model/document.ts';
import { environmentVariables } from '../model/environment.ts';
import { startSandboxProcess } from '../sandbox/process.ts';
import { timeLimits } from '../scripts/time-limits.ts';
import { createPrivateClient, unwrap } from '../src/index.ts';

const blocks = [
  ...readFileSync(join(projectRoot, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g),
].map((match) => match[1] as string);
// At the project root, where a reader runs them: `import … from 'txc-api-v4'` resolves to the
// package itself and `./sandbox/…` to the sandbox.
const files = blocks.map((_, index) => join(projectRoot, `.readme-example-${index}.ts`));
const tsconfig = join(projectRoot, '.readme-examples.tsconfig.json');
const programFile = join(projectRoot, '.readme-example-program.ts');
const scratch = mkdtempSync(join(tmpdir(), 'txc-readme-'));
afterAll(() => {
  for (const file of [...files, tsconfig, programFile]) rmSync(file, { force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** The README's complete program: the block that makes both clients. */
const program = blocks.find(
  (code) => code.includes('createPublicClient(') && code.includes('createPrivateClient('),
);

describe('README examples', () => {
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

  it('the complete program succeeds at all six operations against the sandbox, with its printed .env', async () => {
    if (!program) throw new Error('the README has no complete program');
    // Every operation of the documents is in it.
    for (const { method, path } of Object.values(operations)) {
      expect(program).toContain(`${method.toUpperCase()}('${path}'`);
    }
    const sandbox = await startSandboxProcess({ SANDBOX_QUIET: '1' });
    try {
      // The start-up lines, as printed, are the .env file.
      const envFile = join(scratch, '.env');
      writeFileSync(envFile, sandbox.envText);
      const url = sandbox.values[environmentVariables.baseUrl];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const clean = { ...process.env };
      for (const name of Object.values(environmentVariables)) delete clean[name];
      // node's own parser reads the three names from it
      const node = spawnSync(
        process.execPath,
        [
          `--env-file=${envFile}`,
          '-p',
          `[${Object.values(environmentVariables)
            .map((name) => `process.env.${name}`)
            .join(',')}].join(' ')`,
        ],
        { encoding: 'utf8', env: clean },
      );
      expect(node.stderr).toBe('');
      expect(node.stdout.trim()).toBe(
        Object.values(environmentVariables)
          .map((name) => sandbox.values[name])
          .join(' '),
      );

      writeFileSync(programFile, `${program}\nexport {};\n`);
      const run = spawnSync(
        join(projectRoot, 'node_modules/.bin/tsx'),
        [`--env-file=${envFile}`, programFile],
        {
          cwd: projectRoot,
          encoding: 'utf8',
          env: { ...clean, NO_COLOR: '1' },
          timeout: timeLimits.runMs,
        },
      );
      // Every step succeeded: nothing on stderr, one line per step on stdout.
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const output = run.stdout;
      expect(output).toMatch(/^\[ 'pong' \]\n/);
      expect(output).toMatch(/USDT: \{ main_balance: '25000\.5' \}|USDT: '25000\.5'/);
      expect(output).toMatch(/^history \d+ records$/m);
      expect(output).toMatch(/^invested [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/m);
      expect(output).toMatch(/^collateral /m);
      expect(output).toMatch(/^cancelled$/m);

      // And the sandbox holds the investment: 100.00 USDT left the main balance.
      const client = createPrivateClient({
        baseUrl: url as string,
        apiKey: sandbox.values[environmentVariables.apiKey] as string,
        apiSecret: sandbox.values[environmentVariables.apiSecret] as string,
      });
      const after = await unwrap(client.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }));
      await client.close();
      expect(after).toEqual({ main_balance: '24900.5' });
    } finally {
      await sandbox.stop();
    }
  });
});
