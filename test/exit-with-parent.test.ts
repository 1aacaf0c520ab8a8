// Every server the project starts ends when whatever started it ends, SIGKILL included: the mocks
// and the sandbox of `npm start`, and the Prisms of the contract runner (and its vitest). Two
// mechanisms do it (scripts/child-process.ts), each proved here once for each kind of process it
// ends, with the cheapest real parent that starts it the project's way, killed hard:
// - a server child gets the preload and the parent channel (endWithParentArgs, withParentChannel)
//   and ends when the channel closes: the sandbox as `npm start` starts it (scripts/dev-process.ts,
//   from a parent that starts nothing else), Prism and vitest as the contract runner starts them;
// - a program a user starts through npm (`npm start`, `npm run sandbox`) watches for its npm
//   (endWithLauncher), which a SIGKILL of npm does not reach through sh and tsx: `npm run sandbox`
//   here; `npm start` at the end of the whole run that test/start.test.ts makes through npm (a
//   run builds the docs and starts every server: one serves both files).
// That every server npm start runs is such a child (the preload and the channel, started by npm
// start itself) is checked on that same run; that every server below the contract runner is, here.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../model/document.ts';
import { pickFreePorts, portIsFree } from '../scripts/port-in-use.ts';
import { timeLimits } from '../scripts/time-limits.ts';
import {
  commandLine,
  descendantsOf,
  endsWithParent,
  isAlive,
  processGroup,
  serversBelow,
} from './process-tree.ts';

const children: ChildProcess[] = [];
/**
 * Every process seen below a child, with its command line: to end should a test fail before they
 * did, each only while its pid is still that process (a pid is reused once its process is gone).
 */
const seen = new Map<number, string | undefined>();
const remember = (pid: number) => seen.set(pid, commandLine(pid));
afterAll(() => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    // What an npm run started (its group) goes too, should the test have failed before it ended.
    if (child.spawnargs[0] === 'npm' && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  }
  for (const [pid, command] of seen) {
    if (command === undefined || commandLine(pid) !== command) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
});

/**
 * Starts a TypeScript program of the project, or with `npm` an npm script as a user's shell does
 * (npm leading a process group of its own); resolves with its output once `ready` shows in it.
 */
function startUntil(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, through: 'node' | 'npm' = 'node') {
  const [command, commandArgs] =
    through === 'npm'
      ? ['npm', ['run', '--silent', ...args]]
      : [process.execPath, ['--import', 'tsx', ...args]];
  const child = spawn(command, commandArgs, {
    cwd: projectRoot,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: through === 'npm',
  });
  children.push(child);
  let output = '';
  return new Promise<{ child: ChildProcess; output: () => string }>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      if (ready.test(output)) resolve({ child, output: () => output });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code, signal) =>
      reject(new Error(`ended (${signal ?? code}) before ${ready}:\n${output}`)),
    );
  });
}

/** Kills the process with SIGKILL and waits for it to be gone. */
async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Waits (within the limit for a server to start or stop) until `done` holds. */
async function expectSoon(done: () => boolean | Promise<boolean>): Promise<void> {
  await expect.poll(done, { timeout: timeLimits.serverStartMs, interval: 100 }).toBe(true);
}

/** Waits until none of the ports is held. */
const expectPortsFreed = (ports: number[]) =>
  expectSoon(async () => (await Promise.all(ports.map(portIsFree))).every(Boolean));

/** Waits until every one of the processes is gone. */
const expectGone = (pids: number[]) => expectSoon(() => pids.every((pid) => !isAlive(pid)));

describe('a server child ends with its parent, even one killed with SIGKILL', () => {
  it('the sandbox, started as npm start starts its servers (scripts/dev-process.ts)', async () => {
    const [port] = (await pickFreePorts(1)) as [number];
    const { child, output } = await startUntil(
      ['test/fixtures/dev-process-parent.ts'],
      { SANDBOX_PORT: String(port) },
      /^sandbox \d+ serving/m,
    );
    const sandbox = Number(/^sandbox (\d+) serving/m.exec(output())?.[1]);
    remember(sandbox);
    // The server is the parent's own child, started with the preload and the channel, and holds the port.
    expect(serversBelow(child.pid as number)).toEqual([{ pid: sandbox, parent: child.pid, ports: [port] }]);
    expect(endsWithParent(sandbox)).toEqual({ preload: true, channel: true });
    await killHard(child);
    await expectGone([sandbox]);
    await expectPortsFreed([port]);
  });

  it("the contract runner's vitest and Prisms", async () => {
    // A target that takes every request and never answers: the run is still going when it is killed.
    const held: Server = createServer(() => {});
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(held.address() as { port: number }).port}`;
    try {
      const { child, output } = await startUntil(
        ['contract-tests/run.ts', '--target', target, 'contract-tests/operations.contract.ts'],
        {
          TXC_API_KEY: 'exit-key',
          TXC_API_SECRET: 'exit-secret',
          CONTRACT_PLAN_ID: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b',
          CONTRACT_TICKER: 'USDT',
        },
        /through Prism: .*\n/,
      );
      const ports = [...output().matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)]
        .map((match) => Number(match[1]))
        .filter((port) => `http://127.0.0.1:${port}` !== target);
      expect(ports).toHaveLength(2);
      const runner = child.pid as number;
      const below = descendantsOf(runner);
      for (const pid of below) remember(pid);
      // Every server below the runner is one of its Prisms, a child of its vitest, which is the
      // runner's own child; each started with the preload and the channel.
      const servers = serversBelow(runner);
      expect(servers.flatMap((server) => server.ports).sort()).toEqual([...ports].sort());
      for (const server of servers) {
        expect(endsWithParent(server.pid), `Prism ${server.ports}`).toEqual({ preload: true, channel: true });
        const vitest = server.parent;
        expect(descendantsOf(runner)).toContain(vitest);
        expect(endsWithParent(vitest), 'vitest').toEqual({ preload: true, channel: true });
      }
      await killHard(child);
      // Nothing the runner started is left: vitest, its workers, the Prisms.
      await expectGone(below);
      await expectPortsFreed(ports);
    } finally {
      held.closeAllConnections();
      await new Promise((resolve) => held.close(resolve));
    }
  });
});

describe('a program started through npm ends when npm is killed with SIGKILL', () => {
  it('npm run sandbox', async () => {
    const [port] = (await pickFreePorts(1)) as [number];
    const { child } = await startUntil(['sandbox'], { SANDBOX_PORT: String(port) }, /TXC_BASE_URL=/, 'npm');
    const npm = child.pid as number;
    expect(await portIsFree(port)).toBe(false);
    await killHard(child);
    await expectSoon(() => processGroup(npm).length === 0);
    await expectPortsFreed([port]);
  });
});
