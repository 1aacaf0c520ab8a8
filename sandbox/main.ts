// `npm run sandbox`: starts the sandbox and prints its URL and the default fixture's test
// credentials. SANDBOX_PORT (default 4012), SANDBOX_FIXTURE (a fixture file), SANDBOX_FAULTS
// (JSON fault options), SANDBOX_STRICT=1 (validate every answer against the document),
// SANDBOX_CORS_ORIGINS (comma-separated origins whose browser pages may call it).
import { faultsFromEnvironment } from './faults.ts';
import { credentialKey, defaultFixturePath, loadFixture } from './fixture.ts';
import { startSandbox } from './server.ts';

const port = process.env.SANDBOX_PORT ? Number(process.env.SANDBOX_PORT) : 4012;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  throw new Error(`SANDBOX_PORT must be a port number, not ${process.env.SANDBOX_PORT}`);
}
const fixturePath = process.env.SANDBOX_FIXTURE || defaultFixturePath;
const isDefaultFixture = fixturePath === defaultFixturePath;
const faults = faultsFromEnvironment(process.env.SANDBOX_FAULTS);
const sandbox = await startSandbox({
  port,
  fixture: fixturePath,
  ...(faults ? { faults } : {}),
  strict: process.env.SANDBOX_STRICT === '1' || process.env.SANDBOX_STRICT === 'true',
  corsOrigins: process.env.SANDBOX_CORS_ORIGINS?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean),
  log: process.env.SANDBOX_QUIET ? undefined : (line) => console.log(`${new Date().toISOString()} ${line}`),
});

console.log(`Sandbox listening on ${sandbox.url}${faults ? ` (faults: ${JSON.stringify(faults)})` : ''}`);
const key = credentialKey(loadFixture(fixturePath));
if (isDefaultFixture) {
  console.log('# Test credentials of the default fixture, for a .env file:');
  console.log(`API_BASE_URL=${sandbox.url}`);
  console.log(`API_KEY=${key.apiKey}`);
  console.log(`API_SECRET=${key.secret}`);
} else {
  console.log(`Fixture ${fixturePath}: use the secrets it holds (not printed).`);
}

const stop = () => {
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
