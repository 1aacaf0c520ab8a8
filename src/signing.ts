// Signing: X-TXC-PAYLOAD is the base64 of the exact body bytes, X-TXC-SIGNATURE the lowercase
// hex HMAC-SHA512 of that base64 string keyed with the API secret. Node's crypto is used where
// it exists (measured about 6x faster than Web Crypto for small payloads on this machine: see
// bench/); any runtime with Web Crypto works too. The secret and what is derived from it (a key
// object, the padded keys) live only in closures, never in a property, so they cannot leak
// through inspection or serialization.
import { ConfigurationError } from './errors.ts';
import { createHexHmac } from './hmac-sha512.ts';

export interface Signature {
  payload: string;
  signature: string;
}

export type Signer = (body: string) => Signature | Promise<Signature>;

type NodeCrypto = typeof import('node:crypto');
type NodeBuffer = typeof import('node:buffer');

// process.getBuiltinModule (Node 20.16+, Bun, Deno) reaches node:crypto without an import that
// a browser bundler would have to resolve.
const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  ?.getBuiltinModule;
const nodeCrypto = getBuiltin?.('node:crypto') as NodeCrypto | undefined;
const nodeBuffer = getBuiltin?.('node:buffer') as NodeBuffer | undefined;

const encoder = new TextEncoder();

// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is exactly \x00-\x7f.
const nonAscii = /[^\x00-\x7f]/;

function base64(text: string): string {
  // ASCII text is its own UTF-8, and btoa encodes it directly: the fastest way on every runtime
  // (0.06 µs for a 70-character body on Node, against 0.3 µs through a Buffer).
  if (!nonAscii.test(text)) return btoa(text);
  if (nodeBuffer) return nodeBuffer.Buffer.from(text, 'utf8').toString('base64');
  let binary = '';
  for (const byte of encoder.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function hex(bytes: ArrayBuffer): string {
  let out = '';
  for (const byte of new Uint8Array(bytes)) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** A signer for one secret: Node's crypto when available, else Web Crypto. */
export function createSigner(
  secret: string,
  implementation: 'node' | 'web' = nodeCrypto ? 'node' : 'web',
): Signer {
  if (implementation === 'node') {
    if (!nodeCrypto)
      throw new ConfigurationError('apiSecret', 'node:crypto is not available on this runtime');
    const hmac = createHexHmac(nodeCrypto, encoder.encode(secret));
    return (body) => {
      const payload = base64(body);
      return { payload, signature: hmac(payload) };
    };
  }
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (!subtle) {
    throw new ConfigurationError(
      'apiSecret',
      'cannot sign: Web Crypto (crypto.subtle) is missing. Browsers offer it only in a secure context ' +
        '(https, or http on localhost); a page served over plain http from another host has none',
    );
  }
  const key = subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-512' }, false, [
    'sign',
  ]);
  return async (body) => {
    const payload = base64(body);
    const signature = hex(await subtle.sign('HMAC', await key, encoder.encode(payload)));
    return { payload, signature };
  };
}
