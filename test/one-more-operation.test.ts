// An operation costs its YAML: a copy of the project, its documents cut to a few operations, gains
// one stateless operation (a file under openapi/paths/ and its line in the root document, nothing
// else touched), `npm run generate` runs in the copy, and the copy then has the operation's
// contract cases and typed check (the contract suite, run in the copy against the mocks and
// filtered to it, passes and runs its checks), its txc subcommand (its flags in --help, a call
// that works), its docs sample in the documents build-docs reads and its place on the landing
// page. Nothing outside openapi/ and generated/ differs from the project. (Against the copy's
// sandbox too, once the sandbox answers an operation from its examples.)
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocuments, loadApiDocumentsFrom, projectRoot, workingTreeReader } from '../model/document.ts';
import { endWithParentArgs, withParentChannel } from '../scripts/child-process.ts';
import { documentsWithSamples } from '../scripts/code-samples.ts';
import { writeGeneratedFiles } from '../scripts/generated-files.ts';
import { timeLimits } from '../scripts/time-limits.ts';
import { json, type LocalServer, startLocalServer } from './client/local-server.ts';
import { keepFewOperations } from './few-operations.ts';

const model = {
  operationId: 'getKillSwitchStatus',
  path: '/api/v4/order/kill-switch/status',
  cli: 'kill-switch-status',
};
const added = {
  operationId: 'getKillSwitchHistory',
  path: '/api/v4/order/kill-switch/history',
  cli: 'kill-switch-history',
};

const copy = mkdtempSync(join(tmpdir(), 'one-more-operation-'));
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: projectRoot, encoding: 'utf8' })
  .split('\0')
  .filter(Boolean);

/** Runs a project program in the copy, to its end; it ends with this process, however that ends. */
function runInCopy(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...endWithParentArgs, '--import', 'tsx', ...args], {
      cwd: copy,
      env: { ...process.env, ...env, NO_COLOR: '1' },
      stdio: withParentChannel('ignore', 'pipe', 'pipe'),
      signal: AbortSignal.timeout(timeLimits.runMs),
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** The contract files whose cases the proof reads: accepted calls and statuses, invalid inputs, typed data. */
const caseFiles = ['operations', 'invalid-input', 'typed'].map(
  (name) => `contract-tests/${name}.contract.ts`,
);

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

let server: LocalServer;
beforeAll(async () => {
  for (const file of tracked) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(projectRoot, file), join(copy, file));
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'));
  // The copy's documents keep a few operations, the model among them: what one more operation
  // costs does not depend on how many the documents have, and every step below (codegen, the
  // mock, the suite and txc reading the documents) took longer with each operation they hold.
  keepFewOperations(copy, { operationIds: [model.operationId] });
  // The new operation: the model operation's file under another id, path and name.
  const yaml = readFileSync(join(projectRoot, `openapi/paths/${model.operationId}.yaml`), 'utf8')
    .replaceAll(model.path, added.path)
    .replaceAll(model.operationId, added.operationId)
    .replaceAll(model.cli, added.cli);
  writeFileSync(join(copy, `openapi/paths/${added.operationId}.yaml`), yaml);
  const root = join(copy, 'openapi/private-v4.yaml');
  const line = `  ${model.path}:\n    $ref: paths/${model.operationId}.yaml\n`;
  const document = readFileSync(root, 'utf8');
  expect(document).toContain(line);
  writeFileSync(
    root,
    document.replace(line, `${line}  ${added.path}:\n    $ref: paths/${added.operationId}.yaml\n`),
  );
  // `npm run generate` in the copy: its program (scripts/generate.ts, as the project's, which the
  // first test shows) with the copy as root, here rather than in a process that loads codegen again.
  await writeGeneratedFiles(copy);
}, timeLimits.hookMs);

afterAll(async () => {
  await server?.close();
  rmSync(copy, { recursive: true, force: true });
});

describe('one more operation, its YAML only', () => {
  it('touches nothing outside openapi/ and generated/', () => {
    const differing = tracked
      .filter((file) => !/^(openapi|generated)\//.test(file))
      .filter((file) => hash(join(projectRoot, file)) !== hash(join(copy, file)));
    expect(differing).toEqual([]);
    const operations = readFileSync(join(copy, 'generated/operations.ts'), 'utf8');
    expect(operations).toContain(`"operationId": "${added.operationId}"`);
    expect(readFileSync(join(copy, `generated/samples/${added.operationId}.ts`), 'utf8')).toContain(
      added.path,
    );
  });

  it('gets its contract cases and typed check, which pass against the mock', async () => {
    const junit = join(copy, 'reports/contract.xml');
    const run = await runInCopy([
      'contract-tests/run.ts',
      '--project',
      'undici',
      // The new operation is private: the public document's Prism would answer no call of the run.
      '--api',
      'private-v4',
      '--junit',
      junit,
      '-t',
      `${added.operationId} ›`,
      // One worker runs the three files: each worker of the suite imports the client, the model
      // and the documents, and a few cases of one operation leave a second nothing to overlap.
      '--no-file-parallelism',
      // Only the files that hold an operation's cases: the rest of the suite (its checks of itself,
      // the streams, the coverage tables) has nothing of one operation to run, and collecting it
      // is CPU spent on no case the proof reads.
      ...caseFiles,
    ]);
    expect(run.code, run.output).toBe(0);
    // The passed test cases of the JUnit report (a failed or skipped one holds an element).
    const passed = [
      ...readFileSync(junit, 'utf8').matchAll(/<testcase [^>]*name="([^"]+)"[^>]*?(?:\/>|>\s*<\/testcase>)/g),
    ].map(([, name]) => name ?? '');
    // Its accepted call, declared statuses, signing checks, derived invalid inputs, typed data.
    for (const check of [
      'accepted: request example',
      'status 200',
      'rejected without signing headers',
      'client refuses:',
      'document refuses raw:',
      'the data has the generated type',
    ]) {
      expect(
        passed.some((name) => name.includes(`${added.operationId} › ${check}`)),
        check,
      ).toBe(true);
    }
  });

  it('gets its txc subcommand: flags in --help, and a call that works', async () => {
    const help = await runInCopy(['src/cli/txc.ts', added.cli, '--help']);
    expect(help.code, help.output).toBe(0);
    expect(help.output).toContain('--market <string>');
    const answer = [{ market: 'BTC_USDT', startTime: 1, cancellationTime: 2, types: ['spot'] }];
    server = await startLocalServer((request, response) =>
      request.url === added.path ? json(response, 200, answer) : json(response, 404, {}),
    );
    const call = await runInCopy(
      ['src/cli/txc.ts', added.cli, '--market', 'BTC_USDT', '--json', '--base-url', server.url],
      {
        TXC_API_KEY: 'one-more-key',
        TXC_API_SECRET: 'one-more-secret',
      },
    );
    expect(call.code, call.output).toBe(0);
    expect(JSON.parse(call.output)).toEqual(answer);
    expect(JSON.parse(server.received.at(-1)?.body ?? '{}')).toMatchObject({
      request: added.path,
      market: 'BTC_USDT',
    });
  });

  it('gets its docs section, with its sample, and its place on the landing page', async () => {
    const withSamples = documentsWithSamples(copy, ['private-v4']);
    try {
      const [privateApi] = loadApiDocumentsFrom(workingTreeReader(withSamples.dir)).filter(
        (api) => api.name === 'private-v4',
      );
      if (!privateApi) throw new Error('the copy has no private document');
      const paths = privateApi.dereferenced.paths as Record<string, { post?: Record<string, unknown> }>;
      const operation = paths[added.path]?.post;
      expect(operation?.operationId).toBe(added.operationId);
      expect(JSON.stringify(operation?.['x-codeSamples'])).toContain(added.path);
    } finally {
      withSamples.remove();
    }
    // The landing page reads the copy's own generated facts: its module, imported from the copy
    // (here, rather than in a process of its own, which would load a TypeScript loader for it).
    const landing = (await import(join(copy, 'docs/landing.ts'))) as typeof import('../docs/landing.ts');
    const listed = landing
      .operationGroups(loadApiDocuments(copy))
      .flatMap((group) => group.operations.map((operation) => operation.operationId));
    expect(listed).toContain(added.operationId);
  });
});
