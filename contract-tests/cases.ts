// The contract cases of each operation, derived from its document; no operation is named here.
// Invalid inputs come from the request schema: for each caller field (and each field of the
// objects inside its arrays), a value of the wrong type, one outside its enum, past its pattern,
// format, length, bounds or item counts, and each required field left out. Failures that any
// server gives whatever its state come from the named error examples that say, in
// `x-caused-by`, which request fields cause them.
import { isRecord, type JsonRecord } from '../model/json.ts';
import { callerBody, type Model, type OperationId, signedFields } from './support/documents.ts';

export interface InvalidInput {
  /** The field and the rule it breaks, e.g. `orders.3.price breaks its pattern`. */
  name: string;
  /** The whole caller body: the first request example with one value broken. */
  body: Record<string, unknown>;
  /**
   * The field both the client and the document must name (a path such as `orders.3.price`; a
   * refusal naming a field below it, `type.0` for `type`, names it too).
   */
  field: string;
  /** The kind of rule broken: `type`, `enum`, `pattern`, `format`, `minimum`, … */
  rule: string;
  /**
   * Whether the broken body can be sent raw and still be broken: always for a JSON body; for a
   * GET, only when the value stays invalid once written as text in its URL (7 for a string does
   * not) and a path parameter is not left out (that is another path).
   */
  raw: boolean;
}

export interface ReproducibleFailure {
  /** The named example of a declared error response. */
  example: string;
  status: number;
  /** The example's `x-caused-by`: the fields that cause it. */
  causes: Record<string, unknown>;
  /** The first request example with those fields over it. */
  body: Record<string, unknown>;
  /** The fields the example's `errors` name. */
  fields: string[];
}

type Path = readonly (string | number)[];

interface Broken {
  /** Where the broken value goes in the body. */
  at: Path;
  /** Undefined: the field is left out. */
  value: unknown;
  rule: string;
  how: string;
  /** The field a refusal names: the broken one, or the field above a choice of forms (anyOf). */
  named: Path;
  /** The broken field, for the case's name (below `at` when an array's item is broken). */
  where: Path;
}

const jsonTypes: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === 'number',
  boolean: (value) => typeof value === 'boolean',
  array: (value) => Array.isArray(value),
  object: (value) => isRecord(value),
  null: (value) => value === null,
};

/** Values of every JSON type, tried in order for one that a schema's types do not allow. */
const typeCandidates: readonly unknown[] = [7, 'seven', true, 1.5, ['seven'], { seven: 7 }, null];

/** Strings tried in order for one that breaks a pattern. */
const patternCandidates = ['has space', '!', '-1', '1e5', 'lower_case', 'A', '', '0'];

function typesOf(schema: JsonRecord): string[] | undefined {
  if (Array.isArray(schema.anyOf)) {
    const forms = schema.anyOf.filter(isRecord).map(typesOf);
    return forms.every((types) => types !== undefined) ? (forms.flat() as string[]) : undefined;
  }
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  return undefined;
}

/** A valid value of a schema when no example gives one: its const, first enum value or default. */
function sampleOf(schema: JsonRecord): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  return schema.default;
}

/**
 * Every way to break `schema` at `at`, starting from `valid` (the example's value there, if it
 * has one). Under a choice of forms (anyOf) the refusal names the field of the choice.
 */
function breakings(schema: JsonRecord, at: Path, valid: unknown, choice?: Path): Broken[] {
  const out: Broken[] = [];
  const named = choice ?? at;
  const push = (value: unknown, rule: string, how: string) =>
    out.push({ at, value, rule, how, named, where: at });
  const types = typesOf(schema);
  if (types) {
    const wrong = typeCandidates.find((value) => !types.some((type) => jsonTypes[type]?.(value)));
    push(wrong, 'type', `not ${types.join(' or ')}`);
  }
  if (Array.isArray(schema.anyOf)) {
    // A form's own rules (the kinds a nullable list holds) are broken inside it.
    for (const form of schema.anyOf.filter(isRecord)) {
      if (form.type === 'null') continue;
      out.push(...breakings(form, at, valid, named).filter((broken) => broken.rule !== 'type'));
    }
    return out;
  }
  const enumValues = Array.isArray(schema.enum)
    ? schema.enum
    : schema.const !== undefined
      ? [schema.const]
      : undefined;
  if (enumValues) {
    const numeric = enumValues.every((value) => typeof value === 'number');
    push(numeric ? Math.max(...(enumValues as number[])) + 1 : 'not-one-of-them', 'enum', 'outside its enum');
  }
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    const breaking = patternCandidates.find((candidate) => !pattern.test(candidate));
    if (breaking !== undefined) push(breaking, 'pattern', `breaking ${schema.pattern}`);
  }
  if (schema.format === 'uuid') push('not-a-uuid', 'format', 'not a UUID');
  if (schema.format === 'int64') push(2 ** 53 + 2, 'format', 'past 2^53');
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    push('7'.repeat(schema.minLength - 1), 'minLength', `shorter than ${schema.minLength}`);
  }
  if (typeof schema.maxLength === 'number') {
    push('7'.repeat(schema.maxLength + 1), 'maxLength', `longer than ${schema.maxLength}`);
  }
  if (typeof schema.minimum === 'number') push(schema.minimum - 1, 'minimum', `below ${schema.minimum}`);
  if (typeof schema.maximum === 'number') push(schema.maximum + 1, 'maximum', `above ${schema.maximum}`);
  if (schema.type === 'array' && isRecord(schema.items)) {
    const items = Array.isArray(valid) ? valid : [];
    const item = items[0] ?? sampleOf(schema.items);
    if (typeof schema.minItems === 'number' && schema.minItems > 0) {
      push(items.slice(0, schema.minItems - 1), 'minItems', `fewer than ${schema.minItems} items`);
    }
    if (typeof schema.maxItems === 'number' && item !== undefined) {
      push(Array(schema.maxItems + 1).fill(item), 'maxItems', `more than ${schema.maxItems} items`);
    }
    // One bad item after the good ones (in place of the last when the array is full).
    const index = items.length > 0 && items.length === schema.maxItems ? items.length - 1 : items.length;
    for (const broken of breakings(schema.items, [...at, index], item, choice)) {
      const good = items.slice(0, index);
      out.push({ ...broken, at, value: [...good, placed(item, broken, [...at, index])] });
    }
  }
  if (schema.type === 'object' && isRecord(schema.properties)) {
    const fields = isRecord(valid) ? valid : {};
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!isRecord(property) || (at.length === 0 && signedFields.has(name))) continue;
      out.push(...breakings(property, [...at, name], fields[name], choice));
    }
    for (const name of Array.isArray(schema.required) ? schema.required.map(String) : []) {
      if (at.length === 0 && signedFields.has(name)) continue;
      const where = [...at, name];
      out.push({
        at: where,
        value: undefined,
        rule: 'required',
        how: 'left out',
        named: choice ?? where,
        where,
      });
    }
  }
  return out;
}

/** `base` (an item) with a breaking that lies below `itemAt` put in place. */
function placed(base: unknown, broken: Broken, itemAt: Path): unknown {
  const below = broken.at.slice(itemAt.length);
  if (below.length === 0) return broken.value;
  const [key, ...rest] = below;
  const record = isRecord(base) ? { ...base } : {};
  if (rest.length === 0) {
    if (broken.value === undefined) delete record[String(key)];
    else record[String(key)] = broken.value;
    return record;
  }
  record[String(key)] = placed(record[String(key)], { ...broken, at: below }, [key as string]);
  return record;
}

/** The field a schema problem (`orders.1: must have required property 'side'`) is about. */
function problemField(problem: string): string {
  const [path = '', message = ''] = problem.split(/: (.*)/s);
  const required = /required property '([^']+)'/.exec(message)?.[1];
  const parent = path === '(body)' ? '' : path;
  return required ? (parent ? `${parent}.${required}` : required) : parent;
}

/** Each invalid input of an operation, derived from its request schema and first example. */
export function invalidInputs(model: Model, operationId: OperationId): InvalidInput[] {
  const operation = model.model(operationId);
  const schema = operation.requestSchema;
  if (!schema) return [];
  const valid = callerBody(operation.requestExamples[0]?.value);
  return breakings(schema, [], valid).flatMap((broken) => {
    const body = placed(valid, broken, []) as Record<string, unknown>;
    const field = broken.named.join('.');
    // Keep what the document itself refuses at that field: a candidate that happens to pass
    // (a wrong-type value another form accepts) is no case.
    const problems = operation.validateRequest({ request: operation.facts.path, nonce: '1', ...body });
    if (!problems.map(problemField).some((named) => named === field || named.startsWith(`${field}.`)))
      return [];
    const raw = operation.facts.auth !== 'none' || staysInvalidAsText(operation, body, field, broken.rule);
    return [{ name: `${broken.where.join('.')} ${broken.how}`, body, field, rule: broken.rule, raw }];
  });
}

/** A GET's broken parameter written as URL text: whether the document still refuses it. */
function staysInvalidAsText(
  operation: ReturnType<Model['model']>,
  body: Record<string, unknown>,
  field: string,
  rule: string,
): boolean {
  const parameter = operation.parameters.find((candidate) => candidate.name === field);
  if (!parameter) return false;
  if (rule === 'required') return parameter.in === 'query';
  const value = body[field];
  if (value === null || typeof value === 'object') return false;
  const text = String(value);
  const type = parameter.schema.type;
  const asRead =
    (type === 'integer' && /^-?\d+$/.test(text)) || (type === 'number' && /^-?\d+(\.\d+)?$/.test(text))
      ? Number(text)
      : type === 'boolean' && (text === 'true' || text === 'false')
        ? text === 'true'
        : text;
  return operation.validateRequest({ ...body, [field]: asRead }).length > 0;
}

/**
 * The fields an error example names: the private error object's `errors`, or a public
 * endpoint's refusal of its parameters, keyed by parameter.
 */
function errorFields(value: unknown): string[] {
  if (!isRecord(value)) return [];
  if (isRecord(value.errors)) return Object.keys(value.errors);
  // The v1 candles' refusal: 200, `success` false, the messages keyed by parameter in `message`.
  if (value.success === false && isRecord(value.message)) return errorFields(value.message);
  const lists = Object.entries(value).filter(
    ([, messages]) =>
      typeof messages === 'string' ||
      (Array.isArray(messages) && messages.every((message) => typeof message === 'string')),
  );
  return lists.length === Object.keys(value).length ? lists.map(([field]) => field) : [];
}

/** The failures any server gives whatever its state, from the examples' `x-caused-by`. */
export function reproducibleFailures(model: Model, operationId: OperationId): ReproducibleFailure[] {
  const operation = model.model(operationId);
  const valid = callerBody(operation.requestExamples[0]?.value);
  return [...operation.responses].flatMap(([status, { examples }]) =>
    examples.flatMap((example) =>
      example.causedBy
        ? [
            {
              example: example.name,
              status,
              causes: { ...example.causedBy },
              body: { ...valid, ...example.causedBy },
              fields: errorFields(example.value),
            },
          ]
        : [],
    ),
  );
}
