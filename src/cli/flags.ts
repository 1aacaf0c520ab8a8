// Flags from the request schema: one flag per body field, named in kebab case, with the field's
// description, type, enum, default and whether it is required in --help. Values are converted to
// the field's JSON type only where that is unambiguous and otherwise passed on as typed, so the
// client's own validation judges them and a bad flag gets the message a bad body field gets.
import { Option } from 'commander';
import type { BodyFacts, FieldFacts } from './operations.ts';

export interface FieldFlag {
  /** The body field, e.g. `planId`. */
  readonly field: string;
  /** The long flag, e.g. `--plan-id`. */
  readonly flag: string;
  readonly facts: FieldFacts;
  readonly required: boolean;
}

export const flagName = (field: string): string =>
  `--${field
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replaceAll('_', '-')
    .toLowerCase()}`;

export function fieldFlags(body: BodyFacts): FieldFlag[] {
  return Object.entries(body.properties).map(([field, facts]) => ({
    field,
    flag: flagName(field),
    facts,
    required: body.required.includes(field),
  }));
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

function typeText(facts: FieldFacts): string {
  if (facts.type === 'array' && facts.items) return `list of ${typeText(facts.items)}`;
  return facts.format ? `${facts.type}, ${facts.format}` : facts.type;
}

/** The --help line of a field: description, then type, values, default and required. */
export function flagHelp(flag: FieldFlag): string {
  const { facts } = flag;
  const values = enumText(facts.type === 'array' && facts.items ? facts.items : facts);
  const details = [
    typeText(facts),
    values && `one of ${values}`,
    facts.type === 'array' && 'repeat the flag or separate with commas',
    facts.default !== undefined && `server default ${JSON.stringify(facts.default)}`,
    flag.required && 'required',
  ].filter(Boolean);
  const description = (facts.description ?? '').replace(/\s+/g, ' ').trim();
  return `${description}${description ? ' ' : ''}[${details.join('; ')}]`;
}

function placeholder(facts: FieldFacts): string {
  if (facts.type === 'array') return `<${facts.items?.type ?? 'value'}s>`;
  return `<${facts.format ?? facts.type}>`;
}

const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  ...value.split(','),
];

export function commanderOption(flag: FieldFlag): Option {
  if (flag.facts.type === 'boolean') return new Option(flag.flag, flagHelp(flag));
  const option = new Option(`${flag.flag} ${placeholder(flag.facts)}`, flagHelp(flag));
  if (flag.facts.type === 'array') option.argParser(collect);
  return option;
}

/** A flag's text as the field's JSON value: a number or an enum name where unambiguous, else as typed. */
export function fieldValue(facts: FieldFacts, text: string): unknown {
  const named = facts.enumNames?.findIndex((name) => name.toLowerCase() === text.trim().toLowerCase());
  if (named !== undefined && named >= 0 && facts.enum) return facts.enum[named];
  if (facts.type === 'integer' && /^[+-]?[0-9]+$/.test(text.trim())) {
    const number = Number(text);
    return Number.isSafeInteger(number) ? number : text;
  }
  if (facts.type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
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
    if (flag.facts.type === 'array' && Array.isArray(value)) {
      const items = flag.facts.items;
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
