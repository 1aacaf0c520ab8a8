import { createPublicClient } from 'txc-api-v4';

const client = createPublicClient({ baseUrl: process.env.TXC_BASE_URL ?? 'http://127.0.0.1:4010' });

const { data, error } = await client.GET('/api/v4/public/ping');
if (error) console.error(error.kind, error.message);
else console.log(data); // ['pong']
