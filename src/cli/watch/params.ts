// A subscribe's params as `txc watch` takes them, read from its facts (generated/streams.ts,
// streamParams): the first position, when it is a value or a list of values (a market, the
// markets), or the whole list of a channel whose params are a plain list (the markets of trades,
// the assets of a balance), is the argument after the channel; every other named position of a
// tuple is a flag, named by its x-field-name in kebab case, typed, described and parsed as a
// body field's flag is (flags.ts). A position left unset takes the value of the documents' first
// example, and --help says which; the argument never does (an example's market is not one the
// caller chose). Values are checked by the HTTP client's own rules before anything is sent.
import type { StreamValueShape } from '../../../generated/streams.ts';
import { type BodyRules, checkBody, type FieldRule } from '../../request-checks.ts';
import { bodyFrom, type FieldFlag, fieldFlags, flagOfField } from '../flags.ts';
import type { BodyFacts, FieldFacts } from '../operations.ts';

/** The argument after the channel: what it fills and how --help names it. */
export interface ParamsArgument {
  /** `market`, `markets`, or for a plain list the name the documents give its items elsewhere. */
  readonly label: string;
  /** Whether it takes several values (a list). */
  readonly variadic: boolean;
  readonly required: boolean;
  readonly description: string;
}

/** What a caller gave: the argument's values and the flags' parsed values. */
export interface GivenParams {
  readonly argument: readonly string[];
  readonly values: Readonly<Record<string, unknown>>;
  readonly attributeOf: (flag: FieldFlag) => string;
}

export type BuiltParams =
  | { readonly params: unknown[] }
  | { readonly violation: { readonly message: string; readonly flag: string | undefined } };

export interface ChannelParams {
  /** Each position's name (x-field-name), for a tuple; empty for a list. */
  readonly names: readonly (string | undefined)[];
  readonly argument: ParamsArgument | undefined;
  readonly flags: readonly FieldFlag[];
  /** The params to send, or what is wrong with what was given. */
  build(given: GivenParams): BuiltParams;
}

const isScalarType = (type: unknown) => type === 'string' || type === 'integer' || type === 'number';

/** Whether the argument can fill a position: a value, or a list of values. */
const takesArgument = (shape: StreamValueShape) =>
  isScalarType(shape.type) || (shape.type === 'array' && isScalarType(shape.items?.type));

/** A shape as the client's field rules (engine.ts) check it. */
function ruleOf(shape: StreamValueShape): FieldRule {
  const { type, pattern, minLength, enum: values, minItems, maxItems, items } = shape;
  return {
    ...(type !== undefined && { type }),
    ...(pattern !== undefined && { pattern }),
    ...(minLength !== undefined && { minLength }),
    ...(values !== undefined && { enum: values }),
    ...(minItems !== undefined && { minItems }),
    ...(maxItems !== undefined && { maxItems }),
    ...(items !== undefined && { items: ruleOf(items) }),
  };
}

/** A shape as a flag's facts (flags.ts); `example` is said in the description. */
function factsOf(shape: StreamValueShape, example?: unknown): FieldFacts {
  const unset =
    example === undefined ? '' : ` Unset: ${JSON.stringify(example)}, as in the documents' example.`;
  const description = `${shape.description ?? ''}${unset}`.trim();
  return {
    ...(shape.type !== undefined && { type: shape.type }),
    ...(description && { description }),
    ...(shape.enum !== undefined && { enum: shape.enum }),
    ...(shape.enumNames !== undefined && { enumNames: shape.enumNames }),
    ...(shape.pattern !== undefined && { pattern: shape.pattern }),
    ...(shape.minLength !== undefined && { minLength: shape.minLength }),
    ...(shape.items !== undefined && { items: factsOf(shape.items) }),
  };
}

/** A shape without what only describes or names it: two positions of one schema compare equal. */
const schemaKey = ({ name: _name, ...rest }: StreamValueShape) => JSON.stringify(rest);

/**
 * The name the documents give a value of this schema where a request's tuple names one (a list of
 * `Market`s is a list of what another request's tuple calls `market`); `value` where none does.
 */
function itemLabel(items: StreamValueShape | undefined, named: ReadonlyMap<string, string>): string {
  return (items && named.get(schemaKey(items))) ?? 'value';
}

/** The flags' facts and rules: each named position from `from` on. */
function flaggedPositions(
  positions: readonly StreamValueShape[],
  from: number,
  example: readonly unknown[],
): { body: BodyFacts; rules: BodyRules } {
  const properties: Record<string, FieldFacts> = {};
  const rules: Record<string, FieldRule> = {};
  for (const [index, position] of positions.entries()) {
    if (index < from || !position.name) continue;
    properties[position.name] = factsOf(position, example[index]);
    rules[position.name] = ruleOf(position);
  }
  return { body: { required: [], properties }, rules: { required: [], properties: rules } };
}

function violation(message: string, flag?: string): BuiltParams {
  return { violation: { message, flag } };
}

/** A tuple's params: the argument fills its first position where it can, flags the others. */
function tupleParams(
  shape: StreamValueShape,
  positions: readonly StreamValueShape[],
  example: readonly unknown[],
): ChannelParams {
  const first = positions[0];
  const fills = first?.name !== undefined && takesArgument(first) ? first : undefined;
  const flagged = flaggedPositions(positions, fills ? 1 : 0, example);
  const flags = fieldFlags(flagged.body);
  const argument: ParamsArgument | undefined = fills && {
    label: fills.name as string,
    variadic: fills.type === 'array',
    // A list may be empty where its schema allows; a value has nothing to stand in for it.
    required: fills.type !== 'array' || (fills.minItems ?? 0) > 0,
    description: (fills.type === 'array' ? fills.items?.description : fills.description) ?? '',
  };
  const rules: BodyRules = {
    required: [],
    properties: { ...flagged.rules.properties, ...(fills && { [fills.name as string]: ruleOf(fills) }) },
  };
  return {
    names: positions.map((position) => position.name),
    argument,
    flags,
    build({ argument: given, values, attributeOf }) {
      const body = bodyFrom(flags, values, attributeOf);
      if (fills) {
        const name = fills.name as string;
        if (fills.type === 'array') body[name] = [...given];
        else if (given[0] !== undefined) body[name] = given[0];
        else return violation(`${name} is required`);
      }
      const problem = checkBody(rules, body);
      if (problem) return violation(problem.message, flagOfField(flags, problem.field));
      const params = positions.map((position, index) =>
        position.name !== undefined && body[position.name] !== undefined
          ? body[position.name]
          : example[index],
      );
      // Positions the documents neither name nor exemplify: the tuple ends before them, if it may.
      const length = Math.max(shape.minItems ?? 0, params.findLastIndex((param) => param !== undefined) + 1);
      return { params: params.slice(0, length) };
    },
  };
}

/** A plain list's params (markets, assets): the argument's values, or none. */
function listParams(shape: StreamValueShape, named: ReadonlyMap<string, string>): ChannelParams {
  const label = itemLabel(shape.items, named);
  const single = shape.maxItems === 1;
  const rules: BodyRules = { required: [], properties: { [label]: ruleOf(shape) } };
  return {
    names: [],
    argument: {
      label,
      variadic: !single,
      required: (shape.minItems ?? 0) > 0,
      description: shape.items?.description ?? shape.description ?? '',
    },
    flags: [],
    build({ argument: given }) {
      const problem = checkBody(rules, { [label]: [...given] });
      if (problem) return violation(problem.message);
      return { params: [...given] };
    },
  };
}

const noParams: ChannelParams = {
  names: [],
  argument: undefined,
  flags: [],
  build: () => ({ params: [] }),
};

/**
 * The params of a subscribe from its facts; `named` maps each schema a request's tuple names to
 * that name (see namedSchemas).
 */
export function channelParams(
  facts: { readonly shape: StreamValueShape; readonly example: unknown },
  named: ReadonlyMap<string, string>,
): ChannelParams {
  const { shape } = facts;
  const example = Array.isArray(facts.example) ? facts.example : [];
  if (shape.positions) return tupleParams(shape, shape.positions, example);
  if (shape.maxItems === 0 || !shape.items) return noParams;
  return listParams(shape, named);
}

/** Each schema that a position of a request's tuple has, mapped to that position's name. */
export function namedSchemas(
  requests: Iterable<{ readonly shape: StreamValueShape; readonly example: unknown }>,
): Map<string, string> {
  const named = new Map<string, string>();
  for (const { shape, example } of requests) {
    if (example === null) continue;
    for (const position of shape.positions ?? []) {
      if (position.name && !named.has(schemaKey(position))) named.set(schemaKey(position), position.name);
    }
  }
  return named;
}
