// `npm run test:package`: the packed package installed outside the repository and used there.
import { defineConfig } from 'vitest/config';
import { timeLimits } from '../../scripts/time-limits.ts';
import { sourceAliases } from '../../vitest.resolve.ts';

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/package/**/*.test.ts'],
    // Installing runtimes and the tarball, running processes: limits, not performance assertions.
    testTimeout: timeLimits.processTestMs,
    hookTimeout: timeLimits.hookMs,
  },
});
