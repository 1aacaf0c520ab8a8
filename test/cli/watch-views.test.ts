// What the live view of `txc watch` draws, without a terminal: every channel's updates (the
// documents' examples) as rows named from the update facts, amounts exactly as they came; the
// newest rows as a table that fits the width; the depth book's best levels side by side within
// the width, the amounts left out before a price is cut.
import { describe, expect, it } from 'vitest';
import { loadStreamCatalog } from '../../model/stream-catalog.ts';
import { bookLines } from '../../src/cli/watch/book-view.ts';
import { watchChannels } from '../../src/cli/watch/channels.ts';
import { updateRows } from '../../src/cli/watch/rows.ts';
import { tableLines } from '../../src/cli/watch/table-view.ts';

const catalog = loadStreamCatalog();
const decimal = /^-?[0-9]+(\.[0-9]+)?$/;

/** Every string of `value` that reads as a decimal amount, at any depth. */
function amounts(value: unknown): string[] {
  if (typeof value === 'string') return decimal.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(amounts);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(amounts);
  return [];
}

/** Each channel but depth (its view is the book), with its update examples' params. */
const tabled = watchChannels
  .filter((channel) => channel.channel !== 'depth')
  .map((channel) => ({
    channel,
    examples: (catalog.channels.find((each) => each.name === channel.channel)?.updates ?? []).flatMap(
      (update) => update.message.examples.map((example) => (example.payload as { params: unknown }).params),
    ),
  }));

describe('an update as rows', () => {
  it('gives every channel rows of plain cells, every amount in one exactly as it came', () => {
    expect(tabled.length).toBeGreaterThan(10);
    for (const { channel, examples } of tabled) {
      expect(examples.length, channel.channel).toBeGreaterThan(0);
      for (const params of examples) {
        const rows = updateRows(params, channel.updateShape);
        expect(rows.length, channel.channel).toBeGreaterThan(0);
        const cells = rows.flatMap((row) => Object.values(row));
        for (const cell of cells) {
          const plain =
            typeof cell !== 'object' ||
            cell === null ||
            (Array.isArray(cell) && !cell.some((item) => typeof item === 'object'));
          expect(plain, `${channel.channel}: ${JSON.stringify(cell)}`).toBe(true);
        }
        for (const amount of amounts(params)) expect(cells, `${channel.channel} ${amount}`).toContain(amount);
      }
    }
  });

  it("names a tuple's cells by the update's x-field-name, a list's items a row each", () => {
    const lastprice = tabled.find(({ channel }) => channel.channel === 'lastprice');
    expect(updateRows(['BTC_USDT', '65432.10'], lastprice?.channel.updateShape)).toEqual([
      { market: 'BTC_USDT', price: '65432.10' },
    ]);
    const trades = tabled.find(({ channel }) => channel.channel === 'trades');
    const rows = updateRows(
      [
        'BTC_USDT',
        [
          { id: 1, time: 1, price: '1.10', amount: '2', type: 'buy' },
          { id: 2, time: 2, price: '1.20', amount: '3', type: 'sell' },
        ],
      ],
      trades?.channel.updateShape,
    );
    expect(rows.map((row) => [row.market, row.id, row.price])).toEqual([
      ['BTC_USDT', 1, '1.10'],
      ['BTC_USDT', 2, '1.20'],
    ]);
  });

  it('shows a time marked x-unix-time as a date, and a code by its name', () => {
    const kline = tabled.find(({ channel }) => channel.channel === 'kline');
    const [candle] = updateRows(
      [[1580895000, '1', '2', '3', '0.5', '10', '20', 'ETH_BTC']],
      kline?.channel.updateShape,
    );
    expect(candle?.time).toBe('2020-02-05T09:30:00Z');
    const deals = tabled.find(({ channel }) => channel.channel === 'deals');
    const [deal] = updateRows(deals?.examples[0], deals?.channel.updateShape);
    expect(deal?.side).toMatch(/^(BUY|SELL)$/);
  });
});

describe('the table of the newest rows', () => {
  const rows = updateRows(
    tabled.find(({ channel }) => channel.channel === 'ordersPending')?.examples[0],
    tabled.find(({ channel }) => channel.channel === 'ordersPending')?.channel.updateShape,
  );

  it('fits every width, leaving columns on the right out, never cutting an amount', () => {
    const columns = Object.keys(rows[0] ?? {}).length;
    expect(columns).toBeGreaterThan(10);
    let narrowerHidesMore = -1;
    for (const width of [200, 120, 80, 40]) {
      const { lines, hidden } = tableLines(rows, width);
      for (const line of lines) expect(line.length, `${width}: ${line}`).toBeLessThanOrEqual(width);
      expect(lines).toHaveLength(rows.length + 1);
      expect(hidden).toBeGreaterThanOrEqual(narrowerHidesMore);
      narrowerHidesMore = hidden;
      // Each amount of a column shown is there whole.
      const shown = lines[0]?.trim().split(/\s+/) ?? [];
      for (const [header, cell] of Object.entries(rows[0] ?? {})) {
        if (shown.includes(header) && typeof cell === 'string' && decimal.test(cell))
          expect(lines[1], `${width} ${header}`).toContain(cell);
      }
    }
    expect(tableLines(rows, 40).hidden).toBeGreaterThan(0);
  });
});

describe('the depth book', () => {
  const book = {
    bids: [
      ['0.02083', '9.598'],
      ['0.020825', '12.345'],
    ] as const,
    asks: [
      ['0.020846', '29.369'],
      ['0.1', '1000000.5'],
      ['0.2', '1'],
    ] as const,
  };

  it('shows the best levels side by side, aligned on the decimal point, as deep as the book', () => {
    const lines = bookLines(book, 80, 40);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/9\.598 +0\.02083 +│ 0\.020846 +29\.369$/);
    expect(lines[2]).toMatch(/12\.345 +0\.020825 +│ 0\.1 +1000000\.5$/);
    expect(lines[3]).toMatch(/^ +│ 0\.2 +1$/);
    const point = (line: string | undefined, price: string) =>
      (line ?? '').indexOf(price) + price.indexOf('.');
    expect(point(lines[1], '0.020846')).toBe(point(lines[2], '0.1'));
    expect(point(lines[1], '0.02083')).toBe(point(lines[2], '0.020825'));
  });

  it('leaves the amounts out where they do not fit, and cuts only when prices alone do not', () => {
    const narrow = bookLines(book, 24, 40);
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(24);
    expect(narrow[1]).toMatch(/^0\.02083 +│ 0\.020846$/);
    expect(narrow.join('\n')).not.toContain('9.598');
    const narrowest = bookLines(book, 12, 40);
    for (const line of narrowest) expect(line.length).toBeLessThanOrEqual(12);
    expect(narrowest[1]).toContain('…');
  });

  it('shows as many levels as the height holds', () => {
    expect(bookLines(book, 80, 2)).toHaveLength(2);
    expect(bookLines(book, 80, 1)).toHaveLength(1);
  });
});
