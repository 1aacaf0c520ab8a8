// Signing for teams that bring their own openapi-fetch client: `client.use(createSigningMiddleware(…))`,
// also the package's `txc-api-v4/middleware` entry, which loads none of our client. The body the
// caller passes (without `request` and `nonce`) is signed as our own client signs it, through the
// same signer, the same process-wide nonce sequence and the same window-mode hold, and sent as
// those exact bytes.
import type { Middleware } from 'openapi-fetch';
import type { signedBodyFields } from '../generated/operations.ts';
import type { paths as PrivatePaths } from '../generated/private-v4.ts';
import { ConfigurationError } from './errors.ts';
import { createRequestSigner, type SigningOptions } from './signing.ts';
import { wait } from './waits.ts';

export type { SigningOptions };

type SignedFields = (typeof signedBodyFields)[number];

type WithoutSignedFields<Operation> = Operation extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Omit<Operation, 'requestBody'> & {
      requestBody: { content: { 'application/json': Omit<Body, SignedFields> } };
    }
  : Operation;

/**
 * The private API's paths as a caller of a signing openapi-fetch client writes them: request bodies
 * without `request`, `nonce` and `nonceWindow`, which the middleware adds.
 * `createClient<CallerPaths>({ baseUrl })`, then `client.use(createSigningMiddleware(…))`.
 */
export type CallerPaths = {
  [Path in keyof PrivatePaths]: {
    [Method in keyof PrivatePaths[Path]]: WithoutSignedFields<PrivatePaths[Path][Method]>;
  };
};

/**
 * An openapi-fetch middleware that signs every request: it adds `request` (the path called, without
 * the base URL's prefix) and `nonce` (and `nonceWindow`) to the JSON body, serializes it once as
 * compact JSON, signs exactly those bytes and sets the three signing headers. A window-mode hold
 * ends early, with the reason, when the request's signal aborts.
 */
export function createSigningMiddleware(options: SigningOptions): Middleware {
  const { sign } = createRequestSigner(options);
  return {
    async onRequest({ request, schemaPath }) {
      const text = await request.text();
      let fields: unknown;
      try {
        fields = text === '' ? undefined : JSON.parse(text);
      } catch {
        throw new ConfigurationError('body', 'a signed request needs a JSON object body');
      }
      if (fields !== undefined && (typeof fields !== 'object' || fields === null || Array.isArray(fields))) {
        throw new ConfigurationError('body', 'a signed request needs a JSON object body');
      }
      const holding = { wait: (ms: number) => wait(ms, request.signal) };
      const signed = await sign(
        schemaPath,
        fields as Record<string, unknown> | undefined,
        undefined,
        holding,
      );
      const headers = new Headers(request.headers);
      headers.set('content-type', 'application/json');
      for (const [name, value] of Object.entries(signed.headers)) headers.set(name, value);
      return new Request(request, { headers, body: signed.body });
    },
  };
}
