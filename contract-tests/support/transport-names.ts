// The transports the contract suite runs its checks over, each the name of a vitest project
// (contract-tests/vitest.config.ts); support/clients.ts builds the transport of each name.
//
// The first transport's project runs every file. The others run only the files whose checks are
// about the transport: a call's bytes out, the answer's bytes back, a status or body turned into
// data or an ApiError. What does not depend on it (the client refusing bad input before sending,
// raw signed requests, requests whose signing headers the tap dropped or broke, the suite's proofs
// that it can fail, the coverage of the case table, the CI recipe) is checked once. And they run
// those files over one operation of each wire shape, not over every operation
// (transport-operations.ts, wire-shapes.ts): the first transport calls every operation.

export const transportNames = ['undici', 'fetch'] as const;
export type TransportName = (typeof transportNames)[number];

/** The files every transport runs (the first transport runs every file), over its operations. */
export const transportBoundFiles = [
  'contract-tests/operations.contract.ts',
  'contract-tests/typed.contract.ts',
  'contract-tests/properties.contract.ts',
];

/**
 * The suite's checks of itself: each runs the whole runner as a child against a target made to
 * fail it (meta: one target with two faults) or against the sandbox as the CI recipe of docs/guides/contract-tests.md has it. They
 * prove the suite can fail; they check no target of their own, so `npm run contract` leaves them
 * out and `npm run contract:self-check` (`--self-check`) runs them alone.
 */
export const selfCheckFiles = ['contract-tests/meta.contract.ts', 'contract-tests/ci-recipe.contract.ts'];
