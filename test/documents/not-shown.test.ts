// Every "not shown" of the specification is said in the documents, where a reader of the
// operation would look for it, never silently filled in.
import { describe, expect, it } from 'vitest';
import { isRecord, type JsonRecord } from '../../model/json.ts';
import { documentModel } from '../../model/model.ts';
import { at, documents, entries, operationAt } from './documents.ts';

/** Every description under a node, joined, with line breaks folded to spaces. */
function descriptions(node: unknown): string {
  if (Array.isArray(node)) return node.map(descriptions).join(' ');
  if (node === null || typeof node !== 'object') return '';
  return Object.entries(node)
    .map(([key, value]) => (key === 'description' && typeof value === 'string' ? value : descriptions(value)))
    .join(' ')
    .replace(/\s+/g, ' ');
}

const privateInfo = descriptions(at(documents['private-v4'], 'info'));
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
    () => descriptions(at(documents['private-v4'], 'components', 'responses', 'TooManyRequests')),
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
      for (const [path, item] of entries(documents['private-v4'], 'paths')) {
        const response = at(item, 'post', 'responses', status);
        if (response) expect(at(response, 'description'), `${path} ${status}`).toMatch(/observed upstream/i);
      }
    }
  });
});

// Where the specification says "not shown" and no upstream fact fills the gap, the schema stays
// permissive: each value below is one a stricter schema would refuse, and the model's own
// validators must accept it. Tightening one of these schemas needs a fact to back it, and a change
// here that says so.
describe('not shown in the specification: the schemas stay permissive', () => {
  const model = documentModel();
  const accepts = (schema: JsonRecord | undefined, value: unknown) => {
    if (!schema) throw new Error('no schema');
    const validate = model.validator(schema);
    return { valid: validate(value), errors: validate.errors };
  };
  const requestOf = (operationId: string, fields: Record<string, unknown>) => {
    const example = model.operation(operationId).requestExamples[0]?.value;
    if (!isRecord(example)) throw new Error(`${operationId} has no request example`);
    return { request: example.request, nonce: example.nonce, ...fields };
  };
  const requestSchemaOf = (operationId: string) => model.operation(operationId).requestSchema;
  const actionTypes = model.schemaEnum('private-v4', 'ActionType');

  const permissive: [string, () => { valid: boolean; errors: unknown }][] = [
    [
      'the maximum value of the history limit: a very large limit is valid',
      () =>
        accepts(
          requestSchemaOf('listFlexInvestmentHistory'),
          requestOf('listFlexInvestmentHistory', { limit: 2 ** 31 }),
        ),
    ],
    [
      'the maximum size of actionTypes: ten thousand action types are valid',
      () =>
        accepts(
          requestSchemaOf('listFlexInvestmentHistory'),
          requestOf('listFlexInvestmentHistory', {
            actionTypes: Array.from(
              { length: 10_000 },
              (_, index) => actionTypes[index % actionTypes.length],
            ),
          }),
        ),
    ],
    [
      'the fields of the created investment beyond its identifier: more fields are valid',
      () => {
        const result = model.responseExample('createFixedInvestment', 'created');
        return accepts(model.operation('createFixedInvestment').responses.get(result.status)?.schema, {
          ...(isRecord(result.value) ? result.value : {}),
          status: 'active',
          createdAt: 1700000000,
        });
      },
    ],
    [
      'the complete list of error codes: a code never shown is a valid private error',
      () =>
        accepts(model.component('private-v4', 'PrivateError'), { code: 987654, message: 'Something else.' }),
    ],
    [
      'the permission names: a permission error with only a message is valid',
      () => accepts(model.component('private-v4', 'PermissionError'), { message: 'Some other wording.' }),
    ],
    [
      'whether the collateral ticker is required: a body without it is valid',
      () =>
        accepts(requestSchemaOf('getCollateralBalanceSummary'), requestOf('getCollateralBalanceSummary', {})),
    ],
    [
      'which cancel-all fields are required: a body with neither market nor type is valid',
      () => accepts(requestSchemaOf('cancelAllOrders'), requestOf('cancelAllOrders', {})),
    ],
  ];

  it.each(permissive)('%s', (_, check) => {
    const { valid, errors } = check();
    expect(errors).toBe(null);
    expect(valid).toBe(true);
  });

  it('the check refuses what the schemas do rule out, so it can fail', () => {
    const bad = accepts(
      requestSchemaOf('listFlexInvestmentHistory'),
      requestOf('listFlexInvestmentHistory', { limit: 'ten' }),
    );
    expect(bad.valid).toBe(false);
  });
});
