// The facts the live service is known for (./upstream.ts) are in the documents, labelled as
// observed upstream where the specification does not state them; where the two disagree, the
// specification's form stays and the description says what upstream does.
import { describe, expect, it } from 'vitest';
import { operations, servers } from '../../generated/operations.ts';
import {
  at,
  documents,
  entries,
  list,
  operationAt,
  record,
  requestSchema,
  text as textAt,
} from './documents.ts';
import { notCachedPaths } from './specification.ts';
import {
  cancelMessages,
  historyMessages,
  internalError,
  investErrors,
  investOperationId,
  mainBalanceValidation,
  notCachedByDocument,
  notCachedUpstream,
  origins,
  partnerRefusal,
  positionSides,
  writingPaths,
} from './upstream.ts';

const post = (path: string) => operationAt('private-v4', 'post', path);
/** The description of a node, with its line breaks folded, as a reader sees it. */
const described = (node: unknown) => textAt(node, 'description').replace(/\s+/g, ' ');
const invest = post('/api/v4/main-account/smart/investment');
/** The named examples of one status of an operation, by name. */
const examplesAt = (operation: unknown, status: string): Record<string, unknown> =>
  Object.fromEntries(entries(operation, 'responses', status, 'content', 'application/json', 'examples'));

describe('observed upstream', () => {
  it('invest is the fixed-lending operation, named without flex', () => {
    expect(invest.operationId).toBe(investOperationId);
    expect(`${textAt(invest, 'summary')} ${list(invest, 'tags').join(' ')}`).not.toMatch(/flex/i);
    expect(described(invest)).toMatch(/observed upstream[^.]*fixed crypto lending/i);
  });

  it.each(Object.entries(investErrors))('invest names the error case %s', (name, expected) => {
    const example = examplesAt(invest, String(expected.status))[name];
    expect(example, name).toBeDefined();
    expect(at(example, 'value')).toMatchObject({ code: expected.code, message: expected.message });
    expect(Object.keys(record(example, 'value', 'errors'))).toEqual([expected.field]);
    if (expected.says) expect(at(example, 'value', 'errors', expected.field, 0)).toBe(expected.says);
    else expect(at(example, 'summary')).toMatch(/not published/);
    expect(at(example, 'summary')).toMatch(/observed upstream/i);
  });

  it('invest has no error example the operator does not publish', () => {
    const named = [...Object.keys(examplesAt(invest, '400')), ...Object.keys(examplesAt(invest, '422'))];
    expect(named.sort()).toEqual(Object.keys(investErrors).sort());
  });

  it('partner-only operations say how a key without partner access is refused', () => {
    for (const facts of Object.values(operations).filter((candidate) => candidate.partnerOnly)) {
      const refusal = examplesAt(post(facts.path), '403').noPartnerAccess;
      expect(at(refusal, 'value'), facts.operationId).toEqual({ code: 0, message: partnerRefusal });
    }
  });

  it('the main balance documents its 422 validation failure, and says upstream shows zeros', () => {
    const balance = post('/api/v4/main-account/balance');
    expect(at(examplesAt(balance, '422').invalidTicker, 'value')).toEqual({
      code: mainBalanceValidation.code,
      message: mainBalanceValidation.message,
      errors: mainBalanceValidation.errors,
    });
    expect(described(balance)).toMatch(/zero balance[^.]*omitted/);
    expect(described(balance)).toMatch(/operator's own examples list zero balances/);
  });

  it.each(Object.entries(historyMessages))(
    'history example %s has the operator message',
    (name, [field, says]) => {
      const example = examplesAt(post('/api/v4/main-account/smart-flex/investments/history'), '400')[name];
      expect(at(example, 'value', 'errors')).toEqual({ [field]: [says] });
    },
  );

  it('cancel all takes positionSide and answers an empty array, with the published messages', () => {
    const cancel = post('/api/v4/order/cancel/all');
    const schema = requestSchema('/api/v4/order/cancel/all');
    expect(at(schema, 'properties', 'positionSide', 'enum')).toEqual(positionSides);
    expect(described(at(schema, 'properties', 'positionSide'))).toMatch(/observed upstream[^.]*perpetual/i);
    expect(list(schema, 'required')).not.toContain('positionSide');
    expect(at(cancel, 'responses', '200', 'content', 'application/json', 'schema', 'maxItems')).toBe(0);
    for (const [name, [code, field, messages]] of Object.entries(cancelMessages)) {
      const example = entries(cancel, 'responses')
        .flatMap(([status]) => Object.entries(examplesAt(cancel, status)))
        .find(([candidate]) => candidate === name)?.[1];
      expect(at(example, 'value'), name).toMatchObject({ code, errors: { [field]: messages } });
    }
    // The operator does not tie a code to a status: the document says so rather than claiming it.
    expect(described(cancel)).toMatch(/without tying a code/);
    expect(described(at(cancel, 'responses', '400'))).not.toMatch(/status observed upstream/);
  });

  it('the response caching facts join the specification and the operator', () => {
    for (const facts of Object.values(operations)) {
      const expected =
        notCachedPaths.includes(facts.path) ||
        notCachedUpstream.includes(facts.path) ||
        notCachedByDocument.includes(facts.path);
      expect(facts.noCache, facts.operationId).toBe(expected);
    }
    // Where the operator does not say, the document says it chose, rather than claiming a fact.
    for (const path of notCachedByDocument) {
      expect(described(post(path)), path).toMatch(/Caching: not shown[^.]*not to be cached/);
    }
    for (const path of notCachedUpstream.filter((candidate) => !notCachedPaths.includes(candidate))) {
      const operation = Object.values(operations).find((facts) => facts.path === path);
      const operationDescription = described(
        operationAt(operation?.api ?? '', operation?.method ?? '', path),
      );
      expect(operationDescription, path).toMatch(
        /observed upstream[^.]*(not cached)|not cached \(observed upstream\)/is,
      );
    }
  });

  it('every operation says whether it writes, and the generated facts carry it', () => {
    for (const facts of Object.values(operations)) {
      expect(operationAt(facts.api, facts.method, facts.path)['x-writes'], facts.operationId).toBe(
        facts.writes,
      );
      expect(facts.writes, facts.operationId).toBe(writingPaths.includes(facts.path));
    }
  });

  it('the nonce is a string of digits or an integer, each form labelled', () => {
    for (const facts of Object.values(operations).filter((candidate) => candidate.auth === 'signed')) {
      const nonce = record(requestSchema(facts.path), 'properties', 'nonce');
      const [string, integer] = list(nonce, 'anyOf');
      expect(string).toMatchObject({ type: 'string', pattern: '^[0-9]+$' });
      expect(described(string)).toMatch(/own rules[^.]*not show/);
      expect(integer).toMatchObject({ type: 'integer', minimum: 0 });
      expect(described(integer)).toMatch(/observed upstream/i);
      expect(described(nonce)).toMatch(/specification types it as a string/);
    }
  });

  it('public failures: the gateway answers 429 and 503 without JSON, 500 with {"error":[…]}', () => {
    for (const api of Object.keys(documents)) {
      for (const facts of Object.values(operations).filter((candidate) => candidate.api === api)) {
        const responses = record(operationAt(api, facts.method, facts.path), 'responses');
        expect(at(examplesAt({ responses }, '500').internalError, 'value')).toEqual(internalError);
        expect(at(responses, '503', 'content'), facts.operationId).toBeUndefined();
        expect(described(at(responses, '503'))).toMatch(/not JSON/);
        if (api === 'public-v4') expect(at(responses, '429', 'content'), facts.operationId).toBeUndefined();
      }
    }
    const publicError = record(documents['public-v4'], 'components', 'schemas', 'PublicError');
    // The specification wins for the object: params stays, the description says upstream has none.
    expect(list(publicError, 'required')).toContain('params');
    expect(described(at(publicError, 'properties', 'params'))).toMatch(/observed upstream[^.]*no `params`/i);
  });

  it("names the operator's origins, labelled, so a server works by name", () => {
    for (const api of Object.keys(documents)) {
      const byName = Object.fromEntries(
        servers[api as keyof typeof servers].map((server) => [
          server.name,
          Object.values(server.variables)[0],
        ]),
      );
      expect(byName).toEqual(origins);
      for (const server of list(documents[api], 'servers')) {
        const [, variable] = entries(server, 'variables')[0] ?? [];
        expect(described(variable)).toMatch(/observed upstream/);
      }
    }
  });

  it('invents no licence', () => {
    for (const document of Object.values(documents)) expect(at(document, 'info', 'license')).toBeUndefined();
  });
});
