// The facts the live service is known for (./upstream.ts) are in the documents, labelled as
// observed upstream where the specification does not state them; where the two disagree, the
// specification's form stays and the description says what upstream does.
import { describe, expect, it } from 'vitest';
import { operations, servers } from '../../generated/operations.ts';
import { documents, operationAt, requestSchema } from './documents.ts';
import { notCachedPaths } from './specification.ts';
import {
  cancelMessages,
  historyMessages,
  internalError,
  investErrors,
  investOperationId,
  mainBalanceValidation,
  notCachedUpstream,
  origins,
  partnerRefusal,
  positionSides,
  writingPaths,
} from './upstream.ts';

const post = (path: string) => operationAt('private-v4', 'post', path);
/** A description with its line breaks folded, as a reader sees it. */
const text = (description: string) => description.replace(/\s+/g, ' ');
const invest = post('/api/v4/main-account/smart/investment');
// biome-ignore lint/suspicious/noExplicitAny: parsed YAML
type Json = any;
const examplesAt = (operation: Json, status: string): Record<string, { value: Json; summary: string }> =>
  operation.responses[status]?.content?.['application/json']?.examples ?? {};

describe('observed upstream', () => {
  it('invest is the fixed-lending operation, named without flex', () => {
    expect(invest.operationId).toBe(investOperationId);
    expect(`${invest.summary} ${invest.tags.join(' ')}`).not.toMatch(/flex/i);
    expect(text(invest.description)).toMatch(/observed upstream[^.]*fixed crypto lending/i);
  });

  it.each(Object.entries(investErrors))('invest names the error case %s', (name, expected) => {
    const example = examplesAt(invest, String(expected.status))[name];
    expect(example, name).toBeDefined();
    expect(example?.value).toMatchObject({ code: expected.code, message: expected.message });
    expect(Object.keys(example?.value.errors)).toEqual([expected.field]);
    if (expected.says) expect(example?.value.errors[expected.field][0]).toBe(expected.says);
    else expect(example?.summary).toMatch(/not published/);
    expect(example?.summary).toMatch(/observed upstream/i);
  });

  it('invest has no error example the operator does not publish', () => {
    const named = [...Object.keys(examplesAt(invest, '400')), ...Object.keys(examplesAt(invest, '422'))];
    expect(named.sort()).toEqual(Object.keys(investErrors).sort());
  });

  it('partner-only operations say how a key without partner access is refused', () => {
    for (const facts of Object.values(operations).filter((candidate) => candidate.partnerOnly)) {
      const refusal = examplesAt(post(facts.path), '403').noPartnerAccess;
      expect(refusal?.value, facts.operationId).toEqual({ code: 0, message: partnerRefusal });
    }
  });

  it('the main balance documents its 422 validation failure, and says upstream shows zeros', () => {
    const balance = post('/api/v4/main-account/balance');
    expect(examplesAt(balance, '422').invalidTicker?.value).toEqual({
      code: mainBalanceValidation.code,
      message: mainBalanceValidation.message,
      errors: mainBalanceValidation.errors,
    });
    expect(text(balance.description)).toMatch(/zero balance[^.]*omitted/);
    expect(text(balance.description)).toMatch(/operator's own examples list zero balances/);
  });

  it.each(Object.entries(historyMessages))(
    'history example %s has the operator message',
    (name, [field, says]) => {
      const example = examplesAt(post('/api/v4/main-account/smart-flex/investments/history'), '400')[name];
      expect(example?.value.errors).toEqual({ [field]: [says] });
    },
  );

  it('cancel all takes positionSide and answers an empty array, with the published messages', () => {
    const cancel = post('/api/v4/order/cancel/all');
    const schema = requestSchema('/api/v4/order/cancel/all');
    expect(schema.properties.positionSide.enum).toEqual(positionSides);
    expect(schema.properties.positionSide.description).toMatch(/observed upstream[^.]*perpetual/i);
    expect(schema.required).not.toContain('positionSide');
    expect(cancel.responses['200'].content['application/json'].schema.maxItems).toBe(0);
    for (const [name, [code, field, messages]] of Object.entries(cancelMessages)) {
      const example = [...Object.values(cancel.responses)]
        .flatMap((response: Json) => Object.entries(response.content?.['application/json']?.examples ?? {}))
        .find(([candidate]) => candidate === name)?.[1] as { value: Json } | undefined;
      expect(example?.value, name).toMatchObject({ code, errors: { [field]: messages } });
    }
    // The operator does not tie a code to a status: the document says so rather than claiming it.
    expect(text(cancel.description)).toMatch(/without tying a code/);
    expect(cancel.responses['400'].description).not.toMatch(/status observed upstream/);
  });

  it('the response caching facts join the specification and the operator', () => {
    for (const facts of Object.values(operations)) {
      const expected = notCachedPaths.includes(facts.path) || notCachedUpstream.includes(facts.path);
      expect(facts.noCache, facts.operationId).toBe(expected);
    }
    for (const path of notCachedUpstream.filter((candidate) => !notCachedPaths.includes(candidate))) {
      const operation = Object.values(operations).find((facts) => facts.path === path);
      const description = operationAt(operation?.api ?? '', operation?.method ?? '', path).description;
      expect(text(description), path).toMatch(
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
      const nonce = requestSchema(facts.path).properties.nonce;
      const [string, integer] = nonce.anyOf;
      expect(string).toMatchObject({ type: 'string', pattern: '^[0-9]+$' });
      expect(string.description).toMatch(/own rules[^.]*not show/);
      expect(integer).toMatchObject({ type: 'integer', minimum: 0 });
      expect(integer.description).toMatch(/observed upstream/i);
      expect(nonce.description).toMatch(/specification types it as a string/);
    }
  });

  it('public failures: the gateway answers 429 and 503 without JSON, 500 with {"error":[…]}', () => {
    for (const api of Object.keys(documents)) {
      for (const facts of Object.values(operations).filter((candidate) => candidate.api === api)) {
        const responses = operationAt(api, facts.method, facts.path).responses;
        expect(responses['500'].content['application/json'].examples.internalError.value).toEqual(
          internalError,
        );
        expect(responses['503'].content, facts.operationId).toBeUndefined();
        expect(responses['503'].description).toMatch(/not JSON/);
        if (api === 'public-v4') expect(responses['429'].content, facts.operationId).toBeUndefined();
      }
    }
    const publicError = documents['public-v4'].components.schemas.PublicError;
    // The specification wins for the object: params stays, the description says upstream has none.
    expect(publicError.required).toContain('params');
    expect(publicError.properties.params.description).toMatch(/observed upstream[^.]*no `params`/i);
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
      for (const server of documents[api].servers) {
        const variable = Object.values<{ description: string }>(server.variables)[0];
        expect(variable?.description).toMatch(/observed upstream/);
      }
    }
  });

  it('invents no licence', () => {
    for (const document of Object.values(documents)) expect(document.info.license).toBeUndefined();
  });
});
