// `npm start [-- --verbose]`: lint, regenerate and build the docs, then serve on 127.0.0.1 the
// docs, a Prism mock server for each document named in redocly.yaml, the stream mock (the
// WebSocket streams, from the AsyncAPI documents; scripts/stream-mock.ts) and the sandbox, and keep
// them following every save under openapi/ and asyncapi/ (docs/watch.ts), until Ctrl-C
// (SIGINT or SIGTERM), which stops every child process and closes the docs server. One line per
// service; the mocks' and the sandbox's log of every request only with --verbose. A port in use
// is one line naming it and its variable, before anything is built. It writes the sandbox's
// credentials to .env (SANDBOX_ENV_FILE moves it; docs/sandbox-env.ts) for the README's and the guides' examples.
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadApiDocuments } from '../model/document.ts';
import { environmentVariables } from '../model/environment.ts';
import { credentialKey, loadFixture } from '../sandbox/fixture.ts';
import { streamUrlOf } from '../sandbox/streams/methods.ts';
import { endWithLauncher } from '../scripts/child-process.ts';
import { PortInUseError, pickFreePorts, portInUseLine, portIsFree } from '../scripts/port-in-use.ts';
import { streamMockPort } from '../scripts/stream-mock.ts';
import { writeSandboxEnv } from './sandbox-env.ts';

// Found before anything is printed: a caller may kill npm as soon as it reads the first line. Until
// the handlers below are set, SIGTERM ends the process, and its children with it (their IPC channel).
endWithLauncher(() => process.kill(process.pid, 'SIGTERM'));

const root = fileURLToPath(new URL('..', import.meta.url));
const verbose = process.argv.includes('--verbose');
const unknown = process.argv.slice(2).filter((arg) => arg !== '--verbose');
if (unknown.length > 0) {
  console.error(`npm start: unknown argument ${unknown.join(' ')}; usage: npm start [-- --verbose]`);
  process.exit(2);
}

function portFrom(variable: string, fallback: number): number {
  const value = process.env[variable];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`npm start: ${variable} must be a port number (0 picks a free one), not ${value}`);
    process.exit(2);
  }
  return port;
}

const mockPortVariables: Record<string, { variable: string; fallback: number }> = {
  'public-v4': { variable: 'PUBLIC_MOCK_PORT', fallback: 4010 },
  'private-v4': { variable: 'PRIVATE_MOCK_PORT', fallback: 4011 },
};
/** Every server, by the service name the watch loop gives it: its port and the variable that sets it. */
const services: Record<string, { port: number; variable: string }> = {
  docs: { port: portFrom('DOCS_PORT', 8080), variable: 'DOCS_PORT' },
};
for (const [index, api] of loadApiDocuments(root).entries()) {
  const setting = mockPortVariables[api.name] ?? {
    variable: `${api.name.toUpperCase().replaceAll('-', '_')}_MOCK_PORT`,
    fallback: 4010 + index,
  };
  services[`mock ${api.name}`] = {
    port: portFrom(setting.variable, setting.fallback),
    variable: setting.variable,
  };
}
services['stream mock'] = {
  port: portFrom(streamMockPort.variable, streamMockPort.fallback),
  variable: streamMockPort.variable,
};
services.sandbox = { port: portFrom('SANDBOX_PORT', 4012), variable: 'SANDBOX_PORT' };

// Before the build: a clash found after a minute of building is a minute lost.
const taken = [];
for (const [name, { port, variable }] of Object.entries(services)) {
  if (!(await portIsFree(port))) taken.push(portInUseLine(name, port, variable));
}
if (taken.length > 0) {
  for (const line of taken) console.error(line);
  process.exit(1);
}

// 0 picks a free port. The docs server binds it itself; a mock or the sandbox is a process of its
// own (the stream mock too), whose readiness is awaited on its port, so its port is picked here.
const unpicked = Object.entries(services).filter(([name, { port }]) => name !== 'docs' && port === 0);
const picked = await pickFreePorts(unpicked.length);
for (const [index, [, service]] of unpicked.entries()) service.port = picked[index] as number;

const portOf = (name: string) => services[name]?.port as number;
// The watch loop, and all it builds with, loads after the port check: a clash is told at once,
// without loading the docs build, codegen and lint first (two thirds of the CPU of such a run).
const { startDevServer } = await import('./watch.ts');
const dev = await startDevServer({
  root,
  docsPort: portOf('docs'),
  mockPorts: Object.fromEntries(
    Object.keys(services)
      .filter((name) => name.startsWith('mock '))
      .map((name) => [name.slice(5), portOf(name)]),
  ),
  streamMockPort: portOf('stream mock'),
  sandboxPort: portOf('sandbox'),
  portVariables: Object.fromEntries(Object.entries(services).map(([name, { variable }]) => [name, variable])),
  verbose,
}).catch((error: unknown) => {
  if (error instanceof PortInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
});

let stopping = false;
async function stop(reason: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${reason}: stopping`);
  await dev.close();
  process.exit(0);
}
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));

const first = await dev.nextBuild();
const key = credentialKey(loadFixture());
console.log(
  `\nServing on 127.0.0.1 (Ctrl-C stops everything; saves under openapi/ and asyncapi/ rebuild${verbose ? '' : '; --verbose logs every request'}):`,
);
console.log(`  ${'docs'.padEnd(18)} ${dev.docsUrl}`);
for (const [name, url] of Object.entries(dev.mockUrls))
  console.log(`  ${`mock ${name}`.padEnd(18)} ${url}  (any key and secret)`);
if (dev.streamMockUrl)
  console.log(
    `  ${'stream mock'.padEnd(18)} ${dev.streamMockUrl}  (every channel; authorize with any token)`,
  );
if (dev.sandboxUrl) {
  console.log(
    `  ${'sandbox'.padEnd(18)} ${dev.sandboxUrl}  ${environmentVariables.apiKey}=${key.apiKey} ${environmentVariables.apiSecret}=${key.secret}`,
  );
  console.log(`  ${'sandbox streams'.padEnd(18)} ${streamUrlOf(dev.sandboxUrl)}  (WebSocket, same origin)`);
  const envFile = process.env.SANDBOX_ENV_FILE || join(root, '.env');
  const credentials = { url: dev.sandboxUrl, apiKey: key.apiKey, secret: key.secret };
  const variables = `${environmentVariables.baseUrl}, ${environmentVariables.apiKey} and ${environmentVariables.apiSecret}`;
  const nearby = relative(process.cwd(), envFile);
  const shown = nearby && !nearby.startsWith('..') ? nearby : envFile;
  if (writeSandboxEnv(envFile, credentials) === 'written')
    console.log(`Wrote ${shown} (the sandbox's ${variables}): npx tsx --env-file=${shown} example.ts`);
  else
    console.log(
      `Left ${shown} alone (npm start did not write it): set ${variables} from the sandbox line above`,
    );
}
if (!first.ok)
  console.log('The documents have problems (above): the mocks and the sandbox start once they are fixed.');
