// The depth channel's live view: a book kept from its updates by the stream client's
// watchOrderBook (a gap drops it and a fresh whole book is asked for), drawn as its best levels
// side by side, bids on the left (best first, going down) and asks on the right, each side aligned
// on the decimal point, as many levels as the terminal has rows. Prices and amounts are the
// server's strings, never cut or rounded: where both sides with their amounts do not fit the
// width, the amounts go and the prices stay; where even the prices do not fit, the lines are cut.
import type { StreamClient } from '../../streams/client.ts';
import {
  type OrderBookView,
  type PriceLevel,
  type WatchOrderBookOptions,
  watchOrderBook,
} from '../../streams/order-book.ts';
import { cut, renderTable } from '../output/table.ts';
import type { LiveBody } from './live-view.ts';

const divider = ' │ ';

/**
 * One side as lines of equal width: a header, then a level a line (blank lines below the last).
 * `flip` puts the amount before the price, so that the bids' prices face the asks'.
 */
function side(headers: string[], levels: readonly PriceLevel[], rows: number, flip: boolean): string[] {
  const cells = levels
    .slice(0, rows)
    .map(([price, amount]) => (headers.length === 1 ? [price] : flip ? [amount, price] : [price, amount]));
  const lines = renderTable(headers, cells).split('\n');
  const width = Math.max(...lines.map((line) => line.length));
  const padded = lines.map((line) => line.padEnd(width));
  while (padded.length < rows + 1) padded.push(' '.repeat(width));
  return padded;
}

function sides(book: Pick<OrderBookView, 'bids' | 'asks'>, rows: number, amounts: boolean): string[] {
  const bids = side(amounts ? ['amount', 'bid'] : ['bid'], book.bids, rows, true);
  const asks = side(amounts ? ['ask', 'amount'] : ['ask'], book.asks, rows, false);
  return bids.map((bid, index) => `${bid}${divider}${asks[index] ?? ''}`.trimEnd());
}

/**
 * The book in `width` columns and at most `height` rows: a header line, then a level of each side a
 * line, as deep as the book or the height goes.
 */
export function bookLines(
  book: Pick<OrderBookView, 'bids' | 'asks'>,
  width: number,
  height: number,
): string[] {
  const levels = Math.max(0, Math.min(height - 1, Math.max(book.bids.length, book.asks.length)));
  const full = sides(book, levels, true);
  if (full.every((line) => line.length <= width)) return full;
  return sides(book, levels, false).map((line) => cut(line, width));
}

/**
 * The depth channel's body, for the book of `options.market`; `notice` hears of a book dropped for
 * a fresh one.
 */
export function bookBody(
  options: Omit<WatchOrderBookOptions, 'hooks'>,
  notice: (text: string) => void,
): LiveBody {
  let book: OrderBookView | undefined;
  return {
    render(width, height) {
      if (!book) return { lines: [] };
      const note = book.updateId === undefined ? undefined : `book at update ${book.updateId}`;
      return { lines: bookLines(book, width, height), ...(note && { note }) };
    },
    async run(subscribe, updated) {
      const books = watchOrderBook({ subscribe } as Pick<StreamClient, 'subscribe'>, {
        ...options,
        hooks: {
          resnapshot: [
            ({ error }) => notice(`the book was dropped (${error.message}); a fresh one is on its way`),
          ],
        },
      });
      for await (const current of books) {
        book = current;
        updated();
      }
    },
  };
}
