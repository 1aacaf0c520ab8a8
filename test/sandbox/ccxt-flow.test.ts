// A trading client no one here wrote, ccxt's whitebit class, runs its whole order flow through its
// own unified methods against `npm run sandbox` started as a process, configured only by the lines
// that process prints: load the markets, read the balance, place limit orders, list the open
// ones, cancel one, cancel all, read the trades and the closed orders. The sandbox runs strict:
// an answer that does not match the documents would be written on its stderr.
//
// ccxt.ts says how it is configured (the URLs and a nonce that never repeats).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentVariables } from '../../model/environment.ts';
import { multiply } from '../../sandbox/decimal.ts';
import { credentialKey, type FixtureMarket } from '../../sandbox/fixture.ts';
import { type SandboxProcess, startSandboxProcess } from '../../sandbox/process.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { type Whitebit, whitebitFor } from './ccxt.ts';
import { defaultFixture, feeUp, times, units } from './helpers.ts';

const fixture = defaultFixture();
const market = fixture.markets.find((candidate) => candidate.name === 'BTC_USDT') as FixtureMarket;
const account = fixture.accounts.find((candidate) => candidate.id === credentialKey(fixture).account);

let sandbox: SandboxProcess;
let exchange: Whitebit;

beforeAll(async () => {
  // Prices held still: the flow checks fills and fees at the fixture's price.
  sandbox = await startSandboxProcess(
    { SANDBOX_STRICT: '1', SANDBOX_QUIET: '1', SANDBOX_WALK: '0' },
    timeLimits.serverStartMs,
  );
  const { values } = sandbox;
  exchange = whitebitFor(
    values[environmentVariables.baseUrl] as string,
    values[environmentVariables.apiKey] as string,
    values[environmentVariables.apiSecret] as string,
  );
}, timeLimits.hookMs);

afterAll(async () => {
  await sandbox?.stop();
});

describe("ccxt's whitebit class trades against the sandbox", { timeout: timeLimits.processTestMs }, () => {
  it('loads the markets and assets, places, lists, cancels and reads its fills and closed orders', async () => {
    if (!account?.tradeBalances) throw new Error('the printed key has no trade balance in the fixture');
    const markets = await exchange.loadMarkets();
    // The markets trading now, with their rules; one that is not trading is not listed.
    const loadedIds = Object.values(markets).map((loaded) => loaded?.id);
    for (const listed of fixture.markets) {
      if (listed.tradesEnabled === false) {
        expect(loadedIds, listed.name).not.toContain(listed.name);
        continue;
      }
      const loaded = Object.values(markets).find((candidate) => candidate?.id === listed.name);
      expect(loaded?.baseId, listed.name).toBe(listed.stock);
      expect(loaded?.type, listed.name).toBe(listed.type === 'spot' ? 'spot' : 'swap');
    }
    const btcUsdt = markets['BTC/USDT'];
    expect(btcUsdt?.limits.amount?.min).toBe(Number(market.minAmount));
    expect(btcUsdt?.limits.cost?.min).toBe(Number(market.minTotal));
    expect(btcUsdt?.maker).toBe(Number(market.makerFee) / 100);
    expect(Object.keys(exchange.currencies ?? {}).sort()).toEqual(
      expect.arrayContaining(Object.keys(fixture.assets)),
    );

    const start = await exchange.fetchBalance();
    expect(start.USDT?.free).toBe(Number(account.tradeBalances.USDT));
    expect(start.BTC?.free).toBe(Number(account.tradeBalances.BTC));

    // Two orders that rest below the price, and one that crosses it and fills at once.
    const below = multiply(market.price, '0.9');
    const resting = [
      await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.01, Number(below)),
      await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.02, Number(below), {
        clientOrderId: 'ccxt-2',
      }),
    ];
    // The operator answers an accepted order with status NEW, which ccxt passes on as it is.
    for (const order of resting) expect(order).toMatchObject({ status: 'NEW', filled: 0 });
    expect(resting[1]?.clientOrderId).toBe('ccxt-2');
    const filled = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.005, Number(market.price) * 1.01);

    const open = await exchange.fetchOpenOrders('BTC/USDT');
    for (const order of resting) expect(open.map(({ id }) => id)).toContain(order.id);
    expect(open.map(({ id }) => id)).not.toContain(filled.id);
    const holding = await exchange.fetchBalance();
    const held = (amount: string) => {
      const total = times(amount, below);
      return total + feeUp(total, market.makerFee, Number(market.feePrec));
    };
    expect(units(String(holding.USDT?.used)) - units(String(start.USDT?.used))).toBe(
      held('0.01') + held('0.02'),
    );

    const cancelled = await exchange.cancelOrder(resting[0]?.id as string, 'BTC/USDT');
    expect(cancelled.id).toBe(resting[0]?.id);
    expect((await exchange.fetchOpenOrders('BTC/USDT')).map(({ id }) => id)).not.toContain(resting[0]?.id);
    await exchange.cancelAllOrders('BTC/USDT');
    expect(await exchange.fetchOpenOrders('BTC/USDT')).toEqual([]);

    // The fill: at the market's price as the taker, in the trades and the closed orders.
    const trades = await exchange.fetchMyTrades('BTC/USDT');
    const fill = trades.find((trade) => trade.order === filled.id);
    expect(fill).toMatchObject({ side: 'buy', price: Number(market.price), amount: 0.005 });
    const cost = multiply('0.005', market.price);
    const fee = feeUp(units(cost), market.takerFee, Number(market.feePrec));
    expect(units(String(fill?.fee?.cost))).toBe(fee);
    const closed = await exchange.fetchClosedOrders('BTC/USDT');
    expect(closed.find((order) => order.id === filled.id)).toMatchObject({ status: 'closed', filled: 0.005 });

    // The holds are back; the fill moved exactly its cost and fee, and its amount.
    const end = await exchange.fetchBalance();
    const total = (balance: typeof start, asset: string) =>
      units(String(balance[asset]?.free)) + units(String(balance[asset]?.used));
    expect(total(end, 'USDT')).toBe(total(start, 'USDT') - units(cost) - fee);
    expect(total(end, 'BTC')).toBe(total(start, 'BTC') + units('0.005'));

    expect(sandbox.stderr()).toBe('');
  });
});
