// The signed body is written from its parts (the opening made once per path, the nonce, the
// caller's fields): for any caller's fields it is exactly what JSON.stringify makes of the whole
// object, so a server that re-serializes the body to check it (the sandbox does) accepts it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signedBodyFields } from '../../generated/operations.ts';
import { createRequestSigner } from '../../src/signing.ts';
import { mainBalancePath } from './paths.ts';

const [requestField, nonceField, nonceWindowField] = signedBodyFields;

/** Field names, including ones named like array indexes, __proto__ and the signed fields. */
const names = fc.oneof(
  fc.string(),
  fc.constantFrom('0', '7', '10', '__proto__', 'constructor', ...signedBodyFields),
);

describe('the signed body', () => {
  it.each([false, true])('is JSON.stringify of the whole object (nonceWindow %s)', (nonceWindow) => {
    const signer = createRequestSigner({ apiKey: `body-key-${nonceWindow}`, apiSecret: 's', nonceWindow });
    fc.assert(
      fc.property(fc.dictionary(names, fc.jsonValue(), { maxKeys: 6 }), (fields) => {
        // The engine hands the signer a null-prototype copy of the caller's plain data.
        const own: Record<string, unknown> = Object.create(null);
        for (const [name, value] of Object.entries(fields)) own[name] = value;
        const signed = signer.sign(mainBalancePath, own, undefined, undefined);
        if (signed instanceof Promise) throw new Error('the Node signer answers at once');
        const body = JSON.parse(signed.body) as Record<string, unknown>;
        const expected: Record<string, unknown> = Object.create(null);
        expected[requestField] = mainBalancePath;
        expected[nonceField] = body[nonceField];
        if (nonceWindow) expected[nonceWindowField] = true;
        for (const name in own) {
          if (!(signedBodyFields as readonly string[]).includes(name)) expected[name] = own[name];
        }
        expect(signed.body).toBe(JSON.stringify(expected));
        expect(String(body[nonceField])).toMatch(/^\d+$/);
      }),
    );
  });
});
