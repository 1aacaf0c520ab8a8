// Inside the repository, `#transport` and the package's own name resolve to the sources, as
// tsconfig.json's `paths` say (tsc and tsx follow them). Vite would resolve them through
// package.json first, to dist/, which a fresh clone does not have and which may be stale, so
// every vitest config uses these aliases, read from the same `paths`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const { compilerOptions } = JSON.parse(readFileSync(`${root}tsconfig.json`, 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** One exact-match alias per `paths` entry, to its first target. */
export const sourceAliases = Object.entries(compilerOptions.paths).map(([name, [target]]) => ({
  find: new RegExp(`^${escapeRegExp(name)}$`),
  replacement: `${root}${(target as string).replace(/^\.\//, '')}`,
}));
