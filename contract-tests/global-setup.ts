// Starts the target (Prism mocks, or Prism proxies in front of a deployment) once for the whole
// run, hands its URLs to the test files through `provide`, and stops it afterwards.
import type { TestProject } from 'vitest/node';
import { type ContractContext, startTarget } from './support/target.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    contract: ContractContext;
  }
}

export default async function setup(project: TestProject) {
  const { context, close } = await startTarget();
  project.provide('contract', context);
  // Where the calls go, for a reader who wants to try one by hand while the run goes on.
  const servers = Object.entries(context.urls).map(([api, url]) => `${api} ${url}`);
  console.log(`contract: target ${context.target}, through Prism: ${servers.join(', ')}`);
  return close;
}
