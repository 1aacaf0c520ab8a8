// Flags come from the body facts alone: a field added to a document becomes a flag with its
// help, and values are converted only where the field's type makes it unambiguous.
import { describe, expect, it } from 'vitest';
import {
  bodyFrom,
  commanderOption,
  commanderOptions,
  fieldFlag,
  fieldFlags,
  fieldValue,
  flagHelp,
  flagName,
  takesJson,
} from '../../src/cli/flags.ts';
import type { BodyFacts, FieldFacts } from '../../src/cli/operations.ts';

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

  it("names a field by its x-cli-flag where it has one, keeping its own name's flag as the alias", () => {
    const renamed = fieldFlags({
      required: [],
      properties: {
        plan: { type: 'string', cliFlag: 'plan-id' },
        planId: { type: 'string', cliFlag: 'plan-id' },
      },
    });
    expect(renamed.map(({ field, flag, alias }) => ({ field, flag, alias }))).toEqual([
      { field: 'plan', flag: '--plan-id', alias: '--plan' },
      // Its own name already gives the flag: no alias.
      { field: 'planId', flag: '--plan-id', alias: undefined },
    ]);
    expect(fieldFlag('activation_price', { type: 'string' })).toBe('--activation-price');
    expect(fieldFlag('type', { type: 'array', cliFlag: 'types' })).toBe('--types');
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

  it('takes JSON for objects and lists of objects, null for a nullable field, --no- for false', () => {
    const legs: FieldFacts = {
      type: 'array',
      items: {
        type: 'object',
        required: ['at'],
        properties: { at: { type: 'string' }, size: { type: 'integer' } },
      },
    };
    const timer: FieldFacts = { anyOf: [{ type: 'string', pattern: '^[0-9]+$' }, { type: 'null' }] };
    const kinds: FieldFacts = {
      anyOf: [{ type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, { type: 'null' }],
    };
    expect(takesJson(legs)).toBe(true);
    expect(fieldValue(legs, '[{"at":"x","size":2}]')).toEqual([{ at: 'x', size: 2 }]);
    // Not JSON: left as typed, for the client's check to name the field.
    expect(fieldValue(legs, '[{at')).toBe('[{at');
    expect(fieldValue(timer, 'null')).toBeNull();
    expect(fieldValue(timer, '60')).toBe('60');
    const flags = fieldFlags({ required: [], properties: { legs, timer, kinds, post: { type: 'boolean' } } });
    const [legsFlag, timerFlag, kindsFlag, postFlag] = flags;
    expect(flagHelp(legsFlag as never)).toBe('[JSON list; each item { at, size? }]');
    expect(flagHelp(timerFlag as never)).toBe('[string or null; null sends null]');
    expect(flagHelp(kindsFlag as never)).toContain('one of a, b');
    expect(commanderOptions(postFlag as never).map((option) => option.long)).toEqual(['--post', '--no-post']);
    const collect = commanderOptions(kindsFlag as never)[0]?.parseArg as (
      value: string,
      previous: unknown,
    ) => string[];
    expect(
      bodyFrom(flags, { kinds: collect('a,b', undefined), timer: 'null', post: false }, (flag) => flag.field),
    ).toEqual({
      kinds: ['a', 'b'],
      timer: null,
      post: false,
    });
    expect(bodyFrom(flags, { kinds: ['null'] }, (flag) => flag.field)).toEqual({ kinds: null });
  });
});
