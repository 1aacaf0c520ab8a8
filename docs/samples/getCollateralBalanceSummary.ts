import { createPrivateClient } from 'txc-api-v4';

const client = createPrivateClient({
  apiKey: process.env.TXC_API_KEY ?? 'demo-key',
  apiSecret: process.env.TXC_API_SECRET ?? 'demo-secret',
  baseUrl: process.env.TXC_BASE_URL ?? 'http://127.0.0.1:4011',
});

const { data, error } = await client.POST('/api/v4/collateral-account/balance-summary', {
  body: { ticker: 'BTC' },
});
if (error) console.error(error.kind, error.message);
else for (const item of data) console.log(item);
