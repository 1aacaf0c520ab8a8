// The display facts of answers come from the documents' schemas: x-unix-time marks a time,
// x-enum-varnames names the codes, and branches without either are left out.
import { describe, expect, it } from 'vitest';
import { answerShapes } from '../../generated/answers.ts';
import { loadApiDocuments } from '../../model/document.ts';
import { answerShape, collectAnswerShapes } from '../../scripts/answer-shapes.ts';

describe('answer shapes', () => {
  it('keeps only the branches that lead to a time or a named code, through allOf and arrays', () => {
    const shape = answerShape({
      type: 'object',
      properties: {
        id: { type: 'string' },
        rows: {
          type: 'array',
          items: {
            allOf: [
              { properties: { at: { type: 'integer', 'x-unix-time': 'milliseconds' } } },
              { properties: { kind: { enum: [1, 2], 'x-enum-varnames': ['ONE', 'TWO'] }, note: {} } },
            ],
          },
        },
        byTicker: { additionalProperties: { properties: { since: { 'x-unix-time': 'seconds' } } } },
      },
    });
    expect(shape).toEqual({
      properties: {
        rows: {
          items: {
            properties: {
              at: { unixTime: 'milliseconds' },
              kind: { enum: [1, 2], enumNames: ['ONE', 'TWO'] },
            },
          },
        },
        byTicker: { additionalProperties: { properties: { since: { unixTime: 'seconds' } } } },
      },
    });
    expect(answerShape({ type: 'object', properties: { id: { type: 'string' } } })).toBeUndefined();
  });

  it('is what generated/answers.ts holds, and finds the history dates and action types', () => {
    const shapes = collectAnswerShapes(loadApiDocuments());
    expect(answerShapes).toEqual(shapes);
    const record = Object.values(shapes)
      .map((shape) => shape.properties?.data?.items?.properties)
      .find((properties) => properties?.createdAt);
    expect(record?.createdAt).toEqual({ unixTime: 'seconds' });
    expect(record?.actionType?.enumNames).toContain('INVEST');
  });
});
