// The stages of `npm test` (scripts/test-stages.ts), each an npm script. The prerequisites come
// first, alone, and say in a second what is missing. Then the lanes run side by side, each a list
// of stages one after another: the checks of the sources and the repository's vitest projects,
// which keep a core busy; and the servers and the package. The contract suite (against the Prism
// mocks, then the sandbox) leads the second lane: beside the first lane's single-process checks
// rather than beside the slow project's two workers, it runs near its own speed (about 50 s of
// the two cores' time inside npm test, against 65 s later in the lane), and its result comes
// first. Then the tarball (check:package leaves it for test:package) and the docs in a browser,
// which spends much of its time waiting on other processes. The suite's checks of itself end the
// first lane and the type check (CPU-bound) the second: at 124 operations, the other way round,
// the second lane was the longer by 44 s of a 350 s run (self-check 52 s, typecheck 26 s), and
// the swap evens them out. At 126 operations, with the browser's two files side by side, the
// first lane was the longer, by 12 s quiet and 47 s with both cores busy (the slow project
// stretches most under load): the generated files' check moved to the second.
export const testPlan = {
  first: ['check:prerequisites'],
  lanes: [
    ['spec:gate', 'lint', 'test:unit', 'test:slow', 'contract:self-check'],
    [
      'contract',
      'contract:sandbox',
      'check:generated',
      'check:package',
      'test:package',
      'test:browser',
      'typecheck',
    ],
  ],
} as const;

/**
 * Set by `npm test` for its stages: its typecheck stage (`npm run typecheck`, whose tsconfig includes
 * the type-level tests) has checked them, so the unit project does not run tsc over them again.
 */
export const typesCheckedByTsc = 'TXC_TYPES_CHECKED_BY_TSC';
