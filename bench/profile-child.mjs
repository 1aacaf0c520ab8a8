// Profiled by bench/profile.ts (node --cpu-prof): the built client's signed main-balance call at
// concurrency 64 against the bench server, for DURATION_MS.
const { createPrivateClient } = await import(process.env.ENTRY);
const client = createPrivateClient({
  baseUrl: process.env.ORIGIN,
  apiKey: 'bench-key',
  apiSecret: 'bench-secret',
  rateLimit: false,
});
const path = process.env.BALANCE_PATH;
const end = performance.now() + Number(process.env.DURATION_MS);
let requests = 0;
await Promise.all(
  Array.from({ length: 64 }, async () => {
    while (performance.now() < end) {
      const result = await client.POST(path);
      if (result.error) throw result.error;
      requests++;
    }
  }),
);
await client.close();
console.log(JSON.stringify({ requests }));
