// The environment variables txc reads its origin and credentials from, named once so that a
// rename touches one file. The secret is only ever read from here or from an --env-file.
export const environmentVariables = {
  baseUrl: 'TXC_BASE_URL',
  apiKey: 'TXC_API_KEY',
  apiSecret: 'TXC_API_SECRET',
} as const;
