import { createPrivateClient } from 'txc-api-v4';

const client = createPrivateClient({
  apiKey: process.env.TXC_API_KEY ?? 'demo-key',
  apiSecret: process.env.TXC_API_SECRET ?? 'demo-secret',
  baseUrl: process.env.TXC_BASE_URL ?? 'http://127.0.0.1:4011',
});

// B2B partner services only. This call moves money: the client never repeats it on its own.
const { data, error } = await client.POST('/api/v4/main-account/smart/investment', {
  body: { planId: '7b6e1c1a-3f1d-4c59-9a52-3c2a8f1e0d4b', amount: '100.00' },
});
if (error) console.error(error.kind, error.message);
else console.log(data);
