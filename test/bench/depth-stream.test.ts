// The stream bench's depth stream (bench/depth-stream.ts): every frame is a depth update as the
// documents describe it, the changes follow the whole book in an unbroken `update_id` sequence at
// the market's precision, the stream's own book is what a consumer applying every frame ends with,
// and a consumer that misses a change ends with another book, which the bench's check tells.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bookDifference,
  type DepthMarket,
  DepthStream,
  depthLimit,
  type HeldBook,
  sequenceOf,
  timestampOf,
} from '../../bench/depth-stream.ts';
import { loadStreamCatalog, type StreamMessageView } from '../../model/stream-catalog.ts';
import { type DepthUpdate, OrderBook } from '../../src/streams/index.ts';

/** A market at a precision other than the bench's (6 digits of price, 3 of amount). */
const market: DepthMarket = {
  name: 'ETH_BTC',
  price: '0.058',
  moneyPrec: 6,
  stockPrec: 3,
  minAmount: '0.01',
};
const changes = 400;

function framesOf(seed: number, phase = 1): string[] {
  const stream = new DepthStream({ market, seed, phase });
  const frames = [stream.wholeBook()];
  for (let index = 0; index < changes; index++) frames.push(stream.nextChange());
  return frames;
}

/** The book our client keeps after applying `frames` (it throws on a gap or a crossed book). */
function applied(frames: readonly string[]): OrderBook {
  const book = new OrderBook(market.name);
  for (const frame of frames) book.apply((JSON.parse(frame) as { params: DepthUpdate }).params);
  return book;
}

/** A consumer that checks nothing (no sequence, no crossing): each level set or removed by price. */
function uncheckedBook(frames: readonly string[]): HeldBook {
  const asks = new Map<string, string>();
  const bids = new Map<string, string>();
  for (const frame of frames) {
    const [whole, book] = (JSON.parse(frame) as { params: DepthUpdate }).params;
    if (whole) {
      asks.clear();
      bids.clear();
    }
    for (const [side, levels] of [
      [asks, book.asks],
      [bids, book.bids],
    ] as const) {
      for (const [price, amount] of levels) {
        if (Number(amount) === 0) side.delete(price);
        else side.set(price, amount);
      }
    }
  }
  const sorted = (side: Map<string, string>, order: 1 | -1) =>
    [...side].sort(([a], [b]) => (Number(a) - Number(b)) * order);
  return { asks: sorted(asks, 1), bids: sorted(bids, -1) };
}

let depthUpdate: StreamMessageView;
beforeAll(() => {
  const update = loadStreamCatalog().update('depth_update');
  if (!update) throw new Error('the documents have no depth_update');
  depthUpdate = update.message;
});

describe('the depth stream', () => {
  it('writes each frame as the documents describe a depth update', () => {
    const frames = framesOf(1);
    for (const frame of frames) expect(depthUpdate.problems(JSON.parse(frame)), frame).toEqual([]);
    const [whole, ...rest] = frames.map((frame) => (JSON.parse(frame) as { params: DepthUpdate }).params);
    expect(whole?.[0]).toBe(true);
    expect(whole?.[1].asks).toHaveLength(depthLimit);
    expect(whole?.[1].bids).toHaveLength(depthLimit);
    expect(rest.every(([fullReload]) => fullReload === false)).toBe(true);
  });

  it('chains update_id and past_update_id, and writes levels at the market’s precision', () => {
    const params = framesOf(2).map((frame) => (JSON.parse(frame) as { params: DepthUpdate }).params);
    for (let index = 1; index < params.length; index++) {
      const book = params[index]?.[1];
      expect(book?.past_update_id).toBe(params[index - 1]?.[1].update_id);
      expect(book?.update_id).toBeGreaterThan(book?.past_update_id as number);
    }
    const levels = params.flatMap(([, book]) => [...book.asks, ...book.bids]);
    expect(levels.every(([price]) => /^\d+\.\d{6}$/.test(price))).toBe(true);
    expect(levels.every(([, amount]) => /^\d+\.\d{3}$/.test(amount))).toBe(true);
    // Levels go and come: some changes remove a level.
    expect(levels.filter(([, amount]) => Number(amount) === 0).length).toBeGreaterThan(0);
  });

  it('ends with the book a consumer applying every frame keeps, never crossed', () => {
    const stream = new DepthStream({ market, seed: 3, phase: 1 });
    const book = new OrderBook(market.name);
    book.apply((JSON.parse(stream.wholeBook()) as { params: DepthUpdate }).params);
    for (let index = 0; index < changes; index++) {
      // OrderBook throws on a gap in the sequence or a crossed book.
      book.apply((JSON.parse(stream.nextChange()) as { params: DepthUpdate }).params);
      expect(bookDifference(stream.book(), book)).toBeUndefined();
    }
  });

  it('gives the same frames for the same seed and phase, others for another', () => {
    expect(framesOf(4)).toEqual(framesOf(4));
    expect(framesOf(5)).not.toEqual(framesOf(4));
    expect(framesOf(4, 2)).not.toEqual(framesOf(4, 1));
  });

  it('tells each frame’s place in its phase from its timestamp, in seconds or in whole milliseconds', () => {
    for (const sequence of [0, 1, 2, 999, 123_456]) {
      const seconds = timestampOf(7, sequence);
      expect(sequenceOf(7, seconds * 1000)).toBe(sequence);
      // ccxt keeps a book's time as Math.trunc(seconds * 1000).
      expect(sequenceOf(7, Math.trunc(seconds * 1000))).toBe(sequence);
      expect(sequenceOf(6, seconds * 1000)).toBe(-1);
      expect(sequenceOf(8, seconds * 1000)).toBe(-1);
    }
  });
});

describe('the bench’s check of a consumer’s book', () => {
  const frames = framesOf(6);
  const stream = new DepthStream({ market, seed: 6, phase: 1 });
  stream.wholeBook();
  for (let index = 0; index < changes; index++) stream.nextChange();
  const expected = stream.book();

  it('passes a book kept as strings or as numbers, equal to the server’s', () => {
    expect(bookDifference(expected, applied(frames))).toBeUndefined();
    const numbers: HeldBook = {
      asks: expected.asks.map(([price, amount]) => [Number(price), Number(amount)]),
      bids: expected.bids.map(([price, amount]) => [Number(price), Number(amount)]),
    };
    expect(bookDifference(expected, numbers)).toBeUndefined();
  });

  it('fails the book of a consumer that missed a change no later change wrote over', () => {
    const touched = frames.map((frame) => {
      const [, book] = (JSON.parse(frame) as { params: DepthUpdate }).params;
      return new Set([
        ...book.asks.map(([price]) => `ask ${price}`),
        ...book.bids.map(([price]) => `bid ${price}`),
      ]);
    });
    let caught = 0;
    for (let missed = 1; missed < frames.length; missed++) {
      const kept = frames.filter((_, index) => index !== missed);
      const later = new Set(touched.slice(missed + 1).flatMap((levels) => [...levels]));
      const overwritten = [...(touched[missed] as Set<string>)].every((level) => later.has(level));
      const difference = bookDifference(expected, uncheckedBook(kept));
      expect(difference === undefined, `change ${missed} missed: ${difference}`).toBe(overwritten);
      if (difference) caught++;
    }
    // Levels near the top change again soon, so many a miss is written over; the bench also counts
    // the updates each consumer applied, which catches those.
    expect(caught).toBeGreaterThan(changes / 4);
    expect(bookDifference(expected, uncheckedBook(frames))).toBeUndefined();
  });
});
