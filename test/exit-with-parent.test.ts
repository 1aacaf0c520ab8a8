// Every server the project starts ends when whatever started it ends, SIGKILL included: the mocks
// and the sandbox of `npm start`, and the Prisms of the contract runner (and its vitest). Each is
// killed hard here, and every port its children held must become free again.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../model/document.ts';
import { pickFreePorts, portIsFree } from '../scripts/port-in-use.ts';
import { timeLimits } from '../scripts/time-limits.ts';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts a TypeScript program of the project; resolves with its output once `ready` shows in it. */
function startUntil(args: string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: projectRoot,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise<{ child: ChildProcess; output: () => string }>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (ready.test(output)) resolve({ child, output: () => output });
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
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

/** Waits (within the limit for a server to start or stop) until none of the ports is held. */
async function expectPortsFreed(ports: number[]): Promise<void> {
  await expect
    .poll(async () => (await Promise.all(ports.map(portIsFree))).every(Boolean), {
      timeout: timeLimits.serverStartMs,
      interval: 100,
    })
    .toBe(true);
}

describe('children end with their parent, even one killed with SIGKILL', () => {
  it("npm start's mocks and sandbox", async () => {
    const [docs, publicMock, privateMock, sandbox] = (await pickFreePorts(4)) as [
      number,
      number,
      number,
      number,
    ];
    const { child } = await startUntil(
      ['docs/start.ts'],
      {
        DOCS_PORT: String(docs),
        PUBLIC_MOCK_PORT: String(publicMock),
        PRIVATE_MOCK_PORT: String(privateMock),
        SANDBOX_PORT: String(sandbox),
      },
      /^ {2}sandbox /m,
    );
    // Serving: each child holds its port.
    for (const port of [publicMock, privateMock, sandbox])
      expect(await portIsFree(port), String(port)).toBe(false);
    await killHard(child);
    await expectPortsFreed([publicMock, privateMock, sandbox]);
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
      for (const port of ports) expect(await portIsFree(port), String(port)).toBe(false);
      await killHard(child);
      await expectPortsFreed(ports);
    } finally {
      held.closeAllConnections();
      await new Promise((resolve) => held.close(resolve));
    }
  });
});
