import { createPrivateClient } from 'txc-api-v4';

const client = createPrivateClient({
  apiKey: process.env.TXC_API_KEY ?? 'demo-key',
  apiSecret: process.env.TXC_API_SECRET ?? 'demo-secret',
  baseUrl: process.env.TXC_BASE_URL ?? 'http://127.0.0.1:4011',
});

// Both conditions are optional; with neither, every order is cancelled.
const { data, error } = await client.POST('/api/v4/order/cancel/all', {
  body: { market: 'BTC_USDT', type: ['spot', 'margin'] },
});
if (error) console.error(error.kind, error.message);
else console.log(data);
