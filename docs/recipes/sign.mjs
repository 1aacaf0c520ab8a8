// A signed private call in plain JavaScript with Web Crypto and fetch, without the package: the
// same code runs in Node 20 and later, Deno, Bun and a browser page (Web Crypto needs a secure
// context there: https, or http on localhost).
//   node sign.mjs PATH [FIELDS]
// PATH is the operation's path, FIELDS its body fields as JSON (request and nonce are added here),
// e.g.  node sign.mjs /api/v4/main-account/balance '{"ticker":"USDT"}'
// Reads TXC_BASE_URL, TXC_API_KEY and TXC_API_SECRET from the environment.

/** The body, headers and URL of one signed call; nothing is sent. */
export async function signedRequest({ baseUrl, apiKey, apiSecret, path, fields = {}, nonce = Date.now() }) {
  // Nonce: a millisecond timestamp by default, so each call's is greater than the last.
  const body = JSON.stringify({ request: path, nonce: String(nonce), ...fields });
  const bytes = new TextEncoder().encode(body);
  // Payload: the body's UTF-8 bytes in base64.
  const payload = btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));
  // Signature: HMAC-SHA512 of the payload, keyed with the secret, in lowercase hex.
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(apiSecret),
    { name: 'HMAC', hash: 'SHA-512' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(payload)));
  const signature = Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return {
    url: `${baseUrl.replace(/\/+$/, '')}${path}`,
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-TXC-APIKEY': apiKey,
      'X-TXC-PAYLOAD': payload,
      'X-TXC-SIGNATURE': signature,
    },
  };
}

// Run as a program (not when imported by a page or another module).
if (import.meta.filename !== undefined && import.meta.filename === globalThis.process?.argv[1]) {
  const [path, fields = '{}'] = process.argv.slice(2);
  const { url, body, headers } = await signedRequest({
    baseUrl: process.env.TXC_BASE_URL,
    apiKey: process.env.TXC_API_KEY,
    apiSecret: process.env.TXC_API_SECRET,
    path,
    fields: JSON.parse(fields),
  });
  // Exactly the signed bytes are sent.
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  if (!response.ok) {
    console.error(`HTTP ${response.status}: ${text}`);
    process.exitCode = 1;
  } else {
    console.log(text);
  }
}
