// The stages of `npm test` (scripts/test-stages.ts), each an npm script. The prerequisites come
// first, alone, and say in a second what is missing. Then the lanes run side by side, each a list
// of stages one after another: the checks of the sources (lint, then the type check, which takes
// a few seconds with TypeScript 7's native tsc) and the repository's vitest projects, which keep
// a core busy, then the generated files' check; and the servers and the package. The contract
// suite (against the Prism mocks, then the sandbox) leads the second lane: beside the first
// lane's single-process checks rather than beside the slow project's two workers, it runs near
// its own speed (about 50 s of the two cores' time inside npm test, against 65 s later in the
// lane), and its result comes first, followed by the suite's checks of itself. Then the tarball
// (check:package leaves it for test:package) and the docs in a browser, which spends much of its
// time waiting on other processes.
// Stages move between the lanes to even them out, as measured. Last: with the type check down
// from 42 s (tsc 5.9) to 4 s, the first lane was the longer by about 34 s quiet; the suite's
// checks of itself and the generated files' check swapped lanes (242.2 s quiet, the second lane
// then the longer by 9 s), and the type check joined the first lane.
export const testPlan = {
  first: ['check:prerequisites'],
  lanes: [
    ['spec:gate', 'lint', 'typecheck', 'test:unit', 'test:slow', 'check:generated'],
    ['contract', 'contract:sandbox', 'contract:self-check', 'check:package', 'test:package', 'test:browser'],
  ],
} as const;

/**
 * Set by `npm test` for its stages: its typecheck stage (`npm run typecheck`, whose tsconfig includes
 * the type-level tests) has checked them, so the unit project does not run tsc over them again.
 */
export const typesCheckedByTsc = 'TXC_TYPES_CHECKED_BY_TSC';
