// The stages of `npm test` (scripts/test-stages.ts), each an npm script. The prerequisites come
// first, alone, and say in a second what is missing. Then the lanes run side by side, each a list
// of stages one after another: the checks of the sources and the repository's vitest projects,
// which keep a core busy; and the type check (CPU-bound too, it evens the lanes out), then the
// package and the servers (the tarball, the contract suite against the Prism mocks and against
// the sandbox, the suite's checks of itself, the docs in a browser), which spend much of their
// time waiting on other processes. check:package leaves the tarball it built for test:package.
export const testPlan = {
  first: ['check:prerequisites'],
  lanes: [
    ['check:generated', 'spec:gate', 'lint', 'test:unit', 'test:slow'],
    [
      'typecheck',
      'check:package',
      'test:package',
      'contract',
      'contract:sandbox',
      'contract:self-check',
      'test:browser',
    ],
  ],
} as const;

/**
 * Set by `npm test` for its stages: its typecheck stage (`tsc --noEmit`, whose tsconfig includes
 * the type-level tests) has checked them, so the unit project does not run tsc over them again.
 */
export const typesCheckedByTsc = 'TXC_TYPES_CHECKED_BY_TSC';
