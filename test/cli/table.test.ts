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

describe('table output within a width', () => {
  const uuid = (digit: string) =>
    `${digit.repeat(8)}-${digit.repeat(4)}-4${digit.repeat(3)}-8${digit.repeat(3)}-${digit.repeat(12)}`;
  const records = [
    {
      createdAt: '2023-11-03T08:26:40Z',
      planId: uuid('a'),
      transaction_id: uuid('b'),
      amount: '100',
      actionType: 'INVEST',
    },
    {
      createdAt: '2023-11-04T08:26:40Z',
      planId: uuid('c'),
      transaction_id: uuid('d'),
      amount: '0.0274',
      actionType: 'DAILY_EARNING',
    },
  ];
  const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

  it('prints the whole table when it fits, and without a width', () => {
    const full = renderValue(records);
    expect(renderValue(records, { width: widest(full) })).toBe(full);
    expect(full).toContain(uuid('a'));
    expect(full).not.toContain('…');
  });

  it('cuts the widest text columns with an ellipsis, never an amount', () => {
    const full = renderValue(records);
    const text = renderValue(records, { width: widest(full) - 20 });
    expect(widest(text)).toBeLessThanOrEqual(widest(full) - 20);
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/ aaaaaaaa-[-a48]*… /);
    expect(lines[1]).not.toContain(uuid('a'));
    expect(lines[1]).toContain('2023-11-03T08:26:40Z');
    expect(lines[2]?.trim().split(/\s+/)).toContain('0.0274');
    // Amounts stay aligned on the point.
    expect(lines[1]?.indexOf('100') as number).toBe((lines[2]?.indexOf('0.0274') as number) - 2);
  });

  it('turns each row into key/value lines when the columns cannot get narrow enough', () => {
    const text = renderValue(records, { width: 40 });
    expect(widest(text)).toBeLessThanOrEqual(40);
    const blocks = text.split('\n\n');
    expect(blocks).toHaveLength(2);
    expect(blocks[1]?.split('\n')).toEqual([
      'createdAt       2023-11-04T08:26:40Z',
      `planId          ${uuid('c').slice(0, 23)}…`,
      `transaction_id  ${uuid('d').slice(0, 23)}…`,
      'amount          0.0274',
      'actionType      DAILY_EARNING',
    ]);
  });

  it('heads each keyed record with its key in the list form, and never cuts a decimal', () => {
    const amount = '123456789012345678901234567890.000000000000000001';
    const text = renderValue({ BTC: { main_balance: amount, note: 'x'.repeat(60) } }, { width: 30 });
    expect(text.split('\n')).toEqual(['BTC', `main_balance  ${amount}`, `note          ${'x'.repeat(15)}…`]);
  });

  it('cuts the text values of plain fields to the width', () => {
    const text = renderValue({ id: uuid('e'), limit: 50 }, { width: 20 });
    expect(text.split('\n')).toEqual([`id     ${uuid('e').slice(0, 12)}…`, 'limit  50']);
  });

  it('never cuts a column kept whole: the other text columns give up the room', () => {
    const rows = [
      ['collateral-trigger-market-order', 'createCollateralTriggerMarketOrder', 'POST /api/v4/order/x'],
      ['ping', 'pingApi', 'GET /api/v4/public/ping'],
    ];
    const headers = ['command', 'operationId', 'request'];
    const cutEverywhere = renderTable(headers, rows, { width: 60 });
    expect(cutEverywhere).not.toContain('collateral-trigger-market-order');
    const text = renderTable(headers, rows, { width: 60, whole: ['command'] });
    const lines = text.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(lines[1]?.startsWith('collateral-trigger-market-order ')).toBe(true);
    expect(lines[2]?.startsWith('ping ')).toBe(true);
    expect(lines[1]).toContain('…');
  });
});
