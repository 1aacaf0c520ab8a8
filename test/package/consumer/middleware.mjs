// A team's own openapi-fetch client, signed by the package's middleware, from its own entry.
import createClient from 'openapi-fetch';
import { createSigningMiddleware } from 'txc-api-v4/middleware';

const client = createClient({ baseUrl: process.env.TXC_BASE_URL });
client.use(
  createSigningMiddleware({ apiKey: process.env.TXC_API_KEY, apiSecret: process.env.TXC_API_SECRET }),
);
const balance = await client.POST('/api/v4/main-account/balance', { body: {} });
const summary = await client.POST('/api/v4/collateral-account/balance-summary', { body: { ticker: 'BTC' } });
console.log(
  JSON.stringify({
    balance: balance.data ?? balance.error,
    summaryStatus: summary.response.status,
    summary: summary.data ?? summary.error,
  }),
);
