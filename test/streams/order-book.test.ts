// The local order book: built from a whole book and its changes (asyncapi/channels/depth.yaml),
// levels replaced or removed by price compared exactly as decimals, amounts kept as strings; a gap
// in the sequence, a malformed level or a crossed book is never applied, and watchOrderBook then
// asks for a fresh whole book by subscribing again.
import { describe, expect, it } from 'vitest';
import { compareDecimals, isZeroDecimal } from '../../src/streams/decimal.ts';
import {
  type DepthUpdate,
  OrderBook,
  OrderBookGapError,
  type OrderBookView,
  watchOrderBook,
} from '../../src/streams/index.ts';
import { hookRecorder } from './stream-server.ts';
import { streamSuite } from './suite.ts';

type Book = DepthUpdate[1];
const whole = (book: Partial<Book>, market = 'ETH_BTC'): DepthUpdate => [
  true,
  { timestamp: 1, event_time: 1, asks: [], bids: [], ...book },
  market,
];
const change = (book: Partial<Book>, market = 'ETH_BTC'): DepthUpdate => [
  false,
  { timestamp: 2, event_time: 2, asks: [], bids: [], ...book },
  market,
];

/** The operator's example whole book, as depth.yaml has it. */
const snapshot = whole({
  update_id: 214403,
  asks: [
    ['0.020846', '29.369'],
    ['0.020850', '15.123'],
    ['0.020855', '8.456'],
  ],
  bids: [
    ['0.02083', '9.598'],
    ['0.020825', '12.345'],
    ['0.020820', '20.678'],
  ],
});

describe('compareDecimals', () => {
  it.each([
    ['1', '2', -1],
    ['10', '9', 1],
    ['0.020850', '0.02085', 0],
    ['0.1', '0.09', 1],
    ['000123.4500', '123.45', 0],
    ['65432.10', '65432.1', 0],
    ['99999999999999999999.000000001', '99999999999999999999', 1],
    ['0.00000001', '0.000000009', 1],
    ['2', '10.5', -1],
    // As many digits before and after the point: compared as the strings are.
    ['35100.25', '35099.87', 1],
    ['09.50', '10.50', -1],
    ['0.020846', '0.020850', -1],
  ])('%s against %s is %i', (a, b, expected) => {
    expect(compareDecimals(a, b)).toBe(expected);
    expect(compareDecimals(b, a)).toBe(-expected || 0);
  });

  it('tells zero in any spelling', () => {
    expect(['0', '0.0', '0.000', '000'].map(isZeroDecimal)).toEqual([true, true, true, true]);
    expect(['0.001', '1', '10'].map(isZeroDecimal)).toEqual([false, false, false]);
  });
});

describe('OrderBook', () => {
  it('takes a whole book, then changes: replace and remove by price, insert in order', () => {
    const book = new OrderBook('ETH_BTC');
    expect(book.apply(snapshot)).toBe(true);
    expect(book.updateId).toBe(214403);
    const applied = book.apply(
      change({
        update_id: 214410,
        past_update_id: 214403,
        // "0.02085" is the level "0.020850"; "0.000" removes; a new ask goes in its place.
        asks: [
          ['0.02085', '1.5'],
          ['0.020855', '0.000'],
          ['0.020848', '3'],
        ],
        // The level "0.020820" is removed; a new best bid.
        bids: [
          ['0.020820', '0'],
          ['0.020840', '4.25'],
        ],
      }),
    );
    expect(applied).toBe(true);
    expect(book.asks).toEqual([
      ['0.020846', '29.369'],
      ['0.020848', '3'],
      ['0.02085', '1.5'],
    ]);
    expect(book.bids).toEqual([
      ['0.020840', '4.25'],
      ['0.02083', '9.598'],
      ['0.020825', '12.345'],
    ]);
    expect(book.updateId).toBe(214410);
  });

  it('a gap in the sequence throws, and the book is left as it was', () => {
    const book = new OrderBook('ETH_BTC');
    book.apply(snapshot);
    const before = { bids: [...book.bids], asks: [...book.asks] };
    const error = (() => {
      try {
        book.apply(change({ update_id: 214420, past_update_id: 214410, bids: [['0.02084', '1']] }));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(OrderBookGapError);
    expect(error).toMatchObject({ market: 'ETH_BTC', lastUpdateId: 214403, pastUpdateId: 214410 });
    expect({ bids: book.bids, asks: book.asks }).toEqual(before);
    expect(book.updateId).toBe(214403);
  });

  it('a change that would cross the book, or a level that is not decimal, throws', () => {
    const book = new OrderBook('ETH_BTC');
    book.apply(snapshot);
    const before = { bids: [...book.bids], asks: [...book.asks] };
    expect(() =>
      book.apply(
        change({
          past_update_id: 214403,
          asks: [['0.020855', '0']],
          bids: [
            ['0.020825', '0'],
            ['0.020846', '1'],
          ],
        }),
      ),
    ).toThrow(/crossed/);
    // Nothing of the refused change stays: not the removals made before the crossing showed.
    expect({ bids: book.bids, asks: book.asks }).toEqual(before);
    for (const level of [['abc', '1'], ['1e-3', '1'], [0.02, '1'], ['0.02'], ['-1', '1']]) {
      expect(() => book.apply(change({ past_update_id: 214403, asks: [level as [string, string]] }))).toThrow(
        OrderBookGapError,
      );
    }
    expect(() => book.apply(change({ past_update_id: 214403 }, 'BTC_USDT'))).toThrow(/BTC_USDT/);
  });

  it('takes a bid above the best ask when the same change removes the asks it passes', () => {
    const book = new OrderBook('ETH_BTC');
    book.apply(snapshot);
    book.apply(
      change({
        update_id: 214404,
        past_update_id: 214403,
        asks: [
          ['0.020846', '0'],
          ['0.020850', '0'],
        ],
        bids: [['0.020848', '2']],
      }),
    );
    expect(book.asks).toEqual([['0.020855', '8.456']]);
    expect(book.bids[0]).toEqual(['0.020848', '2']);
  });

  it('skips changes until a whole book has arrived, and a whole book replaces everything', () => {
    const book = new OrderBook('ETH_BTC');
    expect(book.apply(change({ past_update_id: 1, bids: [['1', '1']] }))).toBe(false);
    expect(book.synced).toBe(false);
    book.apply(snapshot);
    // The keepalive whole book (every 10 s without a change) carries the current update_id.
    book.apply(whole({ update_id: 214500, asks: [['0.03', '1']], bids: [['0.01', '2']] }));
    expect(book).toMatchObject({ asks: [['0.03', '1']], bids: [['0.01', '2']], updateId: 214500 });
    expect(book.apply(change({ update_id: 214501, past_update_id: 214500, asks: [['0.03', '0']] }))).toBe(
      true,
    );
    expect(book.asks).toEqual([]);
    book.reset();
    expect(book).toMatchObject({ synced: false, bids: [], asks: [], updateId: undefined });
  });
});

describe('watchOrderBook', () => {
  const { server, connect } = streamSuite();

  it('yields the book from the whole book and its changes; a gap asks for a fresh whole book', async () => {
    const recorder = hookRecorder();
    const client = connect();
    const books = watchOrderBook(client, { market: 'ETH_BTC', limit: 5, hooks: recorder.hooks });
    const first = books.next();
    const connection = await server.nextConnection();
    const subscribe = await connection.next();
    expect(subscribe).toMatchObject({ method: 'depth_subscribe', params: ['ETH_BTC', 5, '0', false] });
    connection.confirm(subscribe);
    connection.update('depth_update', snapshot);
    const view = (await first).value as OrderBookView;
    expect(view.bids[0]).toEqual(['0.02083', '9.598']);

    connection.update(
      'depth_update',
      change({ update_id: 214404, past_update_id: 214403, bids: [['0.02083', '1']] }),
    );
    expect(((await books.next()).value as OrderBookView).bids[0]).toEqual(['0.02083', '1']);

    // A gap: the book is not yielded; the subscription is dropped and made again.
    const resnapshot = recorder.next('resnapshot');
    const afterGap = books.next();
    connection.update(
      'depth_update',
      change({ update_id: 214420, past_update_id: 214410, bids: [['0.02084', '7']] }),
    );
    const event = await resnapshot;
    expect(event.market).toBe('ETH_BTC');
    expect(event.error).toMatchObject({ lastUpdateId: 214404, pastUpdateId: 214410 });
    expect(await connection.next()).toMatchObject({ method: 'depth_unsubscribe', params: [] });
    const again = await connection.next();
    expect(again).toMatchObject({ method: 'depth_subscribe', params: ['ETH_BTC', 5, '0', false] });
    connection.confirm(again);
    // A change still on its way from before is skipped; the fresh whole book is yielded.
    connection.update(
      'depth_update',
      change({ update_id: 214421, past_update_id: 214420, bids: [['0.5', '1']] }),
    );
    connection.update(
      'depth_update',
      whole({ update_id: 214430, asks: [['0.021', '2']], bids: [['0.0208', '3']] }),
    );
    const fresh = (await afterGap).value as OrderBookView;
    expect(fresh).toMatchObject({ asks: [['0.021', '2']], bids: [['0.0208', '3']], updateId: 214430 });

    // Leaving the iteration unsubscribes.
    await books.return();
    expect(await connection.next()).toMatchObject({ method: 'depth_unsubscribe' });
  });
});
