// `npm start`: regenerate, lint, build the docs, then serve on 127.0.0.1 the docs, a Prism
// mock server for each document named in redocly.yaml and the sandbox, until Ctrl-C (SIGINT or SIGTERM), which
// stops every child process and closes the docs server.
//
// A service is an entry of `services` below: a name, a port (from an environment variable, with
// a default) and a `start` that returns something to stop. To add one (the sandbox, say), push
// one more entry built with `childService` (a command) or an object of your own.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../docs/serve.ts';
import { loadApiDocuments } from './operation-facts.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string): string => join(root, 'node_modules/.bin', name);
const env: NodeJS.ProcessEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
};

interface Running {
  stop(): Promise<void>;
  /** Settles when the service ends on its own. */
  exited: Promise<string>;
}

interface Service {
  name: string;
  port: number;
  /** The address printed for the user. */
  url: string;
  start(): Promise<Running>;
}

function portFrom(variable: string, fallback: number): number {
  const value = process.env[variable];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${variable} is not a port: ${value}`);
  return port;
}

/** Runs a command to completion; rejects when it fails. */
function step(label: string, command: string, args: string[]): Promise<void> {
  console.log(`\n> ${label}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${label} failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/** A service that is a child process; its output is prefixed with the service name. */
function childService(name: string, port: number, command: string, args: string[]): Service {
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    async start() {
      const child: ChildProcess = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const prefix = (chunk: Buffer): string =>
        chunk
          .toString()
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => `[${name}] ${line}\n`)
          .join('');
      child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
      child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
      // Should this process die unexpectedly, its children must not outlive it.
      process.once('exit', () => child.kill('SIGKILL'));
      const exited = new Promise<string>((resolve) => {
        child.once('error', (error) => resolve(error.message));
        child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`));
      });
      return {
        exited,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
            await exited;
            clearTimeout(timer);
          }
        },
      };
    },
  };
}

function docsService(port: number): Service {
  return {
    name: 'docs',
    port,
    url: `http://127.0.0.1:${port}/`,
    async start() {
      const server = await serveStatic(join(root, 'site'), port);
      return { exited: new Promise<string>(() => {}), stop: () => server.close() };
    },
  };
}

const mockPorts: Record<string, { variable: string; fallback: number }> = {
  'public-v4': { variable: 'PUBLIC_MOCK_PORT', fallback: 4010 },
  'private-v4': { variable: 'PRIVATE_MOCK_PORT', fallback: 4011 },
};

const services: Service[] = [docsService(portFrom('DOCS_PORT', 8080))];
for (const [index, api] of loadApiDocuments(root).entries()) {
  const setting = mockPorts[api.name] ?? {
    variable: `${api.name.toUpperCase().replaceAll('-', '_')}_MOCK_PORT`,
    fallback: 4010 + index,
  };
  const port = portFrom(setting.variable, setting.fallback);
  services.push(
    childService(`mock ${api.name}`, port, bin('prism'), [
      'mock',
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      api.file,
    ]),
  );
}

// The stateful sandbox: it verifies signatures, and prints its test credentials on start.
const sandboxPort = portFrom('SANDBOX_PORT', 4012);
services.push(childService('sandbox', sandboxPort, bin('tsx'), ['sandbox/main.ts']));
env.SANDBOX_PORT = String(sandboxPort);

await step('npm run generate', bin('tsx'), ['scripts/generate.ts']);
await step('redocly lint', bin('redocly'), ['lint']);
await step('npm run docs', bin('tsx'), ['docs/build.ts']);

const running: Running[] = [];
let stopping = false;
async function stopAll(reason: string, exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${reason}: stopping`);
  await Promise.allSettled(running.map((service) => service.stop()));
  process.exit(exitCode);
}
process.once('SIGINT', () => void stopAll('SIGINT', 0));
process.once('SIGTERM', () => void stopAll('SIGTERM', 0));

try {
  for (const service of services) {
    const started = await service.start();
    running.push(started);
    void started.exited.then((how) => stopAll(`${service.name} ended (${how})`, 1));
  }
} catch (error) {
  console.error(`could not start: ${(error as Error).message}`);
  await stopAll('start failed', 1);
}

console.log('\nServing on 127.0.0.1 (Ctrl-C stops everything):');
for (const service of services) console.log(`  ${service.name.padEnd(16)} ${service.url}`);
