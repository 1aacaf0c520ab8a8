// Shown on the docs index page as "getting started with the client"; type-checked with the rest.
import { createPrivateClient, createPublicClient } from 'txc-api-v4';

// TXC_BASE_URL, TXC_API_KEY and TXC_API_SECRET: the .env `npm start` writes for its sandbox, or a deployment
// (both APIs at one origin). Unset, the clients call the two mocks `npm start` serves.
const pub = createPublicClient({ baseUrl: process.env.TXC_BASE_URL ?? 'http://127.0.0.1:4010' });
const { data: pong } = await pub.GET('/api/v4/public/ping');
console.log(pong);

// Private calls are signed: the client adds `request` and `nonce`, and the three signing headers.
const client = createPrivateClient({
  apiKey: process.env.TXC_API_KEY ?? 'demo-key',
  apiSecret: process.env.TXC_API_SECRET ?? 'demo-secret',
  baseUrl: process.env.TXC_BASE_URL ?? 'http://127.0.0.1:4011',
});
const { data, error } = await client.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } });
if (error) console.error(error.kind, error.message);
else console.log(data);
