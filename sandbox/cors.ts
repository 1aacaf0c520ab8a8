// CORS for the origins the sandbox is told (a browser page calling it from another port): a
// preflight is answered with the methods of the documents and the headers a signed call sends;
// an actual request from an allowed origin gets Access-Control-Allow-Origin. Other origins get
// no CORS headers at all, so the browser refuses them as a real deployment would.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { operations, signingHeaders } from '../generated/operations.ts';

const allowedMethods = [...new Set(Object.values(operations).map((facts) => facts.method.toUpperCase()))];
// The signing headers, and the header of each token scheme (the fiat gateway's Authorization).
const tokenHeaders = Object.values(operations).flatMap((facts) =>
  'tokenHeader' in facts ? [facts.tokenHeader.toLowerCase()] : [],
);
const allowedHeaders = [
  ...new Set([
    'content-type',
    ...Object.values(signingHeaders).map((name) => name.toLowerCase()),
    ...tokenHeaders,
  ]),
];

/** Handles CORS for one request; true when it was a preflight and has been answered. */
export function answerCors(
  origins: readonly string[],
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  const origin = request.headers.origin;
  if (!origin || !origins.includes(origin)) return false;
  response.setHeader('access-control-allow-origin', origin);
  response.setHeader('vary', 'Origin');
  if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return false;
  request.resume();
  response
    .writeHead(204, {
      'access-control-allow-methods': allowedMethods.join(', '),
      'access-control-allow-headers': allowedHeaders.join(', '),
      'access-control-max-age': '600',
      'content-length': '0',
    })
    .end();
  return true;
}
