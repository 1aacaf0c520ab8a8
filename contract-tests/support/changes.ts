// A money flow as a link declares it (`x-stateful: changes`): following the link after the call
// shows a balance moved by the call's amount, down or up as the call's own fields say (a transfer
// from main lowers the main balance, one to main raises it, one between two other balances leaves
// it as it was). The stateful run reads the balance before the call and after it; a refused call
// must leave it as it was. Amounts are compared as exact decimals, never as numbers.
import { isRecord } from '../../model/json.ts';
import { add, compare, normalize, parseDecimal, subtract } from '../../sandbox/decimal.ts';
import { type Exchange, linkValue, pointer } from './links.ts';

export interface Changes {
  /** A JSON pointer into the target's answer, `{expression}` parts filled from the call. */
  at: string;
  /** The amount moved: a runtime expression such as `$request.body#/amount`. */
  by: string;
  /** The balance falls by `by` when the call's body has every field of any one of these. */
  down?: Record<string, unknown>[];
  /** It rises by `by` when the call's body has every field of any one of these. */
  up?: Record<string, unknown>[];
  /** What a balance the answer leaves out holds (an answer that omits zero balances: `'0'`). */
  absent?: string;
}

/** The declaration's shape problems, in words (empty when it can be checked). */
export function changesProblems(changes: unknown): string[] {
  if (!isRecord(changes)) return ['changes is not an object'];
  const problems: string[] = [];
  if (typeof changes.at !== 'string' || !changes.at.startsWith('/'))
    problems.push('at is not a JSON pointer');
  if (typeof changes.by !== 'string') problems.push('by is not a runtime expression');
  for (const way of ['down', 'up'] as const) {
    const cases = changes[way];
    if (cases !== undefined && !(Array.isArray(cases) && cases.every(isRecord)))
      problems.push(`${way} is not a list of field values`);
  }
  if (changes.down === undefined && changes.up === undefined) problems.push('neither down nor up is given');
  if (changes.absent !== undefined && !(typeof changes.absent === 'string' && parseDecimal(changes.absent)))
    problems.push('absent is not a decimal string');
  return problems;
}

/** The pointer with each `{expression}` part replaced by its value in the call (escaped). */
function pointerOf(changes: Changes, exchange: Exchange): string {
  return changes.at.replace(/\{([^}]+)\}/g, (_, expression: string) =>
    String(linkValue(expression, exchange)).replaceAll('~', '~0').replaceAll('/', '~1'),
  );
}

const matchesAny = (cases: Record<string, unknown>[] | undefined, request: Record<string, unknown>) =>
  (cases ?? []).some((fields) => Object.entries(fields).every(([field, value]) => request[field] === value));

/** How much the balance must move: `-by`, `by`, or 0 when the call's fields say neither. */
export function expectedMove(changes: Changes, exchange: Exchange): string {
  const amount = String(linkValue(changes.by, exchange));
  if (!parseDecimal(amount))
    throw new Error(`x-stateful changes: by (${changes.by}) is not a decimal: ${amount}`);
  if (matchesAny(changes.down, exchange.request)) return subtract('0', amount);
  if (matchesAny(changes.up, exchange.request)) return amount;
  return '0';
}

/** The balance a link's answer shows, or why it shows none. */
export function balanceIn(
  changes: Changes,
  exchange: Exchange,
  answer: unknown,
): string | { problem: string } {
  const at = pointerOf(changes, exchange);
  const value = pointer(answer, at);
  if (typeof value === 'string' && parseDecimal(value)) return value;
  if (value === undefined && changes.absent !== undefined) return changes.absent;
  return { problem: `no decimal at ${at} (${JSON.stringify(value)})` };
}

/**
 * The problem with a move, or undefined: the balance after must be the balance before plus the
 * expected move (`expected` 0 for a refused call).
 */
export function moveProblem(
  changes: Changes,
  exchange: Exchange,
  answers: { before: unknown; after: unknown },
  expected: string,
): string | undefined {
  const before = balanceIn(changes, exchange, answers.before);
  const after = balanceIn(changes, exchange, answers.after);
  if (typeof before !== 'string') return `before the call: ${before.problem}`;
  if (typeof after !== 'string') return `after the call: ${after.problem}`;
  if (compare(after, add(before, expected)) === 0) return undefined;
  return `${pointerOf(changes, exchange)} went from ${before} to ${after}: moved ${normalize(subtract(after, before))}, expected ${normalize(expected)}`;
}
