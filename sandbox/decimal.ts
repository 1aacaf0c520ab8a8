// Exact decimal arithmetic on strings: a decimal is a BigInt of units and a scale (the number
// of digits after the point). No floating point anywhere, never Number() on an amount.

const decimalPattern = /^(-)?([0-9]+)(?:\.([0-9]+))?$/;

export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Parses `123`, `-0.5`, `100.00`; undefined for anything else (exponents, spaces, `.5`). */
export function parseDecimal(text: string): Decimal | undefined {
  const match = decimalPattern.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '0', fraction = ''] = match;
  const units = BigInt(`${whole}${fraction}`);
  return { units: sign ? -units : units, scale: fraction.length };
}

export function isDecimal(text: string): boolean {
  return decimalPattern.test(text);
}

function decimal(text: string): Decimal {
  const parsed = parseDecimal(text);
  if (!parsed) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
  return parsed;
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

function aligned(a: string, b: string): [bigint, bigint, number] {
  const x = decimal(a);
  const y = decimal(b);
  const scale = Math.max(x.scale, y.scale);
  return [rescale(x, scale), rescale(y, scale), scale];
}

/** The shortest form: no trailing fraction zeros, no `-0`. */
export function formatDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  let fraction = scale > 0 ? digits.slice(-scale) : '';
  digits = scale > 0 ? digits.slice(0, -scale) : digits;
  fraction = fraction.replace(/0+$/, '');
  const text = fraction ? `${digits}.${fraction}` : digits;
  return negative && text !== '0' ? `-${text}` : text;
}

export function normalize(a: string): string {
  const x = decimal(a);
  return formatDecimal(x.units, x.scale);
}

export function add(a: string, b: string): string {
  const [x, y, scale] = aligned(a, b);
  return formatDecimal(x + y, scale);
}

export function subtract(a: string, b: string): string {
  const [x, y, scale] = aligned(a, b);
  return formatDecimal(x - y, scale);
}

/** -1, 0 or 1. */
export function compare(a: string, b: string): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isZero(a: string): boolean {
  return decimal(a).units === 0n;
}

export function isNegative(a: string): boolean {
  return decimal(a).units < 0n;
}

export function sum(values: Iterable<string>): string {
  let total = '0';
  for (const value of values) total = add(total, value);
  return total;
}

/** a × b, exact. */
export function multiply(a: string, b: string): string {
  const x = decimal(a);
  const y = decimal(b);
  return formatDecimal(x.units * y.units, x.scale + y.scale);
}

/** The number of digits after the point as written (`100.00` has 2). */
export function decimalPlaces(a: string): number {
  return decimal(a).scale;
}

/** a ÷ 100, exact: a percentage as a ratio (`0.1` % of an amount is amount × 0.001). */
export function percent(a: string): string {
  const x = decimal(a);
  return formatDecimal(x.units, x.scale + 2);
}

/** `a` with at most `scale` digits after the point, rounded towards zero (down) or away from it (up). */
export function round(a: string, scale: number, direction: 'down' | 'up'): string {
  const x = decimal(a);
  if (x.scale <= scale) return formatDecimal(x.units, x.scale);
  const divisor = 10n ** BigInt(x.scale - scale);
  let units = x.units / divisor;
  if (direction === 'up' && units * divisor !== x.units) units += x.units < 0n ? -1n : 1n;
  return formatDecimal(units, scale);
}

/** a ÷ b with `scale` digits after the point, rounded towards zero; b must not be zero. */
export function divide(a: string, b: string, scale: number): string {
  const [x, y] = aligned(a, b);
  if (y === 0n) throw new Error('division by zero');
  return formatDecimal((x * 10n ** BigInt(scale)) / y, scale);
}

/** Whether a is a whole multiple of step (step above zero). */
export function isMultipleOf(a: string, step: string): boolean {
  const [x, y] = aligned(a, step);
  if (y <= 0n) throw new Error(`not a step: ${step}`);
  return x % y === 0n;
}

export function max(a: string, b: string): string {
  return compare(a, b) >= 0 ? a : b;
}
