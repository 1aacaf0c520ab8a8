// The bench is not part of npm test; this only checks that it starts, runs its quick mode and
// prints a results row of each section. No figure is asserted; the stream section's check that
// every consumer applied every update (its book equal to the server's) is behaviour, and is.
import { expect, test } from 'vitest';
import { runScript } from '../../scripts/run-node.ts';

// As `npm run bench` runs it (tsx with bench/tsconfig.json). A hang must not outlive the test: the
// run is killed, and the test then fails on its output.
const runQuick = () =>
  runScript(['bench/run.ts', '--quick'], {
    env: { ...process.env, TSX_TSCONFIG_PATH: 'bench/tsconfig.json' },
  });

test('npm run bench -- --quick starts and prints a results row of each section', async () => {
  const { code, stdout, stderr } = await runQuick();
  expect(code, stderr).toBe(0);
  expect(stdout).toContain('#### End to end');
  expect(stdout).toMatch(/^\| \(a\) our client[^\n]*\|\s*1\s*\|/m);
  expect(stdout).toMatch(/^\| createSigner 'node' \|/m);
  expect(stdout).toContain('#### Streams');
  expect(stdout).toMatch(/^\| \(a\) the stream client[^\n]*\| 2\/2 \|$/m);
  expect(stdout).toMatch(/^\| \(c\) ccxt\.pro whitebit[^\n]*\| 2\/2 \|$/m);
  expect(stdout).toMatch(/^\| stream consumers applied every update[^\n]*\| PASS \|$/m);
});
