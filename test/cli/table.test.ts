// The terminal rendering: decimal strings aligned on the point and otherwise untouched.
import { describe, expect, it } from 'vitest';
import { renderTable, renderValue } from '../../src/cli/output/table.ts';

describe('table output', () => {
  it('aligns a column of decimal strings on the decimal point, digits untouched', () => {
    const text = renderValue({
      BTC: { main_balance: '1.25' },
      USDT: { main_balance: '25000.5' },
      ETH: { main_balance: '0.000000000000000001' },
      XRP: { main_balance: '-12' },
    });
    const lines = text.split('\n');
    expect(lines[0]?.trim()).toBe('main_balance');
    const points = lines.slice(1, 4).map((line) => line.indexOf('.'));
    expect(new Set(points).size).toBe(1);
    expect(text).toContain('0.000000000000000001');
    expect(lines[4]?.indexOf('12')).toBe((points[0] as number) - 2);
    expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(['BTC', 'USDT', 'ETH', 'XRP']);
  });

  it('renders arrays of objects with the union of their keys, a missing cell left empty', () => {
    const text = renderValue([
      { asset: 'BTC', balance: '0.5' },
      { asset: 'USDT', balance: '1200', note: 'x' },
    ]);
    expect(text.split('\n')).toEqual(['asset  balance  note', 'BTC       0.5', 'USDT   1200     x']);
  });

  it('renders a page: plain fields, then the nested list', () => {
    const text = renderValue({ limit: 50, offset: 0, data: [{ id: 'a' }] });
    expect(text).toBe('limit   50\noffset   0\n\ndata:\nid\na');
  });

  it('says (none) for an empty answer and prints plain values as they are', () => {
    expect(renderValue([])).toBe('(none)');
    expect(renderValue(['pong'])).toBe('pong');
    expect(renderValue({ id: '7b6e' })).toBe('id  7b6e');
  });

  it('leaves text columns left-aligned and numbers right-aligned', () => {
    expect(
      renderTable(
        ['a', 'n'],
        [
          ['x', 5],
          ['long', 100],
        ],
      ).split('\n'),
    ).toEqual(['a     n', 'x       5', 'long  100']);
  });
});
