import { describe, expect, it } from 'vitest';
import { backoff, operations, servers, signingHeaders } from '../../generated/operations.ts';
import { isRecord } from '../../model/json.ts';
import { documentModel } from '../../model/model.ts';
import { gatewayTokenSource } from '../../model/token-source.ts';
import { collectClientRoutes, collectOperationFacts } from '../../scripts/operation-facts.ts';
import { apiDocuments, at, documents, list, operationAt, record, text } from './documents.ts';
import {
  notCachedPaths,
  partnerOnlyPaths,
  specifiedOperations,
  specifiedRateLimits,
} from './specification.ts';
import { partnerOnlyUpstream, upstreamOperations } from './upstream.ts';

describe('operations', () => {
  it.each(specifiedOperations)('$method $path is in $api', ({ api, method, path }) => {
    const operation = operationAt(api, method, path);
    expect(operation, `${method} ${path}`).toBeDefined();
    expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it("holds the specification's operations and the operator's, and no other", () => {
    const found = Object.values(operations).map((facts) => `${facts.api} ${facts.method} ${facts.path}`);
    const named = [...specifiedOperations, ...upstreamOperations].map(
      ({ api, method, path }) => `${api} ${method} ${path}`,
    );
    expect(found.sort()).toEqual(named.sort());
  });

  it('signs every private operation with all three headers together, and no public one', () => {
    for (const { api, method, path } of specifiedOperations) {
      const operation = operationAt(api, method, path);
      const security = operation.security ?? at(documents[api], 'security');
      if (api === 'public-v4') expect(security).toEqual([]);
      else expect(security).toEqual([{ ApiKey: [], Payload: [], Signature: [] }]);
    }
    expect(signingHeaders).toEqual({
      ApiKey: 'X-TXC-APIKEY',
      Payload: 'X-TXC-PAYLOAD',
      Signature: 'X-TXC-SIGNATURE',
    });
  });

  it('lets a mock check the format of each signing header', () => {
    const parameters = list(operationAt('private-v4', 'post', '/api/v4/main-account/balance'), 'parameters');
    const pattern = (name: string) =>
      new RegExp(
        text(
          parameters.find((parameter) => at(parameter, 'name') === name),
          'schema',
          'pattern',
        ),
      );
    expect(pattern('X-TXC-SIGNATURE').test('a'.repeat(128))).toBe(true);
    expect(pattern('X-TXC-SIGNATURE').test('A'.repeat(128))).toBe(false);
    expect(pattern('X-TXC-SIGNATURE').test('a'.repeat(127))).toBe(false);
    expect(pattern('X-TXC-PAYLOAD').test(Buffer.from('{"a":1}').toString('base64'))).toBe(true);
    expect(pattern('X-TXC-PAYLOAD').test('not base64!')).toBe(false);
    expect(pattern('X-TXC-APIKEY').test('key')).toBe(true);
    expect(pattern('X-TXC-APIKEY').test('')).toBe(false);
  });
});

describe('operation facts', () => {
  it.each(specifiedOperations)('$path states the rate limit of the limits table', ({ api, method, path }) => {
    const rateLimit = record(operationAt(api, method, path), 'x-rate-limit');
    expect(Object.keys(rateLimit).sort()).toEqual(['description', 'requests', 'source', 'windowSeconds']);
    const specified = specifiedRateLimits[path];
    if (specified === null) {
      // Not shown in the specification: the document must say so and name its upstream source.
      expect(rateLimit.source).toBe('observed-upstream');
      expect(rateLimit.description).toMatch(/not shown/i);
      expect(operationAt(api, method, path).description).toMatch(/rate limit: not shown/i);
    } else {
      expect(rateLimit).toMatchObject({ requests: specified, windowSeconds: 10, source: 'specification' });
    }
  });

  it('marks the partner-only, not-cached and retry-unsafe operations', () => {
    for (const facts of Object.values(operations)) {
      // The specification's list, and the operator's own beside it.
      expect(facts.partnerOnly, facts.operationId).toBe(
        partnerOnlyPaths.includes(facts.path) || partnerOnlyUpstream.includes(facts.path),
      );
      // The specification's list is a floor: the operator adds some (test/documents/upstream.test.ts).
      if (notCachedPaths.includes(facts.path)) expect(facts.noCache, facts.operationId).toBe(true);
    }
    const invest = Object.values(operations).find((facts) => facts.path.endsWith('/smart/investment'));
    expect(invest?.retrySafe).toBe(false);
  });

  it('generated/operations.ts is the table the documents produce', () => {
    const fromDocuments = collectOperationFacts(apiDocuments);
    expect(Object.values(operations)).toEqual(fromDocuments);
    for (const facts of fromDocuments) {
      const operation = operationAt(facts.api, facts.method, facts.path);
      const statuses = Object.keys(record(operation, 'responses')).filter((status) => status !== 'default');
      expect(facts.statuses).toEqual(statuses.map(Number));
      // A private operation is signed unless its own security names the fiat gateway's token.
      const own = at(operation, 'security');
      const gateway =
        Array.isArray(own) &&
        own.some((requirement) => isRecord(requirement) && 'GatewayToken' in requirement);
      expect(facts.auth).toBe(facts.api === 'public-v4' ? 'none' : gateway ? 'gateway-token' : 'signed');
    }
  });

  it("names a token call's token source as the links give it, and none on another call", () => {
    const model = documentModel();
    const tokenCalls = Object.values(operations).filter((facts) => facts.auth === 'gateway-token');
    expect(tokenCalls.length).toBeGreaterThan(0);
    for (const facts of Object.values(operations)) {
      const source =
        facts.auth === 'gateway-token' ? gatewayTokenSource(model, facts.operationId) : undefined;
      if (facts.auth === 'gateway-token') expect(source, facts.operationId).toBeDefined();
      expect('tokenSource' in facts ? facts.tokenSource : undefined, facts.operationId).toEqual(source);
    }
  });

  it("reads a token source from the documents given, not from generated/'s table", () => {
    // Neither operation is in generated/: a new pair is found on its first generation.
    const rateLimit = { requests: 1, windowSeconds: 1, source: 'specification', description: '' };
    const link = {
      operationId: 'useFixtureToken',
      'x-stateful': { gatewayToken: '$response.body#/result/jwt' },
    };
    const document = {
      components: { securitySchemes: { GatewayToken: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
      paths: {
        '/issue': {
          post: {
            operationId: 'issueFixtureToken',
            'x-rate-limit': rateLimit,
            'x-retry-safe': false,
            responses: { '201': { description: 'Issued.', links: { use: link } } },
          },
        },
        '/use': {
          post: {
            operationId: 'useFixtureToken',
            security: [{ GatewayToken: [] }],
            'x-rate-limit': rateLimit,
            'x-retry-safe': false,
            responses: { '200': { description: 'Used.' } },
          },
        },
      },
    };
    const facts = collectOperationFacts([
      { name: 'fixture', file: 'fixture.yaml', document, dereferenced: document, files: [] },
    ]);
    const use = facts.find((operation) => operation.operationId === 'useFixtureToken');
    expect(use?.tokenSource).toEqual({ operationId: 'issueFixtureToken', status: 201, at: '/result/jwt' });
    expect(facts.find((operation) => operation.operationId === 'issueFixtureToken')).not.toHaveProperty(
      'tokenSource',
    );
    expect(collectClientRoutes(facts)['post /use']?.tokenSource).toEqual({
      operationId: 'issueFixtureToken',
      field: 'result.jwt',
    });
  });

  it('gives a field the x-cli-flag of the component it $refs, and refuses one not in kebab case', () => {
    const withFlag = (flag: unknown) => {
      const component = { type: 'string', format: 'uuid', 'x-cli-flag': flag };
      const schema = { type: 'object', properties: { plan: { ...component, description: 'A filter.' } } };
      const document = {
        paths: {
          '/history': {
            post: {
              operationId: 'listHistory',
              'x-rate-limit': { requests: 1, windowSeconds: 1, source: 'specification', description: '' },
              'x-retry-safe': true,
              requestBody: { content: { 'application/json': { schema } } },
              responses: { '200': { description: 'Listed.' } },
            },
          },
        },
      };
      const [facts] = collectOperationFacts([
        { name: 'fixture', file: 'fixture.yaml', document, dereferenced: document, files: [] },
      ]);
      return facts?.body?.properties.plan?.cliFlag;
    };
    expect(withFlag('plan-id')).toBe('plan-id');
    for (const bad of ['--plan-id', 'planId', 'plan_id', '', 7]) {
      expect(() => withFlag(bad), String(bad)).toThrow(/x-cli-flag must be a flag name/);
    }
  });

  it('keeps x-retry-safe: true and false, and the object form as its key (repeat only with it)', () => {
    const withRetrySafe = (retrySafe: unknown) => {
      const document = {
        paths: {
          '/orders': {
            post: {
              operationId: 'placeOrder',
              'x-rate-limit': { requests: 1, windowSeconds: 1, source: 'specification', description: '' },
              'x-retry-safe': retrySafe,
              responses: { '200': { description: 'Placed.' } },
            },
          },
        },
      };
      const [facts] = collectOperationFacts([
        { name: 'fixture', file: 'fixture.yaml', document, dereferenced: document, files: [] },
      ]);
      return facts?.retrySafe;
    };
    expect(withRetrySafe(true)).toBe(true);
    expect(withRetrySafe(false)).toBe(false);
    expect(
      withRetrySafe({ idempotencyKey: 'clientOrderId', source: 'observed-upstream', description: '' }),
    ).toEqual({ idempotencyKey: 'clientOrderId', source: 'observed-upstream' });
    expect(() => withRetrySafe({ idempotencyKey: '', source: 'observed-upstream' })).toThrow(/x-retry-safe/);
  });

  it('every 429 carries the backoff advice the client retries with, as an upstream fact', () => {
    for (const { api, method, path } of specifiedOperations) {
      const tooMany = at(operationAt(api, method, path), 'responses', '429');
      expect(at(tooMany, 'x-backoff'), `${path} 429`).toEqual({
        initialSeconds: 1,
        maxSeconds: 30,
        source: 'observed-upstream',
      });
      expect(at(tooMany, 'description')).toMatch(/observed upstream/i);
    }
    expect(backoff).toEqual({ initialSeconds: 1, maxSeconds: 30 });
  });

  it('names both deployments in each document', () => {
    for (const api of Object.keys(documents)) {
      expect(servers[api as keyof typeof servers].map((server) => server.url)).toEqual([
        '{base_url}',
        '{base_url_eu}',
      ]);
    }
  });
});
