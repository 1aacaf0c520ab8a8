// A browser page's script, bundled with esbuild's defaults: one signed call through CORS, then,
// given a stream URL, the streams through the browser's own WebSocket (streams.mjs).
import { createPrivateClient } from 'txc-api-v4';
import { useStreams } from './streams.mjs';

const settings = new URLSearchParams(location.search);
let result;
try {
  const client = createPrivateClient({
    apiKey: settings.get('key'),
    apiSecret: settings.get('secret'),
    baseUrl: settings.get('baseUrl'),
  });
  const balance = await client.POST('/api/v4/main-account/balance');
  result = balance.error
    ? { error: balance.error.kind, message: balance.error.message }
    : { data: balance.data };
  const streamUrl = settings.get('streamUrl');
  if (streamUrl) result.streams = await useStreams(streamUrl);
} catch (error) {
  result = { thrown: error.name, field: error.field, message: error.message };
}
globalThis.result = result;
document.body.dataset.done = 'true';
