// The stream mock (scripts/stream-mock.ts) as a process of its own, as `npm start` runs it beside
// the Prism mocks (docs/watch.ts): on 127.0.0.1, at STREAM_MOCK_PORT (default 4013; 0 picks a free
// one), until SIGINT or SIGTERM. Its first line says where it listens; then one line per request
// (`npm start` shows them only with --verbose). A port in use is one line on stderr, exit code 1.
import { endWithLauncher } from './child-process.ts';
import { isAddressInUse, portInUseLine } from './port-in-use.ts';
import { startStreamMock, streamMockPort } from './stream-mock.ts';

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

endWithLauncher(() => process.kill(process.pid, 'SIGTERM'));

const setting = process.env[streamMockPort.variable];
const port = setting ? Number(setting) : streamMockPort.fallback;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  fail(`stream mock: ${streamMockPort.variable} must be a port number (0 picks a free one), not ${setting}`);
}
const mock = await startStreamMock({ port, log: (line) => console.log(line) }).catch((error: unknown) => {
  if (isAddressInUse(error)) fail(portInUseLine('stream mock', port, streamMockPort.variable));
  throw error;
});
console.log(`stream mock listening on ${mock.url}`);

const stop = () => {
  mock.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
