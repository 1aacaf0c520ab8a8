// `npm run test:browser`: the docs site in a real browser (Debian's chromium, offline).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // tsconfig.json maps `#transport` and the package's own name to the sources.
  resolve: { tsconfigPaths: true },
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['docs/test/**/*.test.ts'],
    globalSetup: ['docs/test/global-setup.ts'],
    // Limits for a browser that builds and renders pages, not performance assertions.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
