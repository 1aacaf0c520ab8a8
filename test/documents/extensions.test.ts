// The vendor extensions the sandbox reads its wording and answers from hold together with the
// rest of the document: each names what exists, and repeats no figure differently.
import { describe, expect, it } from 'vitest';
import { operations } from '../../generated/operations.ts';
import { documentModel } from '../../model/model.ts';
import { at, documents, list, operationAt, record, text } from './documents.ts';

const model = documentModel();
const signed = Object.values(operations).filter((facts) => facts.auth === 'signed');

describe('vendor extensions the sandbox reads', () => {
  it.each(signed.map((facts) => [facts.operationId, facts] as const))(
    '%s names a validation example of its own that has errors',
    (operationId, facts) => {
      const name = text(operationAt(facts.api, facts.method, facts.path), 'x-validation-example');
      const example = model.responseExample(operationId, name);
      expect(example.status).toBeGreaterThanOrEqual(400);
      // Its errors name fields of the operation's body, each with at least one message.
      const errors = record(example.value, 'errors');
      const fields = Object.keys(facts.body.properties);
      expect(Object.keys(errors).length, name).toBeGreaterThan(0);
      for (const field of Object.keys(errors)) {
        expect(fields, `${name}: ${field}`).toContain(field);
        const messages = list(errors, field);
        expect(messages.length, `${name}: ${field}`).toBeGreaterThan(0);
        for (const message of messages) expect(message, `${name}: ${field}`).toMatch(/\S/);
      }
    },
  );

  it("invest's smallest amount is the one its amountTooSmall example states", () => {
    const minimum = text(
      model.operation('createFixedInvestment').requestSchema,
      'properties',
      'amount',
      'x-minimum-amount',
    );
    const message = text(
      model.responseExample('createFixedInvestment', 'amountTooSmall').value,
      'errors',
      'amount',
      0,
    );
    expect(message).toContain(` ${minimum}.`);
  });

  it('the invalid payload answer is a private error of a 4xx status', () => {
    const refusals = record(documents['private-v4'], 'components', 'x-refusals');
    const status = at(refusals, 'invalidPayload', 'status');
    expect(typeof status === 'number' && status >= 400 && status < 500, String(status)).toBe(true);
    const validate = model.validator(model.component('private-v4', 'PrivateError'));
    expect(validate(at(refusals, 'invalidPayload', 'body'))).toBe(true);
    for (const missing of ['nonce', 'payload', 'request'])
      expect(text(refusals, 'notProvided', missing)).not.toBe('');
  });

  it('every validation template fills only {field}, {words} and {limit}', () => {
    const messages = JSON.stringify(record(documents['private-v4'], 'components', 'x-validation-messages'));
    const placeholders = new Set([...messages.matchAll(/\{([a-zA-Z]+)\}/g)].map((match) => match[1]));
    expect([...placeholders].sort()).toEqual(['field', 'limit', 'words']);
  });
});
