// How the project runs Prism (the contract suite's mocks and proxies, npm start's mocks): its CLI,
// given the preload that spares it work our use of it never needs (scripts/lean-prism.cjs).
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../model/document.ts';

/** Node's arguments that load the preload. */
export const leanPrismArgs: readonly string[] = [
  '--require',
  fileURLToPath(new URL('./lean-prism.cjs', import.meta.url)),
];

/** Node's arguments that start Prism's CLI; its own (`mock …`, `proxy …`) follow. */
export const prismArgs: readonly string[] = [
  ...leanPrismArgs,
  `${projectRoot}/node_modules/@stoplight/prism-cli/dist/index.js`,
];
