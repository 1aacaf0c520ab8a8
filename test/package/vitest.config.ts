// `npm run test:package`: the packed package installed outside the repository and used there.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/package/**/*.test.ts'],
    // Installing runtimes and the tarball, not performance assertions.
    testTimeout: 90_000,
    hookTimeout: 240_000,
  },
});
