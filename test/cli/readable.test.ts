// Tables show dates and named codes from the answer's shape in the documents; the answer itself
// (what --json prints) is never changed.
import { describe, expect, it } from 'vitest';
import { answerShapes } from '../../generated/answers.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { isoTime, readable } from '../../src/cli/output/readable.ts';

// The operation whose answer pages through records with a date and an action type.
const history = cliOperations.find(
  (operation) => answerShapes[operation.facts.operationId]?.properties?.data?.items?.properties?.createdAt,
);

describe('readable answers', () => {
  it('writes Unix times as ISO 8601 in UTC, milliseconds only when there are some', () => {
    expect(isoTime(1699000000, 'seconds')).toBe('2023-11-03T08:26:40Z');
    expect(isoTime('1699000000', 'seconds')).toBe('2023-11-03T08:26:40Z');
    expect(isoTime(1699000000123, 'milliseconds')).toBe('2023-11-03T08:26:40.123Z');
    expect(isoTime(0, 'seconds')).toBe('1970-01-01T00:00:00Z');
    expect(isoTime('soon', 'seconds')).toBeUndefined();
    expect(isoTime(1e20, 'seconds')).toBeUndefined();
  });

  it('names the codes and dates the times of the history, leaving the answer untouched', () => {
    if (!history) throw new Error('no operation answers records with a createdAt date');
    const answer = {
      limit: 50,
      offset: 0,
      data: [
        { createdAt: 1699000000, amount: '100.00', actionType: 1 },
        { createdAt: 1699086400, amount: '0.0274', actionType: 4 },
        { createdAt: 'later', amount: '1', actionType: 99 },
      ],
    };
    const before = structuredClone(answer);
    expect(readable(answer, answerShapes[history.facts.operationId])).toEqual({
      limit: 50,
      offset: 0,
      data: [
        { createdAt: '2023-11-03T08:26:40Z', amount: '100.00', actionType: 'INVEST' },
        { createdAt: '2023-11-04T08:26:40Z', amount: '0.0274', actionType: 'DAILY_EARNING' },
        // What the documents do not name is shown as it came.
        { createdAt: 'later', amount: '1', actionType: 99 },
      ],
    });
    expect(answer).toEqual(before);
  });

  it('leaves an answer without a shape as it is', () => {
    const answer = { BTC: { main_balance: '1.5', since: 1699000000 } };
    expect(readable(answer, undefined)).toBe(answer);
    expect(
      readable(answer, { additionalProperties: { properties: { since: { unixTime: 'seconds' } } } }),
    ).toEqual({
      BTC: { main_balance: '1.5', since: '2023-11-03T08:26:40Z' },
    });
  });
});
