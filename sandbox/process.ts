// `npm run sandbox`'s program (sandbox/main.ts) as a child process, for tests that use the sandbox
// the way a reader of the README does: started on a free port, its printed start-up lines read
// as the .env file they are, stopped at the end.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../model/document.ts';
import { endWithParentArgs, withParentChannel } from '../scripts/child-process.ts';
import { timeLimits } from '../scripts/time-limits.ts';

/** The last line of the start-up output: everything before it is the .env file. */
export const startedLine = '# Ctrl-C stops the sandbox.';

export interface SandboxProcess {
  /** The start-up output as printed, a .env file. */
  envText: string;
  /** Its KEY=VALUE lines. */
  values: Record<string, string>;
  /** What it wrote on stderr so far (its request log unless SANDBOX_QUIET). */
  stderr(): string;
  stop(): Promise<void>;
}

/** Parses KEY=VALUE lines, skipping comments, as `node --env-file` does for these simple lines. */
export function parseEnvText(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

export async function startSandboxProcess(
  env: NodeJS.ProcessEnv = {},
  timeoutMs = timeLimits.serverStartMs,
): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...endWithParentArgs, '--import', 'tsx', join(projectRoot, 'sandbox/main.ts')],
    {
      cwd: projectRoot,
      env: { ...process.env, SANDBOX_PORT: '0', ...env },
      // It ends by itself should this process be killed before it stops it.
      stdio: withParentChannel('ignore', 'pipe', 'pipe'),
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${stderr}`)), timeoutMs);
      child.stdout?.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes(`${startedLine}\n`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the sandbox ended before it started: ${stderr}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const envText = stdout.slice(0, stdout.indexOf(startedLine) + startedLine.length + 1);
  return { envText, values: parseEnvText(envText), stderr: () => stderr, stop };
}
