import { ActionType, createPrivateClient } from 'txc-api-v4';

const client = createPrivateClient({
  apiKey: process.env.TXC_API_KEY ?? 'demo-key',
  apiSecret: process.env.TXC_API_SECRET ?? 'demo-secret',
  baseUrl: process.env.TXC_BASE_URL ?? 'http://127.0.0.1:4011',
});

// B2B partner services only. Every filter is optional.
const { data, error } = await client.POST('/api/v4/main-account/smart-flex/investments/history', {
  body: {
    limit: 50,
    offset: 0,
    actionTypes: [ActionType.INVEST, ActionType.DAILY_EARNING],
  },
});
if (error) console.error(error.kind, error.message);
else console.log(data);
