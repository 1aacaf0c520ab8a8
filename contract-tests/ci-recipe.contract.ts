// The CI recipe of docs/guides/contract-tests.md, run as written against a target the suite cannot look into: the
// sandbox started by `npm run sandbox`'s program and given to the suite as a plain URL, with the
// values it prints in the recipe's environment. The run passes and writes the JUnit file it names,
// and the sandbox's own log shows that it got every read operation and no write: a URL target is
// read-only unless CONTRACT_ALLOW_WRITES=1, which the recipe does not set.
// What the recipe proves is the wiring (flags, variables, the proxies, the report), so it runs on a
// minimal target: the accepted call of every operation, on one transport, rather than the whole
// suite again, which the suite around it already is.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../model/document.ts';
import { startSandboxProcess } from '../sandbox/process.ts';
import { acceptedCalls, childEnvironment, runToEnd } from './support/child-run.ts';
import { context } from './support/context.ts';
import { isWrite, operationIds } from './support/documents.ts';
import { transportNames } from './support/transport-names.ts';

const guide = readFileSync(join(projectRoot, 'docs/guides/contract-tests.md'), 'utf8');
const recipe = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)]
  .flatMap((match) => parse(match[1] as string) as { run?: string; env?: Record<string, string> }[])
  .find((step) => step.run?.includes('npm run contract'));
/** vitest filters: each operation's schema-valid call through the real client, on the first transport. */
const minimal = `${acceptedCalls.join(' ')} --project ${transportNames[0]}`;
const scratch = mkdtempSync(join(tmpdir(), 'txc-ci-recipe-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!context.mock || inject('transport') !== transportNames[0])(
  "the contract-tests guide's CI recipe, against the sandbox as a URL",
  () => {
    it('passes read-only and writes a JUnit file with every operation and no failure', async () => {
      if (!recipe?.run || !recipe.env)
        throw new Error('docs/guides/contract-tests.md has no CI step that runs npm run contract');
      // Not quiet: it logs each operation it answers, on stderr.
      const sandbox = await startSandboxProcess();
      try {
        // Each variable of the recipe is one the sandbox prints, under the same name.
        const env = childEnvironment();
        for (const name of Object.keys(recipe.env)) {
          expect(sandbox.values, `the sandbox prints ${name}`).toHaveProperty(name);
          env[name] = sandbox.values[name];
        }
        const junit = join(scratch, 'contract.xml');
        // As written, but without `npm ci` (done), with the report outside the repository, and
        // narrowed by vitest's own filters (which the runner passes through) to the minimal target.
        const command = `${recipe.run.replace(/^npm ci && /, '').replace('reports/contract.xml', junit)} ${minimal}`;
        expect(command).toContain(`--junit ${junit}`);
        const { code, output } = await runToEnd('sh', ['-c', command], env);
        expect(code, output).toBe(0);
        expect(output).toContain(`target: ${sandbox.values.TXC_BASE_URL}`);
        const xml = readFileSync(junit, 'utf8');
        const totals = xml.match(/<testsuites [^>]*tests="(\d+)" failures="(\d+)" errors="(\d+)"/);
        expect(totals, xml.slice(0, 400)).not.toBeNull();
        const [, tests, failures, errors] = totals as RegExpMatchArray;
        expect(Number(tests)).toBeGreaterThanOrEqual(operationIds.length);
        expect([Number(failures), Number(errors)]).toEqual([0, 0]);
        // Read-only: each read operation's call passed; each write is reported, and was not made.
        const passed = [
          ...xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g),
        ]
          .filter((testcase) => !/<(skipped|failure|error)\b/.test(testcase[2] ?? ''))
          .map((testcase) => testcase[1] as string);
        for (const operationId of operationIds) {
          expect(xml).toContain(operationId);
          const called = passed.some((name) => name.includes(`${operationId} › accepted`));
          expect(called, `${operationId} in ${passed.join('\n')}`).toBe(!isWrite(operationId));
        }
        // The secret never reaches the report.
        expect(xml).not.toContain(sandbox.values.TXC_API_SECRET);
        // What the target itself saw (`<time> <operationId> <status>` a request): every read
        // operation, and no write.
        const reached = new Set(
          sandbox
            .stderr()
            .split('\n')
            .map((line) => line.split(' ')[1]),
        );
        for (const operationId of operationIds)
          expect(reached.has(operationId), `${operationId} reached the sandbox`).toBe(!isWrite(operationId));
      } finally {
        await sandbox.stop();
      }
    });
  },
);
