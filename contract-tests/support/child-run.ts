// The suite's checks of itself that run the contract runner (contract-tests/run.ts) as a user or
// CI does, in a child process, against a target of their own (meta.contract.ts,
// ci-recipe.contract.ts): how the child is started and stopped, the
// environment it gets, and the ids a URL target asks for.
import { spawn } from 'node:child_process';
import { projectRoot } from '../../model/document.ts';
import { contractVariables } from '../../model/environment.ts';
import { isRecord } from '../../model/json.ts';
import { endWithParentArgs, withParentChannel } from '../../scripts/child-process.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { type Model, operationIds } from './documents.ts';
import { idFields } from './variables.ts';

export interface Finished {
  code: number | null;
  /** What it wrote on stdout and stderr, interleaved as it came. */
  output: string;
}

/**
 * Runs a program to its end in the project's root. Should it hang, it is interrupted with SIGINT
 * past the limit for a program a test runs: run.ts passes SIGINT on and its Prisms are stopped.
 */
export function runToEnd(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdio: 'pipe' | 'with-parent-channel' = 'pipe',
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: projectRoot,
      env,
      stdio: stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : withParentChannel('ignore', 'pipe', 'pipe'),
      signal: AbortSignal.timeout(timeLimits.runMs),
      killSignal: 'SIGINT',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', (error) => (error.name === 'AbortError' ? undefined : reject(error)));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/**
 * `npm run contract -- …args`, as its program (without npm): it ends with this process, and its
 * vitest and Prisms with it, even should this worker be killed.
 */
export function runContract(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return runToEnd(
    process.execPath,
    [...endWithParentArgs, '--import', 'tsx', 'contract-tests/run.ts', ...args],
    env,
    'with-parent-channel',
  );
}

/**
 * The environment of a child run: this one's, without what chose this run's target, report and
 * writes (the child gets its own by flags), without colour (its output is read), with `values`.
 */
export function childEnvironment(values: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env[contractVariables.target];
  delete env[contractVariables.junit];
  delete env[contractVariables.allowWrites];
  delete env[contractVariables.streamTarget];
  delete env[contractVariables.streamToken];
  return { ...env, ...values };
}

/**
 * Each id a URL target asks for in the environment (a plan, a market, a ticker), with the value
 * the documents' request examples give the field it fills: what a target that answers with the
 * documents' examples holds.
 */
export function idsFromExamples(model: Model): Record<string, string> {
  const examples = operationIds
    .flatMap((operationId) => model.model(operationId).requestExamples.map((example) => example.value))
    .filter(isRecord);
  return Object.fromEntries(
    Object.entries(idFields).flatMap(([name, fields]) => {
      const value = examples
        .flatMap((example) => fields.map((field) => example[field]))
        .find((candidate) => typeof candidate === 'string');
      return typeof value === 'string' ? [[name, value]] : [];
    }),
  );
}

/** vitest's filters that narrow a run to each operation's schema-valid call through the client. */
export const acceptedCalls = ['contract-tests/operations.contract.ts', '-t', 'accepted'] as const;
