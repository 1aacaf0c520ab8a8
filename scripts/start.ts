// `npm start`: lint, regenerate and build the docs, then serve on 127.0.0.1 the docs, a Prism
// mock server for each document named in redocly.yaml and the sandbox, and keep them following
// every save under openapi/ and docs/samples/ (scripts/watch.ts), until Ctrl-C (SIGINT or
// SIGTERM), which stops every child process and closes the docs server.
import { fileURLToPath } from 'node:url';
import { loadApiDocuments } from '../model/document.ts';
import { startDevServer } from './watch.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function portFrom(variable: string, fallback: number): number {
  const value = process.env[variable];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${variable} is not a port: ${value}`);
  return port;
}

const mockPortVariables: Record<string, { variable: string; fallback: number }> = {
  'public-v4': { variable: 'PUBLIC_MOCK_PORT', fallback: 4010 },
  'private-v4': { variable: 'PRIVATE_MOCK_PORT', fallback: 4011 },
};
const mockPorts = Object.fromEntries(
  loadApiDocuments(root).map((api, index) => {
    const setting = mockPortVariables[api.name] ?? {
      variable: `${api.name.toUpperCase().replaceAll('-', '_')}_MOCK_PORT`,
      fallback: 4010 + index,
    };
    return [api.name, portFrom(setting.variable, setting.fallback)];
  }),
);

const dev = await startDevServer({
  root,
  docsPort: portFrom('DOCS_PORT', 8080),
  mockPorts,
  sandboxPort: portFrom('SANDBOX_PORT', 4012),
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
console.log(
  `\nServing on 127.0.0.1 (Ctrl-C stops everything; saves under openapi/ and docs/samples/ rebuild):`,
);
console.log(`  ${'docs'.padEnd(18)} ${dev.docsUrl}`);
for (const [name, url] of Object.entries(dev.mockUrls)) console.log(`  ${`mock ${name}`.padEnd(18)} ${url}`);
if (dev.sandboxUrl) console.log(`  ${'sandbox'.padEnd(18)} ${dev.sandboxUrl}`);
if (!first.ok)
  console.log('The documents have problems (above): the mocks and the sandbox start once they are fixed.');
