import { defineConfig } from 'vitest/config';

export default defineConfig({
  // tsconfig.json maps the package's own name to the sources. `#transport` is named here too:
  // Vite resolves it from package.json's "imports" (dist/, absent on a fresh clone) before paths.
  resolve: {
    tsconfigPaths: true,
    alias: { '#transport': new URL('./src/transport/node.ts', import.meta.url).pathname },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The installed package has its own project: npm run test:package.
    exclude: ['test/package/**', 'node_modules/**'],
  },
});
