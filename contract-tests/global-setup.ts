// Starts the target (Prism mocks, or Prism proxies in front of a deployment) once for the whole
// run, hands its URLs to the test files through `provide`, and stops it afterwards. A run of the
// suite's checks of itself (`--self-check`) starts none: each of them runs the suite against a
// target of its own, and asks of the run's only whether it is the mocks.
import type { TestProject } from 'vitest/node';
import { contractVariables } from '../model/environment.ts';
import { type ContractContext, namedTarget, startTarget } from './support/target.ts';
import { describeTarget } from './support/variables.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    contract: ContractContext;
  }
}

export default async function setup(project: TestProject) {
  if (process.env[contractVariables.selfCheck] === '1') {
    const context = namedTarget();
    project.provide('contract', context);
    console.log(
      `contract: target ${context.target}, not started: the suite's checks of itself start their own`,
    );
    return;
  }
  const { context, close } = await startTarget();
  project.provide('contract', context);
  // Where the calls go, for a reader who wants to try one by hand while the run goes on.
  const servers = Object.entries(context.urls).map(([api, url]) => `${api} ${url}`);
  console.log(`contract: target ${context.target}, through Prism: ${servers.join(', ')}`);
  const stream = context.stream;
  console.log(
    stream?.url
      ? `contract: streams of ${stream.target} at ${describeTarget(stream.url)}${stream.token ? '' : ' (public channels only: no stream token)'}`
      : `contract: streams not checked: ${stream?.notRun ?? 'no stream target'}`,
  );
  return close;
}
