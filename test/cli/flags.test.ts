// Flags come from the body facts alone: a field added to a document becomes a flag with its
// help, and values are converted only where the field's type makes it unambiguous.
import { describe, expect, it } from 'vitest';
import {
  bodyFrom,
  commanderOption,
  fieldFlags,
  fieldValue,
  flagHelp,
  flagName,
} from '../../src/cli/flags.ts';
import type { BodyFacts } from '../../src/cli/operations.ts';

const body: BodyFacts = {
  required: ['newField'],
  properties: {
    newField: { type: 'string', description: 'A field the document just gained.', pattern: '^[a-z]+$' },
    snake_case: { type: 'integer', default: 5 },
    kinds: { type: 'array', items: { type: 'integer', enum: [1, 2], enumNames: ['ONE', 'TWO'] } },
    flag: { type: 'boolean' },
  },
};

describe('flags from the schema', () => {
  it('names a flag per field, in kebab case', () => {
    expect(fieldFlags(body).map((flag) => flag.flag)).toEqual([
      '--new-field',
      '--snake-case',
      '--kinds',
      '--flag',
    ]);
    expect(flagName('planId')).toBe('--plan-id');
  });

  it('puts description, type, values, default and required in the help', () => {
    const [newField, snake, kinds] = fieldFlags(body);
    expect(flagHelp(newField as never)).toBe('A field the document just gained. [string; required]');
    expect(flagHelp(snake as never)).toBe('[integer; server default 5]');
    expect(flagHelp(kinds as never)).toContain(
      'one of 1 (ONE), 2 (TWO); repeat the flag or separate with commas',
    );
  });

  it('converts integers and enum names, and leaves anything else as typed for the validator', () => {
    expect(fieldValue({ type: 'integer' }, '42')).toBe(42);
    expect(fieldValue({ type: 'integer' }, '4.2')).toBe('4.2');
    expect(fieldValue({ type: 'integer' }, '99999999999999999999')).toBe('99999999999999999999');
    expect(fieldValue({ type: 'integer', enum: [1, 2], enumNames: ['ONE', 'TWO'] }, 'two')).toBe(2);
    expect(fieldValue({ type: 'string' }, '0.10')).toBe('0.10');
  });

  it('collects repeated and comma-separated values of an array flag', () => {
    const flags = fieldFlags(body);
    const kinds = flags.find((flag) => flag.field === 'kinds');
    if (!kinds) throw new Error('no kinds flag');
    const option = commanderOption(kinds);
    const collect = option.parseArg as (value: string, previous: unknown) => string[];
    const values = collect('TWO', collect('1,2', undefined));
    expect(bodyFrom(flags, { kinds: values, newField: 'abc' }, (flag) => flag.field)).toEqual({
      newField: 'abc',
      kinds: [1, 2, 2],
    });
  });
});
