// The stages of `npm test` (scripts/test-stages.ts), each an npm script. The prerequisites come
// first, alone, and say in a second what is missing. Then the lanes run side by side, each a list
// of stages one after another: the checks of the sources and the repository's vitest projects,
// which keep a core busy; and the servers and the package. The contract suite (against the Prism
// mocks, then the sandbox) leads the second lane: beside the first lane's single-process checks
// rather than beside the slow project's two workers, it runs near its own speed (about 50 s of
// the two cores' time inside npm test, against 65 s later in the lane), and its result comes
// first, followed by the suite's checks of itself. Then the tarball (check:package leaves it for
// test:package) and the docs in a browser, which spends much of its time waiting on other
// processes, and the type check. The first lane ends with the generated files' check. Each move
// evened the lanes out as measured: at 124 operations the second lane was the longer by 44 s of
// a 350 s run, and the suite's checks of itself went to the first; at 126 operations the first
// was the longer (the slow project stretches most under load), and the generated files' check
// went to the second. Then the type check went from tsc 5.9 to TypeScript 7's native tsc (42 s to
// 9 s of the second lane, quiet), which left the first lane the longer by about 34 s quiet and
// 70 s with both cores busy: the suite's checks of itself and the generated files' check swapped.
export const testPlan = {
  first: ['check:prerequisites'],
  lanes: [
    ['spec:gate', 'lint', 'test:unit', 'test:slow', 'check:generated'],
    [
      'contract',
      'contract:sandbox',
      'contract:self-check',
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
