// The stateful run's done-when check: a target that keeps no state breaks it. A Prism mock of our
// own private document (the one this run's target started), given to the runner as a URL target
// with writes allowed, answers every call with its examples: an order placed is never the one
// listed, cancel all leaves the example orders listed. The run must fail, naming the broken link,
// with its reproducers and without the secret. (The same run against the sandbox, which keeps
// state, passes: `npm run contract:sandbox`.)
import { describe, expect, inject, it } from 'vitest';
import { contractVariables, environmentVariables } from '../model/environment.ts';
import { childEnvironment, idsFromExamples, runContract } from './support/child-run.ts';
import { context, model } from './support/context.ts';
import { documentLinks } from './support/links.ts';
import { transportNames } from './support/transport-names.ts';

describe.skipIf(!context.mock || inject('transport') !== transportNames[0])(
  'the stateful run against a target that keeps no state',
  () => {
    it('fails, naming the broken link, with its reproducers and no secret', async () => {
      const secret = `stateful-secret-${process.pid}`;
      // The ids (a market among them, for cancel all) are the documents' examples: a mock holds them.
      const env = childEnvironment({
        [environmentVariables.apiKey]: 'stateful-key',
        [environmentVariables.apiSecret]: secret,
        ...idsFromExamples(model),
        [contractVariables.allowWrites]: '1',
        [contractVariables.seed]: '1',
      });
      // Against the mocks, the target is a Prism mock of each document: reuse the private one.
      const url = context.urls['private-v4'];
      const { code, output } = await runContract(
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
