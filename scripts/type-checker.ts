// The compiler that type-checks the project: TypeScript 7, whose native tsc checks the whole
// tree in a few seconds where TypeScript 5.9's took about 35 (tsc --noEmit, both on this tree).
// TypeScript 5.9 stays installed as `typescript` for what needs its JavaScript API, which 7 does
// not offer: openapi-typescript's codegen, the README's and guides' snippet check, the build.
// `npm run typecheck` names the same launcher (package.json).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The launcher of TypeScript 7's tsc, as vitest's typecheck runs a checker: a path to an executable. */
export const typeChecker = join(
  fileURLToPath(new URL('..', import.meta.url)),
  'node_modules/typescript-7/bin/tsc',
);
