import { defineConfig } from 'vitest/config';

export default defineConfig({
  // tsconfig.json maps `#transport` and the package's own name to the sources.
  resolve: { tsconfigPaths: true },
  test: {
    include: ['test/**/*.test.ts'],
    // The installed package has its own project: npm run test:package.
    exclude: ['test/package/**', 'node_modules/**'],
  },
});
