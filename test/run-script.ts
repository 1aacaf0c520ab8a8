// Runs one of the project's TypeScript programs as a user does (node with tsx, a child process
// with pipes, not a terminal), from the project root, and collects what it printed.
import { spawn } from 'node:child_process';
import { projectRoot } from '../model/document.ts';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `node --import tsx -- <args>`: `--` ends Node's own options (Node 20 otherwise checks a
 * `--env-file` meant for the program). A program still running after `timeoutMs` is killed, and
 * the test then fails on its output.
 */
export function runScript(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--', ...args], {
      cwd: projectRoot,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
