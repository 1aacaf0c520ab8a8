// A JSON pointer's steps (model/json.ts pointerSteps), which every reader of a pointer in the
// project goes through: the dereferencer, the stream lint, the token source's field and the
// contract suite's links.
import { describe, expect, it } from 'vitest';
import { atPointer } from '../../model/document.ts';
import { pointerSteps } from '../../model/json.ts';

describe('pointerSteps', () => {
  it('splits a pointer into its keys, ~1 read as / and ~0 as ~, in that order', () => {
    expect(pointerSteps('')).toEqual([]);
    expect(pointerSteps('/data/token')).toEqual(['data', 'token']);
    expect(pointerSteps('/content/application~1json/schema')).toEqual([
      'content',
      'application/json',
      'schema',
    ]);
    // ~01 is a literal "~1", not a slash.
    expect(pointerSteps('/a~01b/~0')).toEqual(['a~1b', '~']);
    expect(pointerSteps('/')).toEqual(['']);
  });

  it('is how atPointer walks a document', () => {
    const document = { content: { 'application/json': { schema: { type: 'string' } } }, list: ['x', 'y'] };
    expect(atPointer(document, '/content/application~1json/schema')).toEqual({ type: 'string' });
    expect(atPointer(document, '/list/1')).toBe('y');
    expect(atPointer(document, '/content/missing')).toBeUndefined();
  });
});
