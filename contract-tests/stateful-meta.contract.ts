// The stateful run's done-when check: a target that keeps no state breaks it. A Prism mock of our
// own private document (the one this run's target started), given to the runner as a URL target
// with writes allowed, answers every call with its examples: an order placed is never the one
// listed, cancel all leaves the example orders listed. The run must fail, naming the broken link,
// with its reproducers and without the secret. (The same run against the sandbox, which keeps
// state, passes: `npm run contract:sandbox`.)
import { spawn } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../model/document.ts';
import { contractVariables, environmentVariables } from '../model/environment.ts';
import { timeLimits } from '../scripts/time-limits.ts';
import { context, model } from './support/context.ts';
import { documentLinks } from './support/links.ts';
import { transportNames } from './support/transport-names.ts';

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'contract-tests/run.ts', ...args], {
      cwd: projectRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: AbortSignal.timeout(timeLimits.runMs),
      killSignal: 'SIGINT',
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', (error) => (error.name === 'AbortError' ? undefined : reject(error)));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe.skipIf(!context.mock || inject('transport') !== transportNames[0])(
  'the stateful run against a target that keeps no state',
  () => {
    it('fails, naming the broken link, with its reproducers and no secret', async () => {
      const secret = `stateful-secret-${process.pid}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        [environmentVariables.apiKey]: 'stateful-key',
        [environmentVariables.apiSecret]: secret,
        [contractVariables.planId]: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b',
        [contractVariables.ticker]: 'USDT',
        [contractVariables.market]: 'BTC_USDT',
        [contractVariables.allowWrites]: '1',
        [contractVariables.seed]: '1',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
      };
      delete env[contractVariables.target];
      delete env[contractVariables.junit];
      // Against the mocks, the target is a Prism mock of each document: reuse the private one.
      const url = context.urls['private-v4'];
      const { code, output } = await run(
        ['--target', url, '--project', transportNames[0], 'contract-tests/stateful.contract.ts'],
        env,
      );
      expect(code, output).not.toBe(0);
      const failures = output.slice(output.lastIndexOf('Failed contract checks'));
      const names = documentLinks(model).map((link) => link.name);
      const broken = /\[stateful_link\] (\w+) -> (\w+) \(link (\w+)\)/.exec(failures);
      expect(broken, output).not.toBeNull();
      expect(names).toContain(broken?.[3]);
      expect(failures).toContain('(failed: stateful_link)');
      expect(failures).toContain('reproduce with txc:');
      expect(failures).toContain('reproduce with curl');
      expect(output).not.toContain(secret);
    });
  },
);
