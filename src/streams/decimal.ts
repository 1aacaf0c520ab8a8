// Decimal strings compared exactly, without Number: an order book's prices are kept as the server
// writes them (`"0.020850"`), and two spellings of one price (`"0.02085"`) are the same level. Only
// what the book needs: the format check, comparison and zero.

/** A non-negative decimal as the streams write prices and amounts: digits, at most one point. */
const decimalPattern = /^\d+(\.\d+)?$/;

export const isDecimal = (text: unknown): text is string =>
  typeof text === 'string' && decimalPattern.test(text);

const zero = 48;
const point = 46;

/** Where the integer part ends: the point, or the end. */
function pointOf(text: string): number {
  const index = text.indexOf('.');
  return index < 0 ? text.length : index;
}

/** Where the integer part's first significant digit is (its end when it is all zeros). */
function firstDigit(text: string, end: number): number {
  let index = 0;
  while (index < end && text.charCodeAt(index) === zero) index++;
  return index;
}

/**
 * -1, 0 or 1 as `a` is less than, equal to or greater than `b` (both decimals, see isDecimal).
 * Digit by digit, in place: an order book compares prices several times for every level of every
 * update, so nothing is allocated here.
 */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  if (a === b) return 0;
  const pointA = pointOf(a);
  const pointB = pointOf(b);
  // As many digits before the point and after it (a market's prices at its precision, nearly
  // always): the digits compare as the strings do.
  if (pointA === pointB && a.length === b.length) return a < b ? -1 : 1;
  const startA = firstDigit(a, pointA);
  const startB = firstDigit(b, pointB);
  // More digits before the point, without leading zeros: the larger.
  const wholeA = pointA - startA;
  if (wholeA !== pointB - startB) return wholeA < pointB - startB ? -1 : 1;
  for (let index = 0; index < wholeA; index++) {
    const digitA = a.charCodeAt(startA + index);
    const digitB = b.charCodeAt(startB + index);
    if (digitA !== digitB) return digitA < digitB ? -1 : 1;
  }
  // The fractions, the shorter one read on with zeros.
  for (let index = 1; pointA + index < a.length || pointB + index < b.length; index++) {
    const digitA = pointA + index < a.length ? a.charCodeAt(pointA + index) : zero;
    const digitB = pointB + index < b.length ? b.charCodeAt(pointB + index) : zero;
    if (digitA !== digitB) return digitA < digitB ? -1 : 1;
  }
  return 0;
}

/** Whether a decimal (see isDecimal) is zero, however many zeros it is written with. */
export function isZeroDecimal(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== zero && code !== point) return false;
  }
  return text.length > 0;
}
