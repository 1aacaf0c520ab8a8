// The book sequence number of each market (a depth update's `update_id`, the best bid and ask's
// update counter): it grows by one with every change to the market's whole book, shown to a
// subscriber or not (observed upstream). The sandbox's whole book is the most its REST book
// shows: other participants' levels and the accounts' resting orders. A change is seen when a
// reader asks after the state changed, so the changes of one call count once.
import { bookOf, type Levels, participantLevels } from '../market.ts';
import type { SandboxState } from '../state.ts';

export interface SequencedBook {
  asks: Levels;
  bids: Levels;
  sequence: number;
}

export class BookSequences {
  readonly #books = new Map<string, { text: string; book: SequencedBook }>();
  /** The books read since the state last changed: every reader of one moment shares one read. */
  readonly #fresh = new Map<string, SequencedBook>();

  /** Forgets the books read: the state may have changed since. */
  stale(): void {
    this.#fresh.clear();
  }

  /** The whole book of `market` now, with its sequence number. */
  read(state: SandboxState, market: string): SequencedBook {
    const fresh = this.#fresh.get(market);
    if (fresh) return fresh;
    const { asks, bids } = bookOf(state, state.market(market), participantLevels);
    const text = JSON.stringify([asks, bids]);
    const known = this.#books.get(market);
    const book =
      known && known.text === text ? known.book : { asks, bids, sequence: (known?.book.sequence ?? 0) + 1 };
    this.#books.set(market, { text, book });
    this.#fresh.set(market, book);
    return book;
  }
}
