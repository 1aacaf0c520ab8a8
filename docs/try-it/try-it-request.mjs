// The request the "Try it" panel (./try-it.mjs) sends for an operation: signed with the signing
// recipe (./sign.mjs) for a signed operation, else its path filled in and the other fields in the
// query string. Apart from the panel, which needs a page, so that the docs tests build every
// operation's request in Node with the very file the page imports (the site's assets).
import { signedRequest } from './sign.mjs';

/**
 * The URL, headers and body (a signed operation's only) of `operation` (an entry of the page's
 * try-it data) sent to `origin` with the body `fields`; nothing is sent.
 */
export async function tryItRequest({ operation, origin, fields, apiKey, apiSecret }) {
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
