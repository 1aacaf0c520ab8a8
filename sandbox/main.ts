// `npm run sandbox`: starts the sandbox and prints its URL and its streams' URL, the default
// fixture's test credentials and what it holds (plans, markets), every line ready for a .env file
// (comments or KEY=VALUE): `node --env-file=.env`, `tsx --env-file=.env`, `txc --env-file .env`.
// SANDBOX_PORT (default 4012), SANDBOX_FIXTURE (a fixture file), SANDBOX_FAULTS (JSON fault
// options), SANDBOX_STRICT=1 (validate every answer against the document), SANDBOX_QUIET=1 (no
// per-request lines), SANDBOX_CORS_ORIGINS (comma-separated origins whose pages may call it),
// SANDBOX_WALK=0 (prices hold still), SANDBOX_WALK_SEED and SANDBOX_WALK_STEP_SECONDS (the walk),
// SANDBOX_DOCUMENTS (a project root whose documents it serves; default this project's).

import { operations } from '../generated/operations.ts';
import { streamTokenOperation } from '../generated/streams.ts';
import { contractVariables, environmentVariables, streamVariables } from '../model/environment.ts';
import { endWithLauncher } from '../scripts/child-process.ts';
import { isAddressInUse, portInUseLine } from '../scripts/port-in-use.ts';
import { controlLines } from './control.ts';
import { faultsFromEnvironment } from './faults.ts';
import { credentialKey, defaultFixturePath, loadFixture } from './fixture.ts';
import { startedLine } from './process.ts';
import { startSandbox } from './server.ts';

/** Ends the process with one line on stderr: a clear reason, no stack trace. */
function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

// Found before anything is printed: a caller may kill npm as soon as it reads the first line.
endWithLauncher(() => process.kill(process.pid, 'SIGTERM'));

const port = process.env.SANDBOX_PORT ? Number(process.env.SANDBOX_PORT) : 4012;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  fail(`sandbox: SANDBOX_PORT must be a port number (0 picks a free one), not ${process.env.SANDBOX_PORT}`);
}
const fixturePath = process.env.SANDBOX_FIXTURE || defaultFixturePath;
const isDefaultFixture = fixturePath === defaultFixturePath;
const faults = faultsFromEnvironment(process.env.SANDBOX_FAULTS);
const fixture = loadFixture(fixturePath);
// The market moves unless SANDBOX_WALK=0: a seeded walk, so that two runs see the same prices.
const walkSeed = Number(process.env.SANDBOX_WALK_SEED ?? 1);
const walkStepSeconds = Number(process.env.SANDBOX_WALK_STEP_SECONDS ?? 5);
if (!Number.isSafeInteger(walkSeed))
  fail(`sandbox: SANDBOX_WALK_SEED must be an integer, not ${process.env.SANDBOX_WALK_SEED}`);
if (!(walkStepSeconds > 0)) {
  fail(`sandbox: SANDBOX_WALK_STEP_SECONDS must be above 0, not ${process.env.SANDBOX_WALK_STEP_SECONDS}`);
}
const walk = process.env.SANDBOX_WALK === '0' ? undefined : { seed: walkSeed, stepSeconds: walkStepSeconds };
const documents = process.env.SANDBOX_DOCUMENTS;
const sandbox = await startSandbox({
  port,
  fixture,
  ...(documents ? { documents } : {}),
  ...(faults ? { faults } : {}),
  walk,
  strict: process.env.SANDBOX_STRICT === '1' || process.env.SANDBOX_STRICT === 'true',
  corsOrigins: process.env.SANDBOX_CORS_ORIGINS?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean),
  // On stderr: stdout holds only the start-up lines, a .env file as it is (`npm run sandbox --silent > .env`).
  log: process.env.SANDBOX_QUIET ? undefined : (line) => console.error(`${new Date().toISOString()} ${line}`),
}).catch((error: unknown) => {
  if (isAddressInUse(error)) fail(portInUseLine('sandbox', port, 'SANDBOX_PORT'));
  throw error;
});

// The HTTP operation whose token the account channels take, as the stream documents name it.
const tokenOperation = operations[streamTokenOperation.operationId];
// Every line below is a comment or KEY=VALUE, so the whole start-up output is a valid .env file.
const lines = [
  `# Sandbox listening on ${sandbox.url}${faults ? ` (faults: ${JSON.stringify(faults)})` : ''}`,
  `# Streams (WebSocket, same origin): ${sandbox.streamUrl}; its account channels take the token of ${tokenOperation.method.toUpperCase()} ${tokenOperation.path} (txc ${tokenOperation.cliName})`,
  `${streamVariables.url}=${sandbox.streamUrl}`,
];
const firstActivePlan = fixture.plans.find((plan) => plan.status === 'active' && !plan.specialOffer);
if (isDefaultFixture) {
  const key = credentialKey(fixture);
  lines.push(
    '# Test credentials of the default fixture, for a .env file (tsx --env-file=.env):',
    `${environmentVariables.baseUrl}=${sandbox.url}`,
    `${environmentVariables.apiKey}=${key.apiKey}`,
    `${environmentVariables.apiSecret}=${key.secret}`,
  );
} else {
  lines.push(
    `# Fixture ${fixturePath}: use the secrets it holds (not printed).`,
    `${environmentVariables.baseUrl}=${sandbox.url}`,
  );
}
lines.push(
  walk
    ? `# Prices walk every ${walk.stepSeconds} s of the sandbox's clock (seed ${walk.seed}; SANDBOX_WALK=0 holds them still)`
    : '# Prices hold still (SANDBOX_WALK=0)',
  ...controlLines(sandbox.url),
  '# Markets (name: what it trades, at the price it starts at):',
  ...fixture.markets.map(
    (market) =>
      `#   ${market.name}: ${market.stock} for ${market.money} at ${market.price}${market.tradesEnabled === false ? ', not trading' : ''}`,
  ),
  `# Assets: ${Object.keys(fixture.assets).join(' ')}`,
  '# Plans (id: what investing in it gives):',
  ...fixture.plans.map((plan) => `#   ${plan.id}: ${plan.description ?? `${plan.currency}, ${plan.status}`}`),
  '# For the contract suite against this sandbox as a URL target (npm run contract -- --target "$TXC_BASE_URL"):',
  ...(firstActivePlan ? [`${contractVariables.planId}=${firstActivePlan.id}`] : []),
  ...(fixture.markets[0] ? [`${contractVariables.market}=${fixture.markets[0].name}`] : []),
  ...(firstActivePlan ? [`${contractVariables.ticker}=${firstActivePlan.currency}`] : []),
  startedLine,
);
console.log(lines.join('\n'));

const stop = () => {
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
