// The stages of `npm test` (scripts/test-stages.ts), each an npm script. The prerequisites come
// first, alone, and say in a second what is missing. Then the lanes run side by side, each a list
// of stages one after another: the source checks and the repository's vitest projects, which keep
// a core busy; and the package and the servers (the tarball, the contract suite against the Prism
// mocks and against the sandbox, the docs in a browser), which spend much of their time waiting on
// other processes. check:package leaves the tarball it built for test:package.
export const testPlan = {
  first: ['check:prerequisites'],
  lanes: [
    ['check:generated', 'spec:gate', 'lint', 'typecheck', 'test:unit', 'test:slow'],
    ['check:package', 'test:package', 'contract', 'contract:sandbox', 'test:browser'],
  ],
} as const;
