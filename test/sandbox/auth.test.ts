import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OperationId, signingHeaders } from '../../generated/operations.ts';
import { expectedSignature } from '../../sandbox/auth.ts';
import { projectDocuments } from '../../sandbox/document.ts';
import { documented } from '../../sandbox/errors.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import {
  call,
  defaultFixture,
  disabledKey,
  documentOf,
  nextNonce,
  operations,
  ordinaryKey,
  partnerKey,
  refusalOf,
  sign,
  strictSandbox,
} from './helpers.ts';

const fixture = defaultFixture();
const partner = partnerKey(fixture);
const ordinary = ordinaryKey(fixture);
const refusals = projectDocuments().signingRefusals('private-v4');
const plan = fixture.plans.find((p) => p.status === 'active' && p.currency === 'USDT');

const suite = strictSandbox();

const balance = 'getMainBalance' satisfies OperationId;
/** The documents' answers (status and body) that the sandbox must give. */
const unauthorized = documented(documentOf(balance), 'unauthorized');
const tooMany = documented(documentOf(balance), 'tooManyRequests');
const messageOf = (answer: { body?: unknown }) => (answer.body as { message: string }).message;

describe('signing, as the documents describe it', () => {
  it('the tests sign like the known-answer vector, and so does the sandbox', () => {
    const body =
      '{"request":"/api/v4/trade-balance","nonce":1700000000000,"nonceWindow":true,"ticker":"BTC"}';
    const payload = Buffer.from(body).toString('base64');
    expect(payload.startsWith('eyJyZXF1ZXN0IjoiL2FwaS92NC90cmFkZS1iYWxhbmNl')).toBe(true);
    for (const signature of [sign('test-secret', payload), expectedSignature('test-secret', payload)]) {
      expect(signature).toMatch(/^[0-9a-f]{128}$/);
      expect(signature.startsWith('81d08e8576e565ac')).toBe(true);
      expect(signature.endsWith('7703df9b92')).toBe(true);
    }
  });

  it('a correctly signed call is answered', async () => {
    const reply = await call(suite.sandbox.url, partner, balance);
    expect(reply.status).toBe(200);
  });

  it('an unknown key gets 401 code 10', async () => {
    const reply = await call(
      suite.sandbox.url,
      { apiKey: 'not-a-key-of-the-fixture', secret: partner.secret },
      balance,
    );
    expect(reply).toMatchObject(unauthorized);
  });

  it.each([
    ['the API key header', signingHeaders.ApiKey, unauthorized.status, messageOf(unauthorized)],
    ['the payload header', signingHeaders.Payload, unauthorized.status, refusals.notProvided.payload],
    ['the signature header', signingHeaders.Signature, unauthorized.status, messageOf(unauthorized)],
  ])('a call without %s is refused', async (_, header, status, message) => {
    const reply = await call(suite.sandbox.url, partner, balance, { headers: { [header]: undefined } });
    expect(reply.status).toBe(status);
    expect(refusalOf(reply).message).toBe(message);
  });

  it('a signature made with another secret gets 401 code 10', async () => {
    const reply = await call(suite.sandbox.url, partner, balance, { secret: ordinary.secret });
    expect(reply).toMatchObject(unauthorized);
  });

  it('an uppercase hex signature is not accepted', async () => {
    const body = JSON.stringify({ request: operations[balance].path, nonce: nextNonce() });
    const payload = Buffer.from(body).toString('base64');
    const reply = await call(suite.sandbox.url, partner, balance, {
      bodyText: body,
      headers: { [signingHeaders.Signature]: sign(partner.secret, payload).toUpperCase() },
    });
    expect(reply).toMatchObject(unauthorized);
  });

  it('a payload that is not the base64 of the body bytes gets 401, and nothing happens', async () => {
    if (!plan) throw new Error('fixture without an active USDT plan');
    const before = suite.sandbox.state.mainBalance(partner.account, plan.currency);
    const path = operations.createFixedInvestment.path;
    const signed = JSON.stringify({
      request: path,
      nonce: nextNonce(),
      planId: plan.id,
      amount: plan.minAmount,
    });
    const sent = JSON.stringify({
      request: path,
      nonce: nextNonce(),
      planId: plan.id,
      amount: plan.maxAmount,
    });
    const reply = await call(suite.sandbox.url, partner, 'createFixedInvestment', {
      bodyText: sent,
      payload: Buffer.from(signed).toString('base64'),
    });
    expect(reply).toMatchObject(unauthorized);
    expect(suite.sandbox.state.mainBalance(partner.account, plan.currency)).toBe(before);
  });

  it('a payload of the same JSON without its padding is not the exact base64', async () => {
    // 2 bytes of padding make the base64 end in "=="; strip them and sign what remains.
    let body = '';
    for (let pad = 0; pad < 3; pad++) {
      body = JSON.stringify({
        request: operations[balance].path,
        nonce: nextNonce(),
        ticker: 'B'.repeat(pad + 1),
      });
      if (Buffer.from(body).toString('base64').endsWith('==')) break;
    }
    const payload = Buffer.from(body).toString('base64').replace(/=+$/, '');
    expect(payload).not.toBe(Buffer.from(body).toString('base64'));
    const reply = await call(suite.sandbox.url, partner, balance, { bodyText: body, payload });
    expect(reply).toMatchObject(unauthorized);
  });

  it('a body that is not compact JSON gets 400 code 9, even when signed correctly', async () => {
    const body = JSON.stringify({ request: operations[balance].path, nonce: nextNonce() }, null, 1);
    const reply = await call(suite.sandbox.url, partner, balance, { bodyText: body });
    expect(reply).toMatchObject(refusals.invalidPayload);
  });

  it('a body that is not JSON gets 400 code 9', async () => {
    const reply = await call(suite.sandbox.url, partner, balance, { bodyText: 'request=/api/v4&nonce=1' });
    expect(reply).toMatchObject(refusals.invalidPayload);
  });

  it('a body without request is refused with "Request not provided."', async () => {
    const reply = await call(suite.sandbox.url, partner, balance, { omit: ['request'] });
    expect(reply.status).toBe(unauthorized.status);
    expect(refusalOf(reply).message).toBe(refusals.notProvided.request);
  });

  it('a request that is not the path called (another operation, or a full URL) gets 401', async () => {
    for (const request of [
      operations.getCollateralBalanceSummary.path,
      `${suite.sandbox.url}${operations[balance].path}`,
    ]) {
      const reply = await call(suite.sandbox.url, partner, balance, { fields: { request } });
      expect(reply).toMatchObject(unauthorized);
    }
  });
});

describe('nonces', () => {
  it('a body without nonce is refused with "Nonce not provided."', async () => {
    const reply = await call(suite.sandbox.url, partner, balance, { omit: ['nonce'] });
    expect(reply.status).toBe(unauthorized.status);
    expect(refusalOf(reply).message).toBe(refusals.notProvided.nonce);
  });

  it('a nonce that is not greater than the last one gets 429 "Too many requests."', async () => {
    const nonce = nextNonce();
    expect((await call(suite.sandbox.url, partner, balance, { fields: { nonce } })).status).toBe(200);
    const again = await call(suite.sandbox.url, partner, balance, { fields: { nonce } });
    expect(again).toMatchObject(tooMany);
    const lower = await call(suite.sandbox.url, partner, balance, {
      fields: { nonce: String(BigInt(nonce) - 1n) },
    });
    expect(lower).toMatchObject(tooMany);
    expect((await call(suite.sandbox.url, partner, balance)).status).toBe(200);
  });

  it('nonces are tracked per key', async () => {
    const nonce = nextNonce();
    expect((await call(suite.sandbox.url, partner, balance, { fields: { nonce } })).status).toBe(200);
    expect((await call(suite.sandbox.url, ordinary, balance, { fields: { nonce } })).status).toBe(200);
  });

  it('a refused signature does not use up its nonce', async () => {
    const nonce = nextNonce();
    const refused = await call(suite.sandbox.url, partner, balance, { fields: { nonce }, secret: 'wrong' });
    expect(refused.status).toBe(unauthorized.status);
    expect((await call(suite.sandbox.url, partner, balance, { fields: { nonce } })).status).toBe(200);
  });

  it("an integer nonce is accepted, as the operator's own clients send it", async () => {
    const nonce = Number(nextNonce());
    expect(Number.isSafeInteger(nonce)).toBe(true);
    const reply = await call(suite.sandbox.url, ordinary, balance, { fields: { nonce } });
    expect(reply.status).toBe(200);
  });

  it('a nonce that is neither digits nor an integer is refused, naming nonce', async () => {
    for (const nonce of [`${nextNonce()}x`, -1, 1.5]) {
      const reply = await call(suite.sandbox.url, ordinary, balance, { fields: { nonce } });
      expect(reply.status, String(nonce)).toBeGreaterThanOrEqual(400);
      expect(reply.status, String(nonce)).toBeLessThan(500);
      // The refusal names the nonce field, and only it.
      const { errors } = refusalOf(reply);
      expect(Object.keys(errors), String(nonce)).toEqual(['nonce']);
      expect(errors.nonce, String(nonce)).toEqual(expect.arrayContaining([expect.stringMatching(/nonce/i)]));
    }
  });

  describe('a refused call never advances the nonce', () => {
    // The document's Nonce schema (generated facts): the longest nonce it allows.
    const stringForm = operations[balance].body.properties.nonce.anyOf.find((form) => form.type === 'string');
    const maxLength = stringForm && 'maxLength' in stringForm ? stringForm.maxLength : 0;
    expect(maxLength).toBeGreaterThan(0);
    const longest = '9'.repeat(maxLength);
    const investFields = { planId: plan?.id, amount: plan?.minAmount };
    let fresh: Sandbox;
    beforeEach(async () => {
      fresh = await startSandbox({ port: 0, strict: true });
    });
    afterEach(async () => {
      await fresh.close();
      expect(fresh.violations).toEqual([]);
    });
    const normalCallSucceeds = async () => {
      expect((await call(fresh.url, partner, balance)).status).toBe(200);
      expect((await call(fresh.url, partner, 'createFixedInvestment', { fields: investFields })).status).toBe(
        201,
      );
    };

    it.each([
      ['25 digits', '1'.repeat(25)],
      ['one digit over the maxLength', `1${longest}`],
    ])(
      // The main balance answers request validation with 422 (observed upstream).
      'a nonce of %s is refused with 422 naming nonce, and the next normal call succeeds',
      async (_, nonce) => {
        expect(nonce.length).toBeGreaterThan(maxLength);
        const reply = await call(fresh.url, partner, balance, { fields: { nonce } });
        expect(reply.status).toBe(422);
        expect(Object.keys(refusalOf(reply).errors)).toEqual(['nonce']);
        await normalCallSucceeds();
      },
    );

    it.each([
      ['an invalid body', balance, { ticker: 5 }, partner, 422],
      ['an invalid invest body', 'createFixedInvestment', { amount: '1' }, partner, 400],
      ['a business-rule refusal', 'createFixedInvestment', { ...investFields, amount: '1' }, partner, 422],
      ['a partner-only call by an ordinary key', 'createFixedInvestment', investFields, ordinary, 403],
    ] as const)(
      '%s with the largest nonce is refused, and the next normal call succeeds',
      async (_, operationId, fields, key, status) => {
        const reply = await call(fresh.url, key, operationId, { fields: { ...fields, nonce: longest } });
        expect(reply.status).toBe(status);
        await normalCallSucceeds();
        expect((await call(fresh.url, ordinary, balance)).status).toBe(200);
      },
    );

    it('with nonceWindow, a refused call does not use its timestamp up', async () => {
      const nonce = String(Date.now());
      const refused = await call(fresh.url, partner, balance, {
        fields: { nonce, nonceWindow: true, ticker: 5 },
      });
      expect(refused.status).toBe(422);
      expect((await call(fresh.url, partner, balance, { fields: { nonce, nonceWindow: true } })).status).toBe(
        200,
      );
      expect(await call(fresh.url, partner, balance, { fields: { nonce, nonceWindow: true } })).toMatchObject(
        tooMany,
      );
    });

    it('a stale nonce is still refused with 429 before the body is looked at', async () => {
      const nonce = nextNonce();
      expect((await call(fresh.url, partner, balance, { fields: { nonce } })).status).toBe(200);
      const stale = await call(fresh.url, partner, balance, { fields: { nonce, ticker: 5 } });
      expect(stale).toMatchObject(tooMany);
    });
  });

  describe('with nonceWindow', () => {
    const windowCall = (nonce: number, key = partner) =>
      call(suite.sandbox.url, key, balance, { fields: { nonce: String(nonce), nonceWindow: true } });

    it('accepts unique timestamps within ±5 s in any order', async () => {
      suite.clock.now = Date.now();
      for (const offset of [4900, -4900, 0, 1, -1, 2500]) {
        expect((await windowCall(suite.clock.now + offset)).status, `offset ${offset}`).toBe(200);
      }
    });

    it('refuses a reused nonce with 429', async () => {
      suite.clock.now = Date.now();
      expect((await windowCall(suite.clock.now + 10)).status).toBe(200);
      expect(await windowCall(suite.clock.now + 10)).toMatchObject(tooMany);
    });

    it('refuses timestamps more than 5 s away from server time with 429', async () => {
      suite.clock.now = Date.now();
      for (const offset of [5001, -5001, 60_000, -suite.clock.now]) {
        expect(await windowCall(suite.clock.now + offset), `offset ${offset}`).toMatchObject(tooMany);
      }
    });

    it('follows the server clock, not the caller', async () => {
      suite.clock.now = Date.now();
      const nonce = suite.clock.now + 20;
      expect((await windowCall(nonce)).status).toBe(200);
      suite.clock.now += 60_000;
      expect((await windowCall(nonce - 1)).status).toBe(tooMany.status);
      expect((await windowCall(suite.clock.now - 30)).status).toBe(200);
    });
  });
});

describe('permissions', () => {
  const signedOperations = (Object.keys(operations) as OperationId[]).filter(
    (id) => operations[id].auth === 'signed',
  );
  const partnerOnly = signedOperations.filter((id) => operations[id].partnerOnly);
  const open = signedOperations.filter((id) => !operations[id].partnerOnly);

  it('the document marks some operations partner-only and some not', () => {
    expect(partnerOnly.length).toBeGreaterThan(0);
    expect(open.length).toBeGreaterThan(0);
  });

  it.each(partnerOnly)('%s answers 403 to a key without partner access', async (operationId) => {
    const reply = await call(suite.sandbox.url, ordinary, operationId, {
      fields: operationId === 'createFixedInvestment' ? { planId: plan?.id, amount: plan?.minAmount } : {},
    });
    expect(reply).toMatchObject(documented(documentOf(operationId), 'noPermission'));
  });

  it.each(open)('%s serves a key without partner access', async (operationId) => {
    // The operation's first request example: what it answers depends on the ordinary key's
    // account (an order of another account is not found), but never on partner access.
    const { request: _, nonce: __, ...fields } = documentOf(operationId).requestExamples()[0]?.value ?? {};
    const reply = await call(suite.sandbox.url, ordinary, operationId, { fields });
    expect(reply.status).not.toBe(403);
    expect(reply.status).toBeLessThan(500);
  });

  it.each(signedOperations)('%s answers 403 to a key that is not enabled', async (operationId) => {
    const reply = await call(suite.sandbox.url, disabledKey(fixture), operationId);
    expect(reply).toMatchObject(documented(documentOf(operationId), 'keyNotEnabled'));
  });

  it('a key restricted to some endpoints may call only those', async () => {
    const restricted = { apiKey: 'restricted-key', secret: 'restricted-secret', account: partner.account };
    const custom = defaultFixture();
    custom.keys.push({ ...restricted, partner: true, operations: ['getMainBalance'] });
    const other = await startSandbox({ port: 0, strict: true, fixture: custom });
    try {
      expect((await call(other.url, restricted, 'getMainBalance')).status).toBe(200);
      const refused = await call(other.url, restricted, 'getCollateralBalanceSummary');
      expect(refused).toMatchObject(documented(documentOf('getCollateralBalanceSummary'), 'keyNotEnabled'));
    } finally {
      await other.close();
    }
  });
});
