import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  divide,
  isMultipleOf,
  isZero,
  multiply,
  normalize,
  parseDecimal,
  percent,
  round,
  subtract,
  sum,
} from '../../sandbox/decimal.ts';
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

describe('rounding, division and steps, for fills and fees', () => {
  const positive = decimalText.filter((text) => !text.startsWith('-') && units(text) > 0n);
  const scales = fc.integer({ min: 0, max: 12 });

  it('round down never goes above, round up never below, and both stay within one step', () => {
    fc.assert(
      fc.property(decimalText, scales, (a, scale) => {
        const step = 10n ** BigInt(18 - scale);
        const down = units(round(a, scale, 'down'));
        const up = units(round(a, scale, 'up'));
        const value = units(a);
        expect(value >= 0n ? down <= value : down >= value).toBe(true);
        expect(value >= 0n ? up >= value : up <= value).toBe(true);
        expect(up - down === 0n || up - down === step || down - up === step).toBe(true);
        expect(down % step).toBe(0n);
        expect(up % step).toBe(0n);
      }),
    );
    expect(round('0.0999951', 6, 'up')).toBe('0.099996');
    expect(round('0.0999951', 6, 'down')).toBe('0.099995');
    expect(round('350.12', 6, 'up')).toBe('350.12');
  });

  it('divide rounds the exact quotient down to its scale', () => {
    fc.assert(
      fc.property(positive, positive, scales, (a, b, scale) => {
        const quotient = divide(a, b, scale);
        // quotient × b ≤ a < (quotient + one step) × b
        expect(compare(multiply(quotient, b), a)).toBeLessThanOrEqual(0);
        expect(compare(multiply(add(quotient, `${scale ? `0.${'0'.repeat(scale - 1)}` : ''}1`), b), a)).toBe(
          1,
        );
      }),
    );
    expect(divide('100', '35100', 6)).toBe('0.002849');
  });

  it('a percentage is the amount divided by 100, exactly', () => {
    expect(percent('0.1')).toBe('0.001');
    expect(multiply('99.9999', percent('0.1'))).toBe('0.0999999');
    const shorter = decimalText.filter((a) => (a.split('.')[1]?.length ?? 0) <= 16);
    fc.assert(
      fc.property(shorter, (a) => {
        expect(units(percent(a)) * 100n).toBe(units(a));
      }),
    );
  });

  it('a step divides an amount exactly or not at all', () => {
    expect(isMultipleOf('0.000123', '0.000001')).toBe(true);
    expect(isMultipleOf('0.0001234', '0.000001')).toBe(false);
    expect(isMultipleOf('35000.5', '0.1')).toBe(true);
    expect(isMultipleOf('35000.05', '0.1')).toBe(false);
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
