// The `params` of every stream message a client sends or reads, for generated/streams.ts: what a
// program needs to write a request's params or to show an update's without reading the documents
// (txc watch makes its arguments and flags from a subscribe's, and names the columns of an
// update's). A request's params are described in full (type, enum and what each value means,
// pattern, description, bounds), with its first example's params; an update's only where they say
// something a reader shows: a position's name (x-field-name), a Unix time (x-unix-time), a named
// code (x-enum-varnames, x-enum-descriptions).
import { arrayAt, at, isRecord, type JsonRecord, recordAt } from '../model/json.ts';
import { messageMethod, type StreamDocument } from '../model/streams.ts';

export interface StreamValueShape {
  name?: string;
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  enumNames?: string[];
  enumDescriptions?: string[];
  pattern?: string;
  minLength?: number;
  minItems?: number;
  maxItems?: number;
  unixTime?: 'seconds' | 'milliseconds';
  positions?: StreamValueShape[];
  items?: StreamValueShape;
  properties?: Record<string, StreamValueShape>;
  additionalProperties?: StreamValueShape;
}

const isEmpty = (shape: StreamValueShape) => Object.keys(shape).length === 0;

/** The parts of a schema that describe a value a caller writes. */
function writtenFacts(schema: JsonRecord, shape: StreamValueShape): void {
  const { type, description, pattern, minLength, minItems, maxItems } = schema;
  if (typeof type === 'string' || Array.isArray(type)) shape.type = type as string | string[];
  if (typeof description === 'string') shape.description = description.replace(/\s+/g, ' ').trim();
  if (typeof pattern === 'string') shape.pattern = pattern;
  if (typeof minLength === 'number') shape.minLength = minLength;
  if (typeof minItems === 'number') shape.minItems = minItems;
  if (typeof maxItems === 'number') shape.maxItems = maxItems;
}

/**
 * A schema's shape: in full for a request's params (`written`), else only the branches that lead
 * to a name, a time or a named code (undefined when none does).
 */
export function valueShape(schema: unknown, written: boolean): StreamValueShape | undefined {
  if (!isRecord(schema)) return undefined;
  const shape: StreamValueShape = {};
  const name = schema['x-field-name'];
  if (typeof name === 'string') shape.name = name;
  if (written) writtenFacts(schema, shape);
  const unit = schema['x-unix-time'];
  if (unit === 'seconds' || unit === 'milliseconds') shape.unixTime = unit;
  const names = schema['x-enum-varnames'];
  const meanings = schema['x-enum-descriptions'];
  if (Array.isArray(schema.enum) && (written || Array.isArray(names) || Array.isArray(meanings))) {
    shape.enum = [...schema.enum];
    if (Array.isArray(names)) shape.enumNames = names.map(String);
    if (Array.isArray(meanings)) shape.enumDescriptions = meanings.map(String);
  }
  // A tuple is `items` written as a list (AsyncAPI's schemas are draft-07's).
  if (Array.isArray(schema.items)) {
    const positions = schema.items.map((item) => valueShape(item, written) ?? {});
    if (positions.some((position) => !isEmpty(position))) shape.positions = positions;
  } else {
    const items = valueShape(schema.items, written);
    if (items) shape.items = items;
  }
  // Every part of a composition: a field means the same thing in each of them.
  const parts = [schema, ...arrayAt(schema, 'allOf')];
  const properties: Record<string, StreamValueShape> = {};
  for (const part of parts) {
    for (const [key, property] of Object.entries(recordAt(part, 'properties'))) {
      const inner = valueShape(property, written);
      if (inner) properties[key] = { ...properties[key], ...inner };
    }
  }
  if (!isEmpty(properties)) shape.properties = properties;
  const additional = valueShape(schema.additionalProperties, written);
  if (additional) shape.additionalProperties = additional;
  return isEmpty(shape) ? undefined : shape;
}

export interface StreamParamsFacts {
  shape: StreamValueShape;
  /** A request's first example's params; null for an update. */
  example: unknown;
}

/**
 * The params of every message with a method, by method: a request's (a message of a `receive`
 * operation) in full with its first example's, an update's as a reader shows them.
 */
export function collectStreamParams(documents: StreamDocument[]): Record<string, StreamParamsFacts> {
  const params: Record<string, StreamParamsFacts> = {};
  for (const stream of documents) {
    const received = new Set(
      Object.values(recordAt(stream.dereferenced, 'operations'))
        .filter((operation) => isRecord(operation) && operation.action === 'receive')
        .flatMap((operation) => [at(operation, 'messages')].flat())
        .filter(isRecord),
    );
    for (const channel of Object.values(recordAt(stream.dereferenced, 'channels'))) {
      for (const message of Object.values(recordAt(channel, 'messages')).filter(isRecord)) {
        const method = messageMethod(message);
        if (!method || params[method]) continue;
        // The operations' messages are the channels' own objects, dereferenced in place.
        const request = [...received].some((sent) => sent.name === message.name);
        const schema = at(message, 'payload', 'properties', 'params');
        params[method] = {
          shape: valueShape(schema, request) ?? {},
          example: request ? (at(message, 'examples', 0, 'payload', 'params') ?? null) : null,
        };
      }
    }
  }
  return params;
}

export const streamParamTypes = `/** What a value of a message's params holds, as a client writes it or a reader shows it. */
export interface StreamValueShape {
  /** The name of a tuple's position (x-field-name). */
  readonly name?: string;
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly enum?: readonly unknown[];
  /** Names of the enum values, in order (x-enum-varnames). */
  readonly enumNames?: readonly string[];
  /** What each enum value means, in order (x-enum-descriptions). */
  readonly enumDescriptions?: readonly string[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** The value is a Unix time in this unit (x-unix-time). */
  readonly unixTime?: 'seconds' | 'milliseconds';
  /** A tuple: each position, in order. */
  readonly positions?: readonly StreamValueShape[];
  /** A list: its items. */
  readonly items?: StreamValueShape;
  readonly properties?: Readonly<Record<string, StreamValueShape>>;
  readonly additionalProperties?: StreamValueShape;
}

/**
 * A message's params: a request's described in full, with its first example's params; an update's
 * only where they hold a name, a time or a named code (example null).
 */
export interface StreamParamsFacts {
  readonly shape: StreamValueShape;
  readonly example: unknown;
}
`;
