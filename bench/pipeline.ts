// Pipeline: wall time of the project's own commands. `npm run generate` runs on a temporary copy
// of the documents (its --root flag), so that the bench never rewrites generated/ in a checkout
// others are working in. A command that is missing, fails or overruns its time limit is
// reported as n/a with the reason; nothing here throws.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface PipelineResult {
  command: string;
  /** Wall seconds, or undefined (n/a) with a note. */
  seconds?: number;
  /**
   * CPU seconds (user + system) of the command and every process it started and waited for, on
   * Linux; undefined elsewhere or with a note.
   */
  cpuSeconds?: number;
  note?: string;
}

/** Clock ticks a second of the kernel's CPU counters (`getconf CLK_TCK`), read once. */
let ticksPerSecond: number | undefined;

/**
 * CPU seconds of this process's children that have ended and been waited for (and of theirs, in
 * turn): cutime + cstime of /proc/self/stat. Undefined where there is no /proc.
 */
function childrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command name in parentheses, which may itself hold spaces: state is
    // field 3, cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * Runs a command to its end in `cwd` (the project by default), its output dropped: wall and CPU
 * seconds, or n/a with the reason. One at a time: the CPU figure is the difference of this
 * process's children's counters before and after.
 */
export function timed(
  command: string,
  args: string[],
  timeoutMs: number,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<PipelineResult> {
  const shown = [command, ...args].join(' ');
  return new Promise((resolve) => {
    const started = performance.now();
    const cpuBefore = childrenCpuSeconds();
    // Its own process group, so that a timeout ends the command and everything it started; the
    // servers it starts in groups of their own (the contract suite's Prisms) end with their parent
    // (scripts/exit-with-parent.mjs).
    const child = spawn(command, args, {
      cwd: options.cwd ?? root,
      env: options.env ?? process.env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const onExit = () => killGroup();
    process.once('exit', onExit);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      process.removeListener('exit', onExit);
      resolve({ command: shown, note: `n/a: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      process.removeListener('exit', onExit);
      killGroup(); // anything it left behind in its group
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = childrenCpuSeconds();
      const cpuSeconds = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
      if (timedOut) resolve({ command: shown, note: `n/a: over the ${timeoutMs / 1000} s limit` });
      else if (code !== 0) {
        const last = stderr.trim().split('\n').filter(Boolean).pop() ?? '';
        resolve({ command: shown, note: `n/a: exit ${code}${last ? ` (${last.slice(0, 120)})` : ''}` });
      } else resolve({ command: shown, seconds, ...(cpuSeconds !== undefined && { cpuSeconds }) });
    });
  });
}

export async function runPipeline(options: {
  timeoutMs: number;
  contractTimeoutMs: number;
}): Promise<PipelineResult[]> {
  const results: PipelineResult[] = [];
  const copy = mkdtempSync(join(tmpdir(), 'txc-bench-generate-'));
  try {
    // The whole project but its dependencies and outputs: the documents $ref files elsewhere.
    const skipped = new Set(['node_modules', '.git', 'site', 'dist', 'coverage', 'reports']);
    cpSync(root, copy, {
      recursive: true,
      filter: (source) => !skipped.has(relative(root, source).split(sep)[0] ?? ''),
    });
    mkdirSync(join(copy, 'generated'), { recursive: true });
    const generate = await timed(
      'npm',
      ['run', '--silent', 'generate', '--', '--root', copy],
      options.timeoutMs,
    );
    results.push({ ...generate, command: 'npm run generate' });
  } catch (error) {
    results.push({ command: 'npm run generate', note: `n/a: ${(error as Error).message}` });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  results.push({
    ...(await timed('npx', ['redocly', 'lint'], options.timeoutMs)),
    command: 'npx redocly lint',
  });
  if (existsSync(join(root, 'contract-tests', 'run.ts'))) {
    results.push({
      ...(await timed('npm', ['run', '--silent', 'contract'], options.contractTimeoutMs)),
      command: 'npm run contract',
    });
  } else {
    results.push({ command: 'npm run contract', note: 'n/a: contract-tests/run.ts does not exist yet' });
  }
  return results;
}
