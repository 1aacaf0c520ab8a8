// A consumer's program: a signed call, a public call and a refused input, then the streams
// (streams.mjs, at TXC_STREAM_URL), printed as one JSON line.
import { createPrivateClient, createPublicClient } from 'txc-api-v4';
import { useStreams } from './streams.mjs';

const baseUrl = process.env.TXC_BASE_URL;
const client = createPrivateClient({
  apiKey: process.env.TXC_API_KEY,
  apiSecret: process.env.TXC_API_SECRET,
  baseUrl,
});
const publicClient = createPublicClient({ baseUrl });
const balance = await client.POST('/api/v4/main-account/balance');
const ping = await publicClient.GET('/api/v4/public/ping');
const refused = await client.POST('/api/v4/collateral-account/balance-summary', { body: { ticker: 7 } });
await Promise.all([client.close(), publicClient.close()]);
const streams = await useStreams(process.env.TXC_STREAM_URL);
console.log(
  JSON.stringify({
    balance: balance.data ?? balance.error.message,
    ping: ping.data ?? ping.error.message,
    refused: { kind: refused.error?.kind, field: refused.error?.field },
    streams,
  }),
);
