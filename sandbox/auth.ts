// Authentication of private calls the way the service does it (the documents' security schemes
// and the Nonce and Payload schemas, with their "observed upstream" descriptions): headers, key, HMAC-SHA512 signature over the base64 payload,
// payload equal to the body bytes, canonical compact JSON, `request` equal to the path, nonce.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Answer } from './answer.ts';
import type { OperationDocument } from './document.ts';
import { invalidPayload, notProvided, tooManyRequests, unauthorized } from './errors.ts';
import type { FixtureKey } from './fixture.ts';

export interface Authenticated {
  key: FixtureKey;
  body: Record<string, unknown>;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Lowercase hex HMAC-SHA512 of the payload string, keyed with the secret. */
export function expectedSignature(secret: string, payload: string): string {
  return createHmac('sha512', secret).update(payload).digest('hex');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Everything but the nonce's freshness, which is checked after the rate limit. */
export function authenticate(
  operation: OperationDocument,
  headers: IncomingHttpHeaders,
  rawBody: Buffer,
  keyOf: (apiKey: string) => FixtureKey | undefined,
): Authenticated | Answer {
  const { signingHeaders } = operation.documents;
  const apiKey = header(headers, signingHeaders.ApiKey);
  const payload = header(headers, signingHeaders.Payload);
  const signature = header(headers, signingHeaders.Signature);
  if (!apiKey) return unauthorized(operation);
  if (!payload) return notProvided(operation, 'payload');
  if (!signature) return unauthorized(operation);
  const key = keyOf(apiKey);
  if (!key) return unauthorized(operation);
  if (!sameText(signature, expectedSignature(key.secret, payload))) return unauthorized(operation);
  if (!sameText(payload, rawBody.toString('base64'))) return unauthorized(operation);

  // Invalid UTF-8, JSON nested deeper than any document's body, or JSON that is not canonical and
  // compact is an invalid payload, never a 500.
  let body: unknown;
  let text: string;
  try {
    text = strictUtf8.decode(rawBody);
    if (nestingDepth(text) > maxNesting) return invalidPayload(operation);
    body = JSON.parse(text);
    if (body === null || typeof body !== 'object' || Array.isArray(body) || JSON.stringify(body) !== text) {
      return invalidPayload(operation);
    }
  } catch {
    return invalidPayload(operation);
  }
  const fields = body as Record<string, unknown>;
  if (fields.request === undefined || fields.request === null || fields.request === '') {
    return notProvided(operation, 'request');
  }
  if (fields.request !== operation.facts.path) return unauthorized(operation);
  if (fields.nonce === undefined || fields.nonce === null || fields.nonce === '') {
    return notProvided(operation, 'nonce');
  }
  return { key, body: fields };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** Deeper than any body of the documents (they nest two levels), with room to spare. */
const maxNesting = 32;

/** The deepest nesting of arrays and objects in a JSON text, strings skipped; linear, no recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}

/**
 * The nonce as a number, when it is one of the forms the document's Nonce schema allows: a
 * string of at most its maxLength digits, or a non-negative integer (the operator's form,
 * observed upstream). Anything else is left for the document's validation.
 */
function nonceValue(operation: OperationDocument, nonce: unknown): bigint | undefined {
  if (typeof nonce === 'string') {
    return operation.documents.componentValidator(operation.facts.api, 'Nonce')(nonce)
      ? BigInt(nonce)
      : undefined;
  }
  if (typeof nonce === 'number' && Number.isSafeInteger(nonce) && nonce >= 0) return BigInt(nonce);
  return undefined;
}

/**
 * Nonce rules per key: without `nonceWindow`, strictly greater than the last one accepted;
 * with `"nonceWindow": true`, a millisecond timestamp within ±windowMs of server time and not
 * used before. Either failure is answered like a rate limit (429), as the service does.
 * `check` only looks; `record` uses the nonce up, and the server calls it only for a call it
 * carried out, so a refused call (any status but 2xx) never advances the key's nonce.
 */
export class NonceTracker {
  readonly #last = new Map<string, bigint>();
  readonly #used = new Map<string, Map<bigint, number>>();
  readonly #windowMs: number;

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  /**
   * undefined when the nonce is acceptable, or when its format is for the document's
   * validation to report; otherwise the 429 answer. Records nothing.
   */
  check(operation: OperationDocument, key: FixtureKey, body: Record<string, unknown>, now: number) {
    const nonce = nonceValue(operation, body.nonce);
    if (nonce === undefined) return undefined;
    if (body.nonceWindow === true) {
      const distance = nonce - BigInt(now);
      if (distance > BigInt(this.#windowMs) || distance < -BigInt(this.#windowMs)) {
        return tooManyRequests(operation);
      }
      if (this.#used.get(key.apiKey)?.has(nonce)) return tooManyRequests(operation);
      return undefined;
    }
    const last = this.#last.get(key.apiKey);
    if (last !== undefined && nonce <= last) return tooManyRequests(operation);
    return undefined;
  }

  /** Uses up the nonce of a call that `check` accepted and that was carried out. */
  record(operation: OperationDocument, key: FixtureKey, body: Record<string, unknown>, now: number) {
    const nonce = nonceValue(operation, body.nonce);
    if (nonce === undefined) return;
    if (body.nonceWindow === true) {
      let used = this.#used.get(key.apiKey);
      if (!used) {
        used = new Map();
        this.#used.set(key.apiKey, used);
      }
      if (used.size > 1000) {
        for (const [value, seenAt] of used) {
          if (seenAt < now - 2 * this.#windowMs && value < BigInt(now - this.#windowMs)) used.delete(value);
        }
      }
      used.set(nonce, now);
      return;
    }
    const last = this.#last.get(key.apiKey);
    if (last === undefined || nonce > last) this.#last.set(key.apiKey, nonce);
  }
}
