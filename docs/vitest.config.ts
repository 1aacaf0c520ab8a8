// `npm run test:browser`: the docs site in a real browser (Debian's chromium, offline).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // tsconfig.json maps the package's own name to the sources. `#transport` is named here too:
  // Vite resolves it from package.json's "imports" (dist/, absent on a fresh clone) before paths.
  resolve: {
    tsconfigPaths: true,
    alias: { '#transport': new URL('../src/transport/node.ts', import.meta.url).pathname },
  },
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
