// The transports the contract suite runs its checks over, each the name of a vitest project
// (contract-tests/vitest.config.ts); support/clients.ts builds the transport of each name.
//
// The first transport's project runs every file. The others run only the files whose checks are
// about the transport: a call's bytes out, the answer's bytes back, a status or body turned into
// data or an ApiError. What does not depend on it (the client refusing bad input before sending,
// raw signed requests, the suite's proofs that it can fail, the coverage of the case table, the CI
// recipe) is checked once.

export const transportNames = ['undici', 'fetch'] as const;
export type TransportName = (typeof transportNames)[number];

/** The files every transport runs (the first transport runs every file). */
export const transportBoundFiles = [
  'contract-tests/operations.contract.ts',
  'contract-tests/typed.contract.ts',
  'contract-tests/properties.contract.ts',
];
