import { defineConfig } from 'vitest/config';
import { sourceAliases } from './vitest.resolve.ts';

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    include: ['test/**/*.test.ts'],
    // The installed package has its own project: npm run test:package.
    exclude: ['test/package/**', 'node_modules/**'],
  },
});
