// Flags from the request schema: one flag per body field, named in kebab case, with the field's
// description, type, enum, default and whether it is required in --help. Values are converted to
// the field's JSON type only where that is unambiguous and otherwise passed on as typed, so the
// client's own validation judges them and a bad flag gets the message a bad body field gets. An
// object or a list of objects (a bulk order's items) takes a JSON value; a boolean has a `--no-`
// form for false; a nullable field takes `null`. One concept has one flag: a field whose schema
// gives an `x-cli-flag` (directly, or through a component it $refs, such as PlanId) has that flag
// whatever its wire name, and the flag of its own name stays as a hidden alias.
import { Option } from 'commander';
import type { BodyFacts, FieldFacts } from './operations.ts';

export interface FieldFlag {
  /** The body field, e.g. `planId`. */
  readonly field: string;
  /** The long flag, e.g. `--plan-id`. */
  readonly flag: string;
  /** The flag of the field's own name where x-cli-flag gives another (`--plan`): hidden, still taken. */
  readonly alias?: string;
  readonly facts: FieldFacts;
  readonly required: boolean;
}

export const flagName = (field: string): string =>
  `--${field
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replaceAll('_', '-')
    .toLowerCase()}`;

/** The flag of a field: its x-cli-flag, or else its name in kebab case. */
export const fieldFlag = (field: string, facts: FieldFacts): string =>
  facts.cliFlag ? `--${facts.cliFlag}` : flagName(field);

export function fieldFlags(body: BodyFacts): FieldFlag[] {
  return Object.entries(body.properties).map(([field, facts]) => {
    const flag = fieldFlag(field, facts);
    const own = flagName(field);
    return {
      field,
      flag,
      ...(own !== flag && { alias: own }),
      facts,
      required: body.required.includes(field),
    };
  });
}

/** The enum values with their names where the document gives them: `1 (INVEST)`. */
function enumText(facts: FieldFacts): string | undefined {
  if (!facts.enum) return undefined;
  return facts.enum
    .map((value, index) => {
      const name = facts.enumNames?.[index];
      return name ? `${String(value)} (${name})` : String(value);
    })
    .join(', ');
}

/**
 * The form a flag's text is read as: the field's one form that is not null (a nullable field is
 * `anyOf: [form, null]` or `type: [form, 'null']`), and whether `null` is a value it takes.
 */
export function formOf(facts: FieldFacts): { form: FieldFacts; nullable: boolean } {
  if (facts.anyOf) {
    const forms = facts.anyOf.filter((form) => form.type !== 'null');
    const nullable = forms.length < facts.anyOf.length;
    return { form: forms.length === 1 && forms[0] ? forms[0] : facts, nullable };
  }
  if (Array.isArray(facts.type)) {
    const types = facts.type.filter((type) => type !== 'null');
    const nullable = types.length < facts.type.length;
    return { form: { ...facts, type: types.length === 1 ? types[0] : types }, nullable };
  }
  return { form: facts, nullable: false };
}

/** A field whose flag takes a JSON value: an object, a list of objects, a field of several forms. */
export function takesJson(facts: FieldFacts): boolean {
  const { form } = formOf(facts);
  if (typeof form.type !== 'string') return true;
  return form.type === 'object' || (form.type === 'array' && formOf(form.items ?? {}).form.type === 'object');
}

function typeText(facts: FieldFacts): string {
  const { form, nullable } = formOf(facts);
  const orNull = nullable ? ' or null' : '';
  if (takesJson(facts))
    return `JSON${form.type === 'array' ? ' list' : form.type === 'object' ? ' object' : ''}${orNull}`;
  if (form.type === 'array' && form.items) return `list of ${typeText(form.items)}${orNull}`;
  return `${form.format ? `${String(form.type)}, ${form.format}` : String(form.type)}${orNull}`;
}

/** What a JSON flag's value holds: the required fields of each object, to show in --help. */
function shapeText(facts: FieldFacts): string | undefined {
  const { form } = formOf(facts);
  const object = form.type === 'array' ? form.items : form;
  if (!object?.properties) return undefined;
  const fields = Object.keys(object.properties).map((field) =>
    object.required?.includes(field) ? field : `${field}?`,
  );
  return `${form.type === 'array' ? 'each item ' : ''}{ ${fields.join(', ')} }`;
}

/** The --help line of a field: description, then type, values, default and required. */
export function flagHelp(flag: FieldFlag): string {
  const { facts } = flag;
  const { form, nullable } = formOf(facts);
  const json = takesJson(facts);
  const values = json ? undefined : enumText(form.type === 'array' && form.items ? form.items : form);
  const details = [
    typeText(facts),
    json && shapeText(facts),
    values && `one of ${values}`,
    !json && form.type === 'array' && 'repeat the flag or separate with commas',
    nullable && 'null sends null',
    form.type === 'boolean' && !nullable && `${negated(flag.flag)} sends false`,
    facts.default !== undefined && `server default ${JSON.stringify(facts.default)}`,
    flag.required && 'required',
  ].filter(Boolean);
  const description = (facts.description ?? '').replace(/\s+/g, ' ').trim();
  return `${description}${description ? ' ' : ''}[${details.join('; ')}]`;
}

const negated = (flag: string) => `--no-${flag.slice(2)}`;

function placeholder(facts: FieldFacts): string {
  if (takesJson(facts)) return '<json>';
  const { form } = formOf(facts);
  if (form.type === 'array') return `<${String(formOf(form.items ?? {}).form.type ?? 'value')}s>`;
  return `<${form.format ?? String(form.type)}>`;
}

const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...value.split(','),
];

/** The options of a field: one flag, and for a boolean its `--no-` form that sends false. */
export function commanderOptions(flag: FieldFlag): Option[] {
  const { form, nullable } = formOf(flag.facts);
  if (form.type === 'boolean' && !nullable) {
    return [
      new Option(flag.flag, flagHelp(flag)),
      new Option(negated(flag.flag), `send ${flag.field}: false`),
    ];
  }
  const option = new Option(`${flag.flag} ${placeholder(flag.facts)}`, flagHelp(flag));
  if (form.type === 'array' && !takesJson(flag.facts)) option.argParser(collect);
  return [option];
}

/** The first option of a field (its flag), e.g. for its attribute name. */
export function commanderOption(flag: FieldFlag): Option {
  return commanderOptions(flag)[0] as Option;
}

/**
 * A flag's text as the field's JSON value: null for a nullable field's `null`, parsed JSON for
 * an object or a list of objects, a number or an enum name where unambiguous, else as typed
 * (text that is not JSON goes on as text, and the client's check names the field).
 */
export function fieldValue(facts: FieldFacts, text: string): unknown {
  const { form, nullable } = formOf(facts);
  if (nullable && text.trim() === 'null') return null;
  if (takesJson(facts)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  const named = form.enumNames?.findIndex((name) => name.toLowerCase() === text.trim().toLowerCase());
  if (named !== undefined && named >= 0 && form.enum) return form.enum[named];
  if (form.type === 'integer' && /^[+-]?[0-9]+$/.test(text.trim())) {
    const number = Number(text);
    return Number.isSafeInteger(number) ? number : text;
  }
  if (form.type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

/** The body from parsed option values, keyed by commander's attribute names. */
export function bodyFrom(
  flags: readonly FieldFlag[],
  values: Readonly<Record<string, unknown>>,
  attributeOf: (flag: FieldFlag) => string,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const flag of flags) {
    const value = values[attributeOf(flag)];
    if (value === undefined) continue;
    const { form, nullable } = formOf(flag.facts);
    if (nullable && Array.isArray(value) && value.length === 1 && value[0] === 'null') {
      body[flag.field] = null;
    } else if (form.type === 'array' && Array.isArray(value)) {
      const items = form.items;
      body[flag.field] = value.map((item: string) => (items ? fieldValue(items, item) : item));
    } else if (typeof value === 'string') {
      body[flag.field] = fieldValue(flag.facts, value);
    } else {
      body[flag.field] = value;
    }
  }
  return body;
}

/** `actionTypes.1` -> `--action-types`: the flag that set a field named in a validation message. */
export function flagOfField(flags: readonly FieldFlag[], field: string | undefined): string | undefined {
  const root = field?.split('.')[0];
  return flags.find((flag) => flag.field === root)?.flag;
}
