import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, compare, isZero, normalize, parseDecimal, subtract, sum } from '../../sandbox/decimal.ts';
import { checkFixture } from '../../sandbox/fixture.ts';
import { defaultFixture, units } from './helpers.ts';

const decimalText = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }))
  .map(([negative, digits, scale]) => {
    const text = digits.toString().padStart(scale + 1, '0');
    const body = scale > 0 ? `${text.slice(0, -scale)}.${text.slice(-scale)}` : text;
    return negative ? `-${body}` : body;
  });

describe('decimal arithmetic on strings', () => {
  it('add, subtract and compare agree with scaled BigInts', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(units(add(a, b))).toBe(units(a) + units(b));
        expect(units(subtract(a, b))).toBe(units(a) - units(b));
        const expected = units(a) < units(b) ? -1 : units(a) > units(b) ? 1 : 0;
        expect(compare(a, b)).toBe(expected);
      }),
    );
  });

  it('keeps every digit where floating point would not', () => {
    expect(add('0.1', '0.2')).toBe('0.3');
    expect(subtract('25000.5', '10.000000000000000001')).toBe('24990.499999999999999999');
    expect(add('9007199254740993', '1')).toBe('9007199254740994');
    expect(sum(['1.10', '2.20', '-3.3'])).toBe('0');
  });

  it('normalizes without changing the value, and refuses what is not a plain decimal', () => {
    fc.assert(
      fc.property(decimalText, (a) => {
        expect(units(normalize(a))).toBe(units(a));
      }),
    );
    expect(normalize('100.00')).toBe('100');
    expect(normalize('-0.0')).toBe('0');
    expect(isZero('0.000')).toBe(true);
    for (const text of ['1e3', '.5', '5.', '+1', ' 1', '0x10', '', 'NaN'])
      expect(parseDecimal(text)).toBeUndefined();
  });
});

describe('fixture checks', () => {
  it('the default fixture passes', () => {
    expect(() => checkFixture(defaultFixture())).not.toThrow();
  });

  it.each([
    [
      'an amount that is not a decimal',
      (f: ReturnType<typeof defaultFixture>) => {
        (f.accounts[0]?.mainBalances ?? {}).USDT = '12,5';
      },
      /mainBalances/,
    ],
    [
      'a plan id that is not a uuid',
      (f: ReturnType<typeof defaultFixture>) => {
        if (f.plans[0]) f.plans[0].id = 'plan-1';
      },
      /plans\/0\/id/,
    ],
    [
      'a plan whose minimum exceeds its maximum',
      (f: ReturnType<typeof defaultFixture>) => {
        if (f.plans[0]) f.plans[0].minAmount = '1000000000';
      },
      /minAmount > maxAmount/,
    ],
    [
      'a key of an unknown account',
      (f: ReturnType<typeof defaultFixture>) => {
        if (f.keys[0]) f.keys[0].account = 'nobody';
      },
      /unknown account/,
    ],
    [
      'an unknown asset',
      (f: ReturnType<typeof defaultFixture>) => {
        (f.accounts[0]?.mainBalances ?? {}).DOGE = '1';
      },
      /unknown asset DOGE/,
    ],
    [
      'an action type the document does not list',
      (f: ReturnType<typeof defaultFixture>) => {
        const row = f.accounts[0]?.history?.[0];
        if (row) row.actionType = 99 as never;
      },
      /actionType 99/,
    ],
    [
      'a restriction to an unknown operation',
      (f: ReturnType<typeof defaultFixture>) => {
        if (f.keys[0]) f.keys[0].operations = ['withdraw'];
      },
      /unknown operation withdraw/,
    ],
  ])('refuses %s', (_, spoil, reason) => {
    const fixture = defaultFixture();
    spoil(fixture);
    expect(() => checkFixture(fixture)).toThrow(reason);
  });
});
