// Runs txc as a user does (a child process of its own, with pipes, so not a terminal) against a
// sandbox, and remembers every output so a test can check that no secret was ever printed. The
// program is src/cli/txc.ts as built once for the slow project (./txc-bundle.setup.ts), run by
// plain node: the same argv, environment, output and exit code as through tsx, for a tenth of the
// start-up.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject, vi } from 'vitest';
import { environmentVariables, streamVariables } from '../../model/environment.ts';
import type { FixtureKey } from '../../sandbox/fixture.ts';
import { type Run, runNode } from '../../scripts/run-node.ts';

export type { Run };

/** Every output of every run, to look for secrets in. */
export const outputs: string[] = [];

/** The environment without any TXC_* variable of the machine running the tests. */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const names = new Set<string>([...Object.values(environmentVariables), ...Object.values(streamVariables)]);
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !names.has(name)));
}

export function credentials(url: string, key: Pick<FixtureKey, 'apiKey' | 'secret'>): Record<string, string> {
  return {
    [environmentVariables.baseUrl]: url,
    [environmentVariables.apiKey]: key.apiKey,
    [environmentVariables.apiSecret]: key.secret,
  };
}

/** `node -- <txc as built for the tests>`: the command line that starts txc, before its arguments. */
export function txcCommand(): string[] {
  const bundle = inject('txcBundle');
  if (!bundle) throw new Error("txc is built by the slow project's globalSetup: run this file in it");
  // `--` ends node's own options: Node 20 would otherwise read an `--env-file` meant for txc.
  return [process.execPath, '--', bundle];
}

export async function runTxc(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const [, ...nodeArgs] = txcCommand();
  const run = await runNode([...nodeArgs, ...args], { env: { ...cleanEnvironment(), ...env } });
  outputs.push(run.stdout, run.stderr);
  return run;
}

/**
 * txc's main run in this process, its output captured: the same program a spawned txc runs, for
 * checks of what it prints that need no process of their own (every subcommand's help, a usage
 * error). With `env`, the run sees the environment a spawned txc would (`runTxc`'s: no TXC_*
 * variable of this machine, then `env`), and this process's is put back after it.
 */
export async function runTxcInProcess(args: string[], env?: Record<string, string>): Promise<Run> {
  const { main } = await import('../../src/cli/main.ts');
  const environment = process.env;
  if (env) process.env = { ...cleanEnvironment(), ...env };
  const started = performance.now();
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(args);
    outputs.push(stdout, stderr);
    return { code, stdout, stderr, wallMs: performance.now() - started };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.env = environment;
  }
}

/** A scratch directory for env files, removed by the returned function. */
export function scratchDirectory(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'txc-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeEnvFile(dir: string, values: Record<string, string>, name = 'txc.env'): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    Object.entries(values)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
  return path;
}
