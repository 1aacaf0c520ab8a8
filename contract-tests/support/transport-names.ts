// The transports the contract suite runs every check over, each the name of a vitest project
// (contract-tests/vitest.config.ts); support/clients.ts builds the transport of each name.

export const transportNames = ['undici', 'fetch'] as const;
export type TransportName = (typeof transportNames)[number];
