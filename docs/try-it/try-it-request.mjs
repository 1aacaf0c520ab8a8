// The request the "Try it" panel (./try-it.mjs) sends for an operation: signed with the signing
// recipe (./sign.mjs) for a signed operation; for one authorised by a token another operation
// issues (the fiat gateway's), that token, asked for first with a signed call; else its path
// filled in and the other fields in the query string. Apart from the panel, which needs a page, so that the docs tests build every
// operation's request in Node with the very file the page imports (the site's assets).
import { signedRequest } from './sign.mjs';

/**
 * The URL, headers and body (a signed or token operation's only) of `operation` (an entry of the
 * page's try-it data) sent to `origin` with the body `fields`; nothing is sent but, for a token
 * operation, the signed call that issues the token. `{ error }` when that call gives none.
 */
export async function tryItRequest({ operation, origin, fields, apiKey, apiSecret }) {
  if (operation.token) {
    const token = await issuedToken({ origin, apiKey, apiSecret, ...operation.token });
    if (token.error) return token;
    return {
      url: `${origin}${operation.path}`,
      headers: { 'content-type': 'application/json', [operation.token.header]: token.value },
      body: JSON.stringify(fields),
      // The token is a secret: the request shown names where it came from instead.
      hidden: { [operation.token.header]: `(the token ${operation.token.sourcePath} answered)` },
    };
  }
  if (operation.signed) {
    return signedRequest({ baseUrl: origin, apiKey, apiSecret, path: operation.path, fields });
  }
  // A path parameter fills its `{name}`; every other field goes in the query string.
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name) =>
    encodeURIComponent(String(fields[name] ?? '')),
  );
  const rest = Object.entries(fields).filter(([name]) => !operation.pathParams.includes(name));
  const query = new URLSearchParams(rest.map(([name, value]) => [name, String(value)])).toString();
  return { url: `${origin}${path}${query ? `?${query}` : ''}`, headers: {} };
}

/** The token the operation at `sourcePath` answers, at the JSON pointer `at` of its body. */
async function issuedToken({ origin, apiKey, apiSecret, sourcePath, at }) {
  const request = await signedRequest({ baseUrl: origin, apiKey, apiSecret, path: sourcePath, fields: {} });
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'error',
    });
    let value = await response.json();
    for (const part of at.split('/').slice(1)) value = value?.[part];
    return typeof value === 'string' && value
      ? { value }
      : { error: `${sourcePath} answered HTTP ${response.status} without a token` };
  } catch (error) {
    return { error: `${sourcePath}: ${error.message}` };
  }
}
