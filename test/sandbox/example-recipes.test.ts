// Every error example the documents name for a request (400 and 422) is an answer the sandbox
// really gives: each recipe (a body and key worked out from the default fixture) is sent signed,
// and the answer must be the example, status and body. Only the balance refusals worded by an
// operation's x-messages (invest, withdrawals, moves between balances) carry the real figures. Each example without a recipe is named here with the reason the sandbox's state
// cannot produce it, so that a new example in the documents fails this test until it has one.
import { describe, expect, it } from 'vitest';
import { at } from '../../model/json.ts';
import { fillTemplate, projectDocuments } from '../../sandbox/document.ts';
import { exampleRecipes } from '../../sandbox/example-recipes.ts';
import { credentialKey } from '../../sandbox/fixture.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { call, defaultFixture, documentOf, refusalOf, strictSandbox } from './helpers.ts';

const recipes = exampleRecipes(defaultFixture());
const suite = strictSandbox();

/** The examples no state of the sandbox answers, and why. */
const cannot: Record<string, string> = {
  'cancelOrder › marketNotAvailableCode30':
    'an unavailable market is answered in the code 31 form, one answer per case',
  'cancelOrder › missingFields':
    'it names market and orderId together, but the schema requires only market: a body without both fails the schema on market alone',
  'createLimitOrder › makerFeeInvalid': 'the operator does not say when the maker fee does not apply',
  'getTradeBalance › invalidArgument': 'the operator does not say what causes it',
  'getOrderBook › marketNotAvailable': 'the sandbox does not model path parameters yet',
  'getOrderBook › levelNotInteger': 'the sandbox does not model query parameters yet',
  'getOrderBookDepth › marketNotAvailable': 'the sandbox does not model path parameters yet',
  'listRecentTrades › marketNotAvailable': 'the sandbox does not model path parameters yet',
  'listRecentTrades › typeInvalid': 'the sandbox does not model query parameters yet',
  'listFundingRateHistory › marketNotAvailable': 'the sandbox does not model path parameters yet',
  'listFundingRateHistory › marketMissing': 'the sandbox does not model path parameters yet',
  'listFundingRateHistory › limitTooLarge': 'the sandbox does not model query parameters yet',
  'listFundingRateHistory › offsetTooLarge': 'the sandbox does not model query parameters yet',
  'listFundingRateHistory › endBeforeStart': 'the sandbox does not model query parameters yet',
  'listFundingRateHistory › fundingHistoryUnavailable':
    'the sandbox does not model the failure of the service behind the funding-rate history yet',
  'closePosition › notEnoughBalanceToClose':
    'the positions the fixture seeds are covered by the collateral balance many times over',
  'setCollateralLeverage › leverageNotAllowed':
    'the fixture has no market whose maximum leverage is below 100, and a value off the list fails the schema first',
  'setCollateralLeverage › leverageNotSupported':
    'a change needs no open position or order (code 113 first), so no margin is in use to support',
  'setHedgeMode › hedgeModeNotBoolean': 'the sandbox does not model hedge mode yet',
  'estimateConversion › amountTooBig':
    'the operator does not show the largest amount it converts, and the sandbox has no maximum',
  'estimateConversion › termsNotAccepted':
    'the sandbox does not model accepting the terms of conversion: every account has accepted them',
  'getWebSocketToken › userNotFound':
    'every key of the fixture belongs to an account of the fixture, whose user the sandbox always finds',
  'confirmConversion › quoteIdTooLong':
    'the operator does not show the longest quoteId it takes, and the sandbox takes any string of digits',
  'getDepositAddress › notDepositable':
    'every asset of the default fixture is open to deposits (test/sandbox/account-money.test.ts closes one)',
  'createDepositAddress › notDepositable':
    'every asset of the default fixture is open to deposits (test/sandbox/account-money.test.ts closes one)',
  'createDepositAddress › noDefaultNetwork':
    'every asset of the default fixture has a default network (test/sandbox/account-money.test.ts takes one away)',
  'createDepositAddress › currencyNetworkMismatch':
    'the operator does not say how it differs from unknownNetwork, which the sandbox answers',
  'createDepositAddress › fiatUnavailable': 'the sandbox does not model fiat assets yet',
  'createDepositAddress › currencyUnavailable':
    'the sandbox does not model regions or identity verification yet',
  'createDepositAddress › kycRequired': 'the sandbox does not model identity verification yet',
  'createDepositAddress › addressInProgress': 'the sandbox makes an address at once',
  'createDepositAddress › addressLimitReached':
    'the operator does not show how many addresses an asset may have, and the sandbox sets no limit',
  'transferBetweenBalances › missingFields':
    'it names method, which the schema does not require (from and to replace it): a body without the three fails the schema on ticker and amount alone',
  'transferBetweenBalances › unconfirmedUser':
    'the sandbox does not model identity verification or limits yet',
  'transferBetweenBalances › accountVerification': 'the sandbox does not model identity verification yet',
  'transferBetweenBalances › throttling':
    'the sandbox answers a call over the rate limit with 429, as the gateway does',
  'transferBetweenBalances › currencyWithdrawDisabled':
    'the sandbox does not model assets closed to moves between balances yet',
  'transferBetweenBalances › currencyDepositDisabled':
    'the sandbox does not model assets closed to moves between balances yet',
  'listDepositWithdrawalHistory › missingFields':
    "the operator's own schema leaves the fields it names optional, and so does the document",
  'createWithdrawalPay › amountNotAboveFee':
    'the fee is added on top of the amount, so the amount is never below it',
  'createWithdrawal › memoRequired':
    'no asset of the default fixture needs a memo (test/sandbox/account-money.test.ts adds one)',
  'createWithdrawal › providerRequired': 'the sandbox does not model fiat assets yet',
  'createWithdrawal › unconfirmedUser': 'the sandbox does not model identity verification or limits yet',
  'createWithdrawal › accountVerification': 'the sandbox does not model identity verification yet',
  'createWithdrawal › throttling':
    'the sandbox answers a call over the rate limit with 429, as the gateway does',
  'createWithdrawal › invalidAddress':
    'the operator does not say which addresses it finds invalid: the sandbox takes any',
  'createWithdrawal › currencyNotWithdrawable':
    'every asset of the default fixture is open to withdrawals (test/sandbox/account-money.test.ts closes one)',
  'createWithdrawalPay › memoRequired':
    'no asset of the default fixture needs a memo (test/sandbox/account-money.test.ts adds one)',
  'createWithdrawalPay › providerRequired': 'the sandbox does not model fiat assets yet',
  'createWithdrawalPay › unconfirmedUser': 'the sandbox does not model identity verification or limits yet',
  'createWithdrawalPay › accountVerification': 'the sandbox does not model identity verification yet',
  'createWithdrawalPay › throttling':
    'the sandbox answers a call over the rate limit with 429, as the gateway does',
  'createWithdrawalPay › invalidAddress':
    'the operator does not say which addresses it finds invalid: the sandbox takes any',
  'createWithdrawalPay › currencyNotWithdrawable':
    'every asset of the default fixture is open to withdrawals (test/sandbox/account-money.test.ts closes one)',
  'createCode › invalidLengths':
    'it names four refusals of different kinds at once (a negative amount, two texts too long, an unknown asset), which the sandbox words one kind at a time',
  'createCode › unconfirmedUser': 'the sandbox does not model identity verification or limits yet',
  'createCode › kycRequired': 'the sandbox does not model identity verification or fiat assets yet',
  'createCode › codesDisabled': 'the sandbox does not model assets whose codes are off yet',
  'applyCode › incorrectCode':
    'the operator does not say when it is given rather than codeNotApplied, which the sandbox answers',
  'applyCode › kycRequired': 'the sandbox does not model identity verification yet',
  'applyCode › codesDisabled': 'the sandbox does not model assets whose codes are off yet',
  'listMiningRewards › incorrectTimestamp': 'the sandbox does not model mining rewards yet',
  'getMiningAccountHashrate › accountNotFound': 'the sandbox does not model mining hash rates yet',
  'getMiningAccountHashrate › incorrectTimestamp': 'the sandbox does not model mining hash rates yet',
  'setMiningPayoutDestination › invalidBtcAddress':
    'the sandbox does not model which bitcoin addresses are valid yet',
  'setMiningPayoutDestination › customCurrencyConflict':
    "the sandbox does not model a mining account's reward currency yet",
  'getMiningAccountInfo › accountNotFound': "the sandbox does not model a mining account's workers yet",
  'listMiningWorkers › accountNotFound': "the sandbox does not model a mining account's workers yet",
  'getMiningWorkerHashrate › accountNotFound': "the sandbox does not model a mining account's workers yet",
  'createMiningWatcherLink › limitExceeded':
    "the sandbox does not model the cap on a mining account's watcher links yet",
  'createMiningAccount › maxAccounts':
    'the sandbox does not model the cap on mining accounts yet (its figure is not shown)',
  'listMiningAccounts › nameInvalid':
    "the operator's example carries a placeholder message; which names it refuses is not shown",
  'getCreditLine › noActiveLoan': 'the sandbox does not model the credit line yet',
  'getFiatDepositUrl › uniqueIdTaken': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › invalidFields': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › providerWithoutAsset': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › notDepositable': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › amountTooSmall': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › amountTooLarge': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › dailyLimitReached': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › expirationNotForProvider': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › userNotVerified': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › customerUnderage': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › invalidCard': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › linkDomainNotAllowed': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › linkNotHttps': 'the sandbox does not model fiat deposit invoices yet',
  'getFiatDepositUrl › linkNotMade': 'the sandbox does not model fiat deposit invoices yet',
  'refundDeposit › notRefundable': 'the sandbox does not model cancelled deposits or refunds yet',
  'createExpressWithdrawToken › externalIdChanged': 'the sandbox does not model express-withdraw tokens yet',
  'createExpressWithdrawToken › externalIdPaid': 'the sandbox does not model express-withdraw tokens yet',
  'createExpressWithdrawToken › amountOverCap': 'the sandbox does not model express-withdraw tokens yet',
  'issueCardToken › invalidCardNumber':
    'its call is not signed but carries a gateway token, which the recipes cannot send: test/sandbox/gateway.test.ts sends it',
  'issueCardToken › tooManyAttempts': "the sandbox does not model the gateway's throttling of attempts",
  'issueJwtToken › missingFields':
    'it names only the signed fields, whose absence the signature checks refuse before validation',
  'getTravelRuleVasps › travelRuleRegionDisabled': 'the sandbox does not model regions yet',
  'submitTravelRuleDepositVerification › travelRuleRegionDisabled': 'the sandbox does not model regions yet',
  'submitTravelRuleDepositVerification › vaspDataMissing': 'the sandbox does not model Travel Rule data yet',
  'submitTravelRuleDepositVerification › originatorIncomplete':
    'the sandbox does not model Travel Rule data yet',
  'submitTravelRuleDepositVerification › depositNotFound': 'the sandbox does not model Travel Rule data yet',
  'submitTravelRuleDepositVerification › notADeposit': 'the sandbox does not model Travel Rule data yet',
  'submitTravelRuleDepositVerification › depositNotWaiting':
    'the sandbox does not model Travel Rule data yet',
  'getSubAccountKycUrl › subAccountNotActivated':
    'every sub-account of the sandbox has its user: the sandbox does not model activation',
  'getSubAccountKycUrl › sharedKycEnabled':
    "no sub-account of the default fixture shares its account's verification (test/sandbox/sub-account-withdrawals.test.ts makes one)",
  'confirmSubAccountWithdrawal › withdrawalNotConfirmable':
    'only a withdrawal confirmed by an earlier call is refused so (test/sandbox/sub-account-withdrawals.test.ts confirms one twice)',
  'closeFixedInvestment › investmentAlreadyClosed':
    'no fixed investment of the default fixture is closed (test/sandbox/lending.test.ts closes one)',
  'listFixedInvestments › invalidInvestmentFilter':
    'it names three refusals at once, one of them (status) a schema failure the sandbox answers alone',
  'listFlexPlans › invalidFlexPlansQuery':
    'it names an unknown ticker with schema failures of limit and offset, which the sandbox answers alone',
  'listFlexInvestments › invalidFlexInvestmentsQuery':
    'it names four refusals at once, one of them (investmentStatus) a schema failure the sandbox answers alone',
  'setFlexAutoReinvestment › flexAutoReinvestInvalid':
    'it words two schema failures at once, a wording no one-field example gives the sandbox',
  'withdrawFromFlexInvestment › flexWithdrawalBelowMinimum':
    'the operator does not show the smallest withdrawal, and the sandbox takes any amount above zero',
  'createSubAccount › aliasOrEmailInvalid':
    'the sandbox takes any email (which ones the operator finds invalid is not shown): it answers an alias in use alone, as aliasTaken',
  'createSubAccountApiKey › limitReached':
    'a sub-account reaches x-keys-per-sub-account only after that many calls; the fixture seeds one key',
  'createSubAccountApiKey › typeNotAllowed': 'the operator does not say which key type it refuses when',
  'editSubAccountApiKey › restrictedUrl':
    'the operator names one endpoint a sub-account key may not be given, not the rule: the sandbox restricts none',
  'addSubAccountApiKeyIpAddress › duplicateIp':
    "the fixture's key lists one address, which the removal's request example removes and a contract run sends to the same sandbox",
  'addSubAccountApiKeyIpAddress › allowlistFull':
    "a key reaches x-addresses-per-key only after that many calls; the fixture's key lists one",
  'removeSubAccountApiKeyIpAddress › ipNotInAllowlist':
    "the message names the one address the fixture's key lists, which the removal's request example removes",
};

const label = (operationId: string, example: string) => `${operationId} › ${example}`;

describe('the named error examples, each produced from the default fixture', () => {
  it('every 400 and 422 example has a recipe, but those the state cannot produce', () => {
    const documented = [...projectDocuments().operations.values()].flatMap((operation) =>
      operation
        .errorExamples()
        .filter(({ status }) => status === 400 || status === 422)
        .map(({ name }) => label(operation.id, name)),
    );
    const cooked = recipes.map((recipe) => label(recipe.operationId, recipe.example));
    expect(new Set(cooked).size).toBe(cooked.length);
    expect(cooked.sort()).toEqual(documented.filter((name) => !(name in cannot)).sort());
    for (const name of Object.keys(cannot)) expect(documented).toContain(name);
  });

  it.each(recipes.map((recipe) => [label(recipe.operationId, recipe.example), recipe] as const))(
    '%s',
    async (_, recipe) => {
      // A minute between calls: the flex history allows few calls per window.
      suite.clock.now += 60_000;
      const operation = documentOf(recipe.operationId as never);
      const expected = operation.example(recipe.example);
      const before = suite.sandbox.state.snapshot();
      const reply = await call(suite.sandbox.url, recipe.key, recipe.operationId as never, {
        fields: recipe.fields,
      });
      expect(reply.status).toBe(expected.status);
      // A refusal changes nothing, so a recipe may be replayed.
      expect(suite.sandbox.state.snapshot()).toEqual(before);
      // A balance refusal worded by the operation's x-messages carries the real figures: the
      // main balance of the asset (invest's plan is in USDT), what was asked, the asset's name.
      const worded = recipe.example === 'notEnoughBalance' && operation.optionalMessage('notEnoughBalance');
      if (!worded) {
        expect(reply.body).toEqual(expected.value);
        return;
      }
      const fixture = defaultFixture();
      const ticker = String(recipe.fields.ticker ?? 'USDT');
      const balance = fixture.accounts.find((account) => account.id === recipe.key.account)?.mainBalances?.[
        ticker
      ];
      expect(reply.body).toMatchObject({
        code: at(expected.value, 'code'),
        message: at(expected.value, 'message'),
      });
      expect(refusalOf(reply).errors.amount).toEqual([
        fillTemplate(worded, {
          available: String(balance),
          amount: String(recipe.fields.amount),
          name: String(fixture.assets[ticker]?.name),
        }),
      ]);
    },
  );
});

describe('invest', () => {
  const partner = recipes.find((recipe) => recipe.operationId === 'createFixedInvestment')?.key;

  it('an accepted invest debits the balance and shrinks what the plan has left', async () => {
    const before = suite.sandbox.state.snapshot();
    const limited = defaultFixture().plans.find((plan) => plan.available !== undefined);
    expect(limited?.available).toBe('50');
    if (!partner || !limited) throw new Error('fixture changed');
    const ok = await call(suite.sandbox.url, partner, 'createFixedInvestment', {
      fields: { planId: limited.id, amount: '45' },
    });
    expect(ok.status).toBe(201);
    const again = await call(suite.sandbox.url, partner, 'createFixedInvestment', {
      fields: { planId: limited.id, amount: '10' },
    });
    expect(again.body).toEqual(documentOf('createFixedInvestment').example('amountExceedsPlan').value);
    const after = suite.sandbox.state.snapshot();
    const usdt = (snapshot: typeof before) =>
      snapshot.accounts.find((account) => account.id === partner.account)?.mainBalances.USDT;
    expect(usdt(after)).not.toBe(usdt(before));
  });

  it('an integer nonce is taken for invest too (the operator CLI sends one)', async () => {
    const plan = defaultFixture().plans[0];
    if (!partner || !plan) throw new Error('fixture changed');
    const reply = await call(suite.sandbox.url, partner, 'createFixedInvestment', {
      fields: { planId: plan.id, amount: plan.minAmount, nonce: Date.now() * 1000 + 999_999 },
    });
    expect(reply.status).toBe(201);
  });
});

describe('after every request example was accepted, as in a contract run', () => {
  // The contract suite sends the request examples and the recipes to one sandbox: a recipe must
  // not depend on what an example changed (an order it placed under a clientOrderId, say).
  it('each recipe still gets its example’s status, code, message and fields', async () => {
    let now = Date.now();
    const sandbox = await startSandbox({ port: 0, strict: true, clock: () => now });
    try {
      const key = credentialKey(defaultFixture());
      const operations = [...projectDocuments().operations.values()].sort(
        (a, b) => Number(b.id === 'createLimitOrder') - Number(a.id === 'createLimitOrder'),
      );
      let accepted = 0;
      for (const operation of operations) {
        for (const { value } of operation.requestExamples()) {
          now += 60_000;
          const { request: _, nonce: __, nonceWindow: ___, ...fields } = value;
          const reply = await call(sandbox.url, key, operation.id as never, { fields });
          if (reply.status < 300) accepted++;
        }
      }
      expect(accepted).toBeGreaterThan(20);
      for (const recipe of recipes) {
        now += 60_000;
        const expected = documentOf(recipe.operationId as never).example(recipe.example);
        const reply = await call(sandbox.url, recipe.key, recipe.operationId as never, {
          fields: recipe.fields,
        });
        const label = `${recipe.operationId} › ${recipe.example}: ${JSON.stringify(reply.body)}`;
        expect(reply.status, label).toBe(expected.status);
        // Both absent where the example has neither (a page refusal with `errors` alone).
        const shape = (body: unknown) => ({ code: at(body, 'code'), message: at(body, 'message') });
        expect(shape(reply.body), label).toEqual(shape(expected.value));
        expect(Object.keys(refusalOf(reply).errors).sort(), label).toEqual(
          Object.keys((expected.value as { errors?: object }).errors ?? {}).sort(),
        );
      }
    } finally {
      await sandbox.close();
      expect(sandbox.violations).toEqual([]);
    }
  });
});
