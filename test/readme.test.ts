// The TypeScript examples of the README and of every guide (docs/guides/*.md) are type-checked
// against the real client and generated types, in one tsc run, so that they cannot drift from the
// API; they are lint-clean as files of their own; and the ones that are programs a reader runs
// (found by what they do: test/manual.ts) run against the sandbox. The OpenTelemetry recipe runs in
// test/readme-opentelemetry.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import { projectRoot } from '../model/document.ts';
import { environmentVariables } from '../model/environment.ts';
import { type SandboxProcess, startSandboxProcess } from '../sandbox/process.ts';
import { nativeTsc } from '../scripts/native-tsc.ts';
import { timeLimits } from '../scripts/time-limits.ts';
import { createPrivateClient, unwrap } from '../src/index.ts';
import { blockWith, manualCodeBlocks } from './manual.ts';

const manual = manualCodeBlocks();
const blocks = manual.map((block) => block.code);
// At the project root, where a reader runs them: `import … from 'txc-api-v4'` resolves to the
// package itself and `./sandbox/…` to the sandbox. Named by where they are written, so that a
// tsc or Biome message says which guide's block it is: `.manual-example-hooks-1.ts`.
const files = manual.map(({ source, index }) =>
  join(
    projectRoot,
    `.manual-example-${source.replace(/^docs\/guides\/|\.md$/g, '').toLowerCase()}-${index}.ts`,
  ),
);
const tsconfig = join(projectRoot, '.readme-examples.tsconfig.json');
const programFile = join(projectRoot, '.readme-example-program.ts');
const scratch = mkdtempSync(join(tmpdir(), 'txc-readme-'));
/**
 * `npm run sandbox`'s program, started once for the runs against it (a start is about two
 * CPU-seconds): the new project's snippet only reads, so the README's program after it still
 * finds the fixture's balances.
 */
let sandboxProcess: Promise<SandboxProcess> | undefined;
const sandbox = () => {
  sandboxProcess ??= startSandboxProcess({ SANDBOX_QUIET: '1' });
  return sandboxProcess;
};
afterAll(async () => {
  for (const file of [...files, tsconfig, programFile]) rmSync(file, { force: true });
  rmSync(scratch, { recursive: true, force: true });
  await (await sandboxProcess?.catch(() => undefined))?.stop();
});

/** The complete program (the client guide's): the block that makes both clients, for concurrent callers. */
const program = blockWith('createPublicClient(', 'createPrivateClient(', 'nonceWindow: true').code;

/** The openapi-fetch snippet: the shortest complete program, for the new-project runs. */
const middlewareSnippet = blockWith('createSigningMiddleware(').code;

/** The README's one program: health and one balance, before anything has changed the account. */
const readmeProgram = manual.find((block) => block.source === 'README.md')?.code;

/** The hooks example: a program that logs each call's end. */
const hooksExample = blockWith('hooks: {', 'end: [').code;

/**
 * What tsc says of the program of a config (the snippets and what they import), with its exit
 * code: TypeScript 7's native tsc, as `npm run typecheck` runs it, checks it in a few seconds.
 */
function typeCheck(configFile: string) {
  const result = spawnSync(process.execPath, [nativeTsc, '-p', configFile, '--noEmit', '--pretty', 'false'], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: timeLimits.runMs,
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

/** Runs `tsx <args>` in `cwd` with only the environment a reader has (no TXC_* of this machine). */
function tsx(cwd: string, args: string[]) {
  const clean = { ...process.env };
  for (const name of Object.values(environmentVariables)) delete clean[name];
  return spawnSync(join(projectRoot, 'node_modules/.bin/tsx'), args, {
    cwd,
    encoding: 'utf8',
    env: { ...clean, NO_COLOR: '1' },
    timeout: timeLimits.runMs,
  });
}

describe('the code blocks of the README and the guides', () => {
  // The guides show a few operations by hand; every operation's own sample is derived from its
  // request example (generated/samples/, shown on its docs page), so a new operation costs no
  // guide line. What the guides call must still be operations of the documents.
  it('call only operations of the documents, and every operation has its generated sample', () => {
    const documented = new Set(
      Object.values(operations).map(({ method, path }) => `${method.toUpperCase()}('${path}'`),
    );
    const calls = [...blocks.join('\n').matchAll(/\b(GET|POST)\('([^']+)'/g)].map(
      ([, method, path]) => `${method}('${path}'`,
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(documented, call).toContain(call);
    for (const operationId of Object.keys(operations)) {
      expect(existsSync(join(projectRoot, 'generated', 'samples', `${operationId}.ts`)), operationId).toBe(
        true,
      );
    }
  });

  it("type-check, every guide's in one tsc run", () => {
    // Each guide with code contributes: the README's program moved, it did not vanish.
    expect(new Set(manual.map((block) => block.source)).size).toBeGreaterThan(5);
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
    expect(typeCheck(tsconfig)).toEqual({ status: 0, output: '' });
  });

  it('are lint-clean as files of their own at the repository root (Biome, as npm run lint checks)', () => {
    blocks.forEach((code, index) => {
      writeFileSync(files[index] as string, code);
    });
    const result = spawnSync(
      join(projectRoot, 'node_modules/.bin/biome'),
      ['check', '--error-on-warnings', '--colors=off', ...files],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    expect(result.stdout + result.stderr).not.toMatch(/×|!/);
    expect(result.status).toBe(0);
  });

  it('run in a new project: as example.mts when it is CommonJS (npm init -y), as example.ts with "type": "module"', async () => {
    const project = mkdtempSync(join(scratch, 'project-'));
    writeFileSync(join(project, '.env'), (await sandbox()).envText);
    // What npm init -y writes; the package is resolved to this repository's sources, as the
    // installed one would be (the package tests cover the installed package itself).
    const manifest = { name: 'project', version: '1.0.0', main: 'index.js', type: 'commonjs' };
    writeFileSync(join(project, 'package.json'), JSON.stringify(manifest));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          paths: {
            'txc-api-v4': [join(projectRoot, 'src/index.ts')],
            'txc-api-v4/middleware': [join(projectRoot, 'src/middleware.ts')],
            '#transport': [join(projectRoot, 'src/transport/undici.ts')],
          },
        },
      }),
    );
    // Its own dependencies (openapi-fetch, which the snippet imports) as installed ones.
    symlinkSync(join(projectRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
    writeFileSync(join(project, 'example.ts'), middlewareSnippet);
    writeFileSync(join(project, 'example.mts'), middlewareSnippet);
    // Why the client guide says so: as .ts in a CommonJS project, top-level await does not compile.
    const commonJs = tsx(project, ['--env-file=.env', 'example.ts']);
    expect(commonJs.stderr).toContain(
      'Top-level await is currently not supported with the "cjs" output format',
    );
    expect(commonJs.status).not.toBe(0);

    // The sandbox's collateral summary of BTC, as the snippet prints it.
    const expected = /asset: 'BTC',\n\s+balance: '0\.5'/;
    const mts = tsx(project, ['--env-file=.env', 'example.mts']);
    expect(mts.stderr).toBe('');
    expect(mts.status).toBe(0);
    expect(mts.stdout).toMatch(expected);
    expect(mts.stdout).not.toMatch(/kind|error/i);

    writeFileSync(join(project, 'package.json'), JSON.stringify({ ...manifest, type: 'module' }));
    const esm = tsx(project, ['--env-file=.env', 'example.ts']);
    expect(esm.stderr).toBe('');
    expect(esm.status).toBe(0);
    expect(esm.stdout).toBe(mts.stdout);
  });

  it("the README's program, the complete program's six operations and the hooks example succeed against the sandbox, with its printed .env", async () => {
    // Six operations of the documents are in it, each called by its path.
    const called = Object.values(operations).filter(({ method, path }) =>
      program.includes(`${method.toUpperCase()}('${path}'`),
    );
    expect(called.length).toBeGreaterThanOrEqual(6);
    const { envText, values } = await sandbox();
    // The start-up lines, as printed, are the .env file.
    const envFile = join(scratch, '.env');
    writeFileSync(envFile, envText);
    const url = values[environmentVariables.baseUrl];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const clean = { ...process.env };
    for (const name of Object.values(environmentVariables)) delete clean[name];
    // node's own parser reads the three names from it (where to call and as whom; the gateway's
    // token is not the sandbox's to print)
    const printed = [
      environmentVariables.baseUrl,
      environmentVariables.apiKey,
      environmentVariables.apiSecret,
    ];
    const node = spawnSync(
      process.execPath,
      [
        `--env-file=${envFile}`,
        '-p',
        `JSON.stringify([${printed.map((name) => `process.env.${name}`).join(',')}])`,
      ],
      { encoding: 'utf8', env: clean },
    );
    expect(node.stderr).toBe('');
    expect(JSON.parse(node.stdout)).toEqual(printed.map((name) => values[name]));
    expect(printed.every((name) => typeof values[name] === 'string' && values[name] !== '')).toBe(true);

    /** Runs one block as a reader's program with the sandbox's .env, in a clean environment. */
    const runBlock = (code: string) => {
      writeFileSync(programFile, `${code}\nexport {};\n`);
      return spawnSync(join(projectRoot, 'node_modules/.bin/tsx'), [`--env-file=${envFile}`, programFile], {
        cwd: projectRoot,
        encoding: 'utf8',
        env: { ...clean, NO_COLOR: '1' },
        timeout: timeLimits.runMs,
      });
    };

    // The README's program first, on the fixture's balances.
    if (!readmeProgram) throw new Error('the README has no program');
    const first = runBlock(readmeProgram);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toBe("[ 'pong' ]\nUSDT { main_balance: '25000.5' }\n");

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
      apiKey: values[environmentVariables.apiKey] as string,
      apiSecret: values[environmentVariables.apiSecret] as string,
    });
    const after = await unwrap(client.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } }));
    await client.close();
    expect(after).toEqual({ main_balance: '24900.5' });

    // The hooks guide's example, on the same sandbox: one line from its `end` hook.
    const hooked = runBlock(hooksExample);
    expect(hooked.stderr).toBe('');
    expect(hooked.status).toBe(0);
    expect(hooked.stdout).toMatch(/^getMainBalance ok [\d.]+ ms\n$/);
  });
});
