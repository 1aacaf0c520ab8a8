// The bench is not part of npm test; this only checks that it starts, runs its quick mode and
// prints a results row. No figure is asserted.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function runQuick(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick'], {
      cwd: root,
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
    // A hang must not outlive the test: the child is killed, and the test then fails on its output.
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
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

test('npm run bench -- --quick starts and prints a results row', { timeout: 60_000 }, async () => {
  const { code, stdout, stderr } = await runQuick();
  expect(code, stderr).toBe(0);
  expect(stdout).toContain('#### End to end');
  expect(stdout).toMatch(/^\| \(a\) our client[^\n]*\|\s*1\s*\|/m);
  expect(stdout).toMatch(/^\| createSigner 'node' \|/m);
});
