// Decimal strings compared exactly, without Number: an order book's prices are kept as the server
// writes them (`"0.020850"`), and two spellings of one price (`"0.02085"`) are the same level. Only
// what the book needs: the format check, comparison and zero.

/** A non-negative decimal as the streams write prices and amounts: digits, at most one point. */
const decimalPattern = /^\d+(\.\d+)?$/;

export const isDecimal = (text: unknown): text is string =>
  typeof text === 'string' && decimalPattern.test(text);

/** The integer part without leading zeros and the fraction without trailing ones. */
function parts(text: string): [string, string] {
  const point = text.indexOf('.');
  const whole = (point < 0 ? text : text.slice(0, point)).replace(/^0+/, '');
  const fraction = point < 0 ? '' : text.slice(point + 1).replace(/0+$/, '');
  return [whole, fraction];
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b` (both decimals, see isDecimal). */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  const [wholeA, fractionA] = parts(a);
  const [wholeB, fractionB] = parts(b);
  if (wholeA.length !== wholeB.length) return wholeA.length < wholeB.length ? -1 : 1;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  // Same integer part: the fractions compare as strings, the shorter padded with zeros.
  const length = Math.max(fractionA.length, fractionB.length);
  const paddedA = fractionA.padEnd(length, '0');
  const paddedB = fractionB.padEnd(length, '0');
  return paddedA === paddedB ? 0 : paddedA < paddedB ? -1 : 1;
}

export const isZeroDecimal = (text: string): boolean => /^0+(\.0+)?$/.test(text);
