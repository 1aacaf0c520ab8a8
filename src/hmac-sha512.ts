// HMAC-SHA512 on Node (RFC 2104): SHA-512 of (key ^ opad) followed by the SHA-512 of
// (key ^ ipad) and the message, with the two padded keys computed once per secret. Node's one-shot
// `crypto.hash` creates no native object per call, where `createHmac` creates one (with its GC
// bookkeeping): that measured about 5 µs a signed call at concurrency 64 under load, against
// about 3 µs for the two hashes together. Where `crypto.hash` is missing, or its result differs
// from `createHmac` on a probe, `createHmac` is used.

type NodeCrypto = typeof import('node:crypto');

/** SHA-512 works on 128-byte blocks. */
const blockSize = 128;
const digestSize = 64;

/** Lowercase hex HMAC-SHA512 of `message` (ASCII: a base64 payload) keyed with `secret`. */
export type HexHmac = (message: string) => string;

export function createHexHmac(crypto: NodeCrypto, secret: Uint8Array): HexHmac {
  const { createHmac, createSecretKey, hash } = crypto;
  const key = createSecretKey(secret);
  const viaCreateHmac: HexHmac = (message) => createHmac('sha512', key).update(message).digest('hex');
  if (typeof hash !== 'function') return viaCreateHmac;

  // Keys longer than a block are hashed first; shorter ones are padded with zeros.
  const keyBlock = Buffer.alloc(blockSize);
  keyBlock.set(secret.length > blockSize ? hash('sha512', secret, 'buffer') : secret);
  const ipad = Buffer.alloc(blockSize);
  const outer = Buffer.alloc(blockSize + digestSize);
  for (let i = 0; i < blockSize; i++) {
    ipad[i] = (keyBlock[i] as number) ^ 0x36;
    outer[i] = (keyBlock[i] as number) ^ 0x5c;
  }
  // The inner digest as a 'binary' (latin1) string, one character a byte: a Buffer would cost an
  // ArrayBuffer of its own a call.
  let innerDigest: (message: string) => string;
  if (keyBlock.every((byte) => byte < 0x80)) {
    // An ASCII key (the usual API secret) pads to ASCII: (key ^ ipad) and the base64 message as one
    // string are their own UTF-8 bytes, hashed without writing them into a buffer first.
    const ipadText = ipad.toString('latin1');
    innerDigest = (message) => hash('sha512', ipadText + message, 'binary');
  } else {
    // Otherwise (key ^ ipad) and the message are written into a buffer, which grows as needed.
    let inner = Buffer.alloc(blockSize + 512);
    ipad.copy(inner);
    innerDigest = (message) => {
      const length = blockSize + message.length;
      if (inner.length < length) {
        const grown = Buffer.alloc(length * 2);
        inner.copy(grown, 0, 0, blockSize);
        inner.fill(0);
        inner = grown;
      }
      // Every character of a base64 payload is one byte.
      inner.write(message, blockSize, 'latin1');
      return hash('sha512', inner.subarray(0, length), 'binary');
    };
  }
  keyBlock.fill(0);
  ipad.fill(0);
  const viaHash: HexHmac = (message) => {
    outer.write(innerDigest(message), blockSize, 'binary');
    return hash('sha512', outer, 'hex');
  };
  const probe = 'eyJwcm9iZSI6dHJ1ZX0=';
  return viaHash(probe) === viaCreateHmac(probe) ? viaHash : viaCreateHmac;
}
