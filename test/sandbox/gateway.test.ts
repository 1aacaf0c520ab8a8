// The fiat gateway on the sandbox, through the real client: issueJwtToken hands out a token the
// sandbox remembers, and issueCardToken takes only such a token, not yet expired on the sandbox's
// clock (401 otherwise, no body); a card number that is not 13 to 19 digits passing the Luhn check
// is the document's invalidCardNumber example; a good one gets a card token, the same for the same
// card. One strict sandbox, on a fake clock. The card token is the state change the document's
// x-sandbox-state names, and it refuses to run for a call no gateway token authorised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayTokenSeconds } from '../../sandbox/handlers/gateway.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { SandboxState } from '../../sandbox/state.ts';
import { transitionOf } from '../../sandbox/transitions.ts';
import { createPrivateClient, type PrivateClient, unwrap } from '../../src/index.ts';
import { defaultFixture, documentOf, findKey, present } from './helpers.ts';

const fixture = defaultFixture();
const key = findKey(fixture, (candidate) => candidate.account === 'trader' && candidate.enabled !== false);
const card = '4111111111111111';
const invalidCardNumber = documentOf('issueCardToken').example('invalidCardNumber');

describe('the fiat gateway: its token, then a card token', () => {
  // Half a second past a whole one: a Unix time the sandbox answers must still be whole seconds.
  const clock = { now: Date.UTC(2024, 0, 1) + 500 };
  let sandbox: Sandbox | undefined;
  let client: PrivateClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => clock.now });
    client = createPrivateClient({
      apiKey: key.apiKey,
      apiSecret: key.secret,
      baseUrl: present(sandbox, 'the sandbox').url,
      rateLimit: false,
    });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
    expect(sandbox?.violations).toEqual([]);
  });

  const issue = async () => (await unwrap(client.POST('/api/v4/jwt'))).data;
  const cardToken = (gatewayToken: string, cardNumber = card) =>
    client.POST('/api/card-token', { body: { cardNumber }, gatewayToken });

  it('takes a token it issued, and gives the same card the same token', async () => {
    const { token, expires_at } = await issue();
    expect(expires_at).toBe(Math.floor(clock.now / 1000) + gatewayTokenSeconds);
    const first = await cardToken(token);
    const again = await cardToken((await issue()).token);
    expect(first.response?.status).toBe(201);
    expect(first.data).toEqual({ data: { token: expect.stringMatching(/^ct_[0-9a-f]{16}$/) } });
    expect(again.data).toEqual(first.data);
    // Another card, another token.
    expect((await cardToken(token, '5555555555554444')).data).not.toEqual(first.data);
  });

  it('refuses a token it never issued with 401 and no body', async () => {
    const forged = await cardToken('eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.forged.sig');
    expect(forged.error?.status).toBe(401);
    expect(forged.error?.body).toBeUndefined();
  });

  it('refuses a token once it has expired on its clock', async () => {
    const { token } = await issue();
    clock.now += (gatewayTokenSeconds - 1) * 1000;
    expect((await cardToken(token)).response?.status).toBe(201);
    clock.now += 1000;
    expect((await cardToken(token)).error?.status).toBe(401);
  });

  it.each([
    ['fails the Luhn check', '4111111111111112'],
    ['is too short', '411111111111'],
    ['has other characters', '4111 1111 1111 1111'],
  ])('answers invalidCardNumber for a number that %s', async (_, cardNumber) => {
    const refused = await cardToken((await issue()).token, cardNumber);
    expect(refused.error?.status).toBe(invalidCardNumber.status);
    expect(refused.error?.body).toEqual(invalidCardNumber.value);
  });
});

describe("the card token's state change", () => {
  it('is the one the document names, and needs the account a gateway token authorised', () => {
    const operation = documentOf('issueCardToken');
    expect(operation.stateChange()).toEqual({ change: 'issueCardToken' });
    const transition = present(transitionOf(operation), 'the card token state change');
    const now = Date.UTC(2024, 0, 1);
    const state = new SandboxState(fixture, now / 1000);
    const body = { cardNumber: card } as never;
    // A signed call's context (a key, no gateway account) is not one it may carry out.
    expect(() => transition.run({ state, operation, key, now }, body)).toThrow(
      'issueCardToken is not a call authorised by a gateway token',
    );
    const gatewayAccount = state.account(key.account);
    expect(transition.run({ state, operation, now, gatewayAccount }, body).status).toBe(201);
  });
});
