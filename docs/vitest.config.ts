// `npm run test:browser`: the docs site in a real browser (Debian's chromium, offline).
import { defineConfig } from 'vitest/config';
import { timeLimits } from '../scripts/time-limits.ts';
import { sourceAliases } from '../vitest.resolve.ts';

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['docs/test/**/*.test.ts'],
    globalSetup: ['docs/test/global-setup.ts'],
    // Limits for a browser that builds and renders pages, not performance assertions.
    testTimeout: timeLimits.processTestMs,
    hookTimeout: timeLimits.hookMs,
    // The site (site.test.ts) and its reference pages (reference-site.test.ts), each with a
    // Chromium of its own, side by side: each waits on its browser more than it computes.
    maxWorkers: 2,
  },
});
