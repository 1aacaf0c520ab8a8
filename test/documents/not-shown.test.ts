// Every "not shown" of the specification is said in the documents, where a reader of the
// operation would look for it, never silently filled in.
import { describe, expect, it } from 'vitest';
import { documents, operationAt } from './documents.ts';

/** Every description under a node, joined, with line breaks folded to spaces. */
function descriptions(node: unknown): string {
  if (Array.isArray(node)) return node.map(descriptions).join(' ');
  if (node === null || typeof node !== 'object') return '';
  return Object.entries(node)
    .map(([key, value]) => (key === 'description' && typeof value === 'string' ? value : descriptions(value)))
    .join(' ')
    .replace(/\s+/g, ' ');
}

const privateInfo = descriptions(documents['private-v4'].info);
const describedAt = (path: string) => descriptions(operationAt('private-v4', 'post', path));

const notShown: [string, () => string, RegExp][] = [
  ['states and transitions of an investment', () => privateInfo, /States of an investment/],
  ['events of the streaming interface', () => privateInfo, /streaming interface's events/],
  ['deprecation policy', () => privateInfo, /deprecation and compatibility policy/i],
  [
    'signature input and nonce rules',
    () => privateInfo,
    /exact input to the signature and the nonce rules are not shown/,
  ],
  ['permission names', () => privateInfo, /permission names: not shown/i],
  ['the complete list of error codes', () => privateInfo, /complete list of codes[^.]*not shown/],
  [
    'the over-limit response',
    () => descriptions(documents['private-v4'].components.responses.TooManyRequests),
    /not shown/,
  ],
  ['main balance rate limit', () => describedAt('/api/v4/main-account/balance'), /Rate limit: not shown/],
  ['invest rate limit', () => describedAt('/api/v4/main-account/smart/investment'), /Rate limit: not shown/],
  [
    'invest error cases',
    () => describedAt('/api/v4/main-account/smart/investment'),
    /Error cases are not shown/,
  ],
  [
    'fields of the created investment',
    () => describedAt('/api/v4/main-account/smart/investment'),
    /beyond its identifier: not shown/,
  ],
  [
    'history ordering',
    () => describedAt('/api/v4/main-account/smart-flex/investments/history'),
    /Ordering of returned records/,
  ],
  [
    'maximum limit and actionTypes size',
    () => describedAt('/api/v4/main-account/smart-flex/investments/history'),
    /maximum value of `limit` and the maximum size of `actionTypes`: not shown/,
  ],
  [
    'whether ticker is required',
    () => describedAt('/api/v4/collateral-account/balance-summary'),
    /Whether `ticker` is required[^.]*not shown/,
  ],
  [
    'which cancel-all fields are required',
    () => describedAt('/api/v4/order/cancel/all'),
    /Which of `market` and `type` are required is not shown/,
  ],
  [
    'the cancel-all response body',
    () => describedAt('/api/v4/order/cancel/all'),
    /response body is not shown/,
  ],
];

describe('not shown in the specification', () => {
  it.each(notShown)('%s is said', (_, text, pattern) => {
    expect(text()).toMatch(pattern);
  });

  it('every upstream fact is labelled as observed upstream', () => {
    // The statuses the specification does not give are all upstream additions.
    for (const status of ['401', '403', '422', '429', '503']) {
      for (const [path, item] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(
        documents['private-v4'].paths,
      )) {
        const response = item.post?.responses[status] as { description: string } | undefined;
        if (response) expect(response.description, `${path} ${status}`).toMatch(/observed upstream/i);
      }
    }
  });
});
