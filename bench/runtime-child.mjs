// One timed round on Bun or Deno (plain JavaScript, so that any runtime runs it as it is): our
// built client with its default transport (the runtime's fetch), the runtime's raw fetch signing
// every call with the least work a signed call needs, or its raw fetch with a body signed once
// beforehand. Prints {"requests":N,"seconds":S} on stdout.
const env = globalThis.Deno ? globalThis.Deno.env.toObject() : globalThis.process.env;
const setting = (name) => env[name];
const origin = setting('ORIGIN');
const path = setting('BALANCE_PATH');
const concurrency = Number(setting('CONCURRENCY'));
const durationMs = Number(setting('DURATION_MS'));

let call;
let close = async () => {};
if (setting('CONTENDER') === 'ours') {
  const { createPrivateClient } = await import(setting('ENTRY'));
  const client = createPrivateClient({
    baseUrl: origin,
    apiKey: setting('API_KEY'),
    apiSecret: setting('API_SECRET'),
    rateLimit: false,
  });
  call = async () => {
    const result = await client.POST(path);
    if (result.error) throw result.error;
  };
  close = () => client.close();
} else if (setting('CONTENDER') === 'signed') {
  // A fresh nonce and body, their base64, HMAC-SHA512 over it and a fresh headers object on every
  // call, as any signed call needs; nothing else (no deadline, no size cap, no error mapping).
  const { createHmac } = await import('node:crypto');
  const names = JSON.parse(setting('SIGNING_HEADERS'));
  const apiKey = setting('API_KEY');
  const secret = setting('API_SECRET');
  const url = `${origin}${path}`;
  let nonce = Date.now();
  call = async () => {
    const body = JSON.stringify({ request: path, nonce: String(nonce++) });
    const payload = btoa(body);
    const headers = {
      'content-type': 'application/json',
      [names.ApiKey]: apiKey,
      [names.Payload]: payload,
      [names.Signature]: createHmac('sha512', secret).update(payload).digest('hex'),
    };
    const response = await fetch(url, { method: 'POST', headers, body });
    await response.text();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  };
} else {
  const { headers, body } = JSON.parse(setting('PRECOMPUTED'));
  const url = `${origin}${path}`;
  call = async () => {
    const response = await fetch(url, { method: 'POST', headers, body });
    await response.text();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  };
}

const run = async (ms) => {
  let requests = 0;
  const end = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call();
        requests++;
      }
    }),
  );
  return { requests, seconds: (performance.now() - started) / 1000 };
};
await run(Math.min(500, durationMs)); // warm-up: connections, JIT
const result = await run(durationMs);
await close();
console.log(JSON.stringify(result));
