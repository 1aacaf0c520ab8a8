// A trading client no one here wrote, ccxt's whitebit class, reads the market data, the
// collateral account and convert through its own unified methods against `npm run sandbox`
// started as a process, configured only by the lines it prints, with the market moving (the
// walk on) and the printed control moving its clock. Each method gets an answer, and what ccxt
// makes of it agrees with the sandbox: the ticker, the book, the trades and the candles with the
// price the control reports, the server time with its clock, a margin order with the position it
// grows, a confirmed conversion with the quote and the history. The sandbox runs strict: an answer that breaks the documents is a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentVariables } from '../../model/environment.ts';
import { type SandboxProcess, startSandboxProcess } from '../../sandbox/process.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { type Whitebit, whitebitFor } from './ccxt.ts';
import { documentOf, units } from './helpers.ts';

let sandbox: SandboxProcess;
let exchange: Whitebit;
let baseUrl: string;

/** The control the sandbox prints, for what no client of the service can do. */
async function control(path: string, body?: object) {
  const response = await fetch(`${baseUrl}/sandbox${path}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as { now: number; prices: Record<string, string> };
}

beforeAll(async () => {
  sandbox = await startSandboxProcess({ SANDBOX_STRICT: '1', SANDBOX_QUIET: '1' }, timeLimits.serverStartMs);
  const { values } = sandbox;
  baseUrl = values[environmentVariables.baseUrl] as string;
  exchange = whitebitFor(
    baseUrl,
    values[environmentVariables.apiKey] as string,
    values[environmentVariables.apiSecret] as string,
  );
  await exchange.loadMarkets();
  // Two hours of the walk: trades and candles to read.
  await control('/clock', { advanceSeconds: 7200 });
}, timeLimits.hookMs);

afterAll(async () => {
  await sandbox?.stop();
});

describe("ccxt's whitebit class reads the sandbox's market, collateral and convert", {
  timeout: timeLimits.processTestMs,
}, () => {
  it('market data: ticker, tickers, book, trades, candles, time, status, fees and funding', async () => {
    // The price held still while reading: the next step of the walk is seconds away on the
    // sandbox's clock, which the control moved, so a step may still come; read it back after.
    const { prices, now } = await control('');
    const price = Number(prices.BTC_USDT);
    const ticker = await exchange.fetchTicker('BTC/USDT');
    const book = await exchange.fetchOrderBook('BTC/USDT', 10);
    const trades = await exchange.fetchTrades('BTC/USDT');
    const candles = await exchange.fetchOHLCV('BTC/USDT', '1m');
    const after = Number((await control('')).prices.BTC_USDT);
    for (const seen of [ticker.last, book.asks[0]?.[0], trades.at(-1)?.price, candles.at(-1)?.[4]]) {
      expect([price, after]).toContain(seen);
    }
    expect(book.bids[0]?.[0]).toBeLessThan(book.asks[0]?.[0] as number);
    expect(trades.length).toBeGreaterThan(10);
    expect(candles.length).toBeGreaterThan(10);
    expect(ticker.baseVolume).toBeGreaterThan(0);

    const tickers = await exchange.fetchTickers();
    expect(Object.keys(tickers)).toEqual(expect.arrayContaining(['BTC/USDT', 'ETH/USDT']));
    expect(Math.abs(((await exchange.fetchTime()) ?? 0) - now * 1000)).toBeLessThan(60_000);
    expect((await exchange.fetchStatus()).status).toBe('ok');
    expect(Object.keys(await exchange.fetchTradingFees()).length).toBeGreaterThan(0);
    expect(await exchange.fetchFundingRates()).toBeTypeOf('object');
    expect(Array.isArray(await exchange.fetchFundingRateHistory('BTC/USDT:USDT'))).toBe(true);
  });

  it('collateral: an order grows the position, leverage is refused while it is open', async () => {
    const amountOf = async () => {
      const positions = await exchange.fetchPositions();
      const position = positions.find((candidate) => candidate.symbol === 'BTC/USDT');
      return units(String((position?.info as { amount?: string } | undefined)?.amount ?? '0'));
    };
    const before = await amountOf();
    const order = await exchange.createOrder('BTC/USDT', 'market', 'buy', 0.01, undefined, {
      marginMode: 'cross',
    });
    expect(order.status).toBe('closed');
    expect((await amountOf()) - before).toBe(units('0.01'));
    // The default account holds positions: the service refuses a leverage change, as documented.
    const { code } = documentOf('setCollateralLeverage').example('openPositionsOrOrders').value as {
      code: number;
    };
    await expect(exchange.setLeverage(5)).rejects.toThrow(new RegExp(`"code":${code}\\b`));
    const balance = await exchange.fetchBalance({ type: 'swap' });
    expect((balance.total as unknown as Record<string, number>).USDT).toBeGreaterThan(0);
    expect(Array.isArray(await exchange.fetchPositionHistory('BTC/USDT:USDT'))).toBe(true);
    expect(Array.isArray(await exchange.fetchFundingHistory('BTC/USDT:USDT'))).toBe(true);
  });

  it('convert: a quote, its confirmation at the quoted amounts, and the history', async () => {
    const quote = await exchange.fetchConvertQuote('USDT', 'BTC', 100);
    expect(quote.fromAmount).toBe(100);
    expect(quote.toAmount).toBeGreaterThan(0);
    const trade = await exchange.createConvertTrade(quote.id as string, 'USDT', 'BTC', 100);
    expect(trade.toAmount).toBe(quote.toAmount);
    // The history narrowed to the quote, as the operator's history takes it.
    const history = await exchange.fetchConvertTradeHistory(undefined, undefined, undefined, {
      quoteId: quote.id,
    });
    expect(history).toHaveLength(1);
    expect(history[0]?.toAmount).toBe(quote.toAmount);
  });
});
