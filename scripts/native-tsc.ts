// The compiler that type-checks the project (and the manual's code blocks) and builds the package:
// TypeScript 7, whose native tsc checks the whole tree in a few seconds where TypeScript 5.9's took
// about 35, and emits dist/ in about 1.5 where 5.9 took 7 (both here, on this tree). TypeScript 5.9
// stays installed as `typescript`: openapi-typescript's codegen needs its JavaScript API, which 7
// does not offer, and the installed package's consumers are type-checked with it (test/package),
// so the declarations 7 emits are proven on 5.9. `npm run typecheck` names the same launcher
// (package.json).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The launcher of TypeScript 7's tsc: a Node script, so also an executable (vitest's typecheck runs it). */
export const nativeTsc = join(
  fileURLToPath(new URL('..', import.meta.url)),
  'node_modules/typescript-7/bin/tsc',
);
