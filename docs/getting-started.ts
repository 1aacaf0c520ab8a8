// Shown on the docs index page as "getting started with the client"; type-checked with the rest.
import { createPrivateClient, createPublicClient } from 'txc-api-v4';

// `npm start` serves mock servers for both documents; point baseUrl at the real service instead.
const pub = createPublicClient({ baseUrl: process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:4010' });
const { data: pong } = await pub.GET('/api/v4/public/ping');
console.log(pong);

// Private calls are signed: the client adds `request` and `nonce`, and the three signing headers.
const client = createPrivateClient({
  apiKey: process.env.API_KEY ?? 'demo-key',
  apiSecret: process.env.API_SECRET ?? 'demo-secret',
  baseUrl: process.env.PRIVATE_BASE_URL ?? 'http://127.0.0.1:4011',
});
const { data, error } = await client.POST('/api/v4/main-account/balance', { body: { ticker: 'USDT' } });
if (error) console.error(error.kind, error.message);
else console.log(data);
