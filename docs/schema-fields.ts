// A message payload's schema as the rows of a field table, for the stream pages
// (docs/stream-page.ts): one row per field, nested fields below their parent, each with its place
// on the wire (`params[1].asks[][0]`), the name the document gives a positional field
// (x-field-name: `price`), its type, whether it is required, its description and its limits. The
// messages' `params` are lists whose order each method fixes, so the names x-field-name gives
// are what makes the table readable.
import { isRecord, type JsonRecord, stringAt } from '../model/json.ts';
import { escapeHtml } from './landing.ts';
import { renderInline, renderMarkdown } from './markdown.ts';

export interface FieldRow {
  /** What the row is called: the property's name, the document's x-field-name, `[]` for a list's items. */
  label: string;
  /** Where it is in the payload: `params[1].asks[][0]`; `*` stands for any key of a map. */
  path: string;
  /** 0 for a payload's own fields, one more for each level below. */
  depth: number;
  type: string;
  required: boolean;
  /** The schema's description, markdown. */
  description: string;
  /** Its limits and values in words: `one of 1, 5, 10`, `at most 100`. */
  constraints: string[];
}

/** How deep a table goes: deeper than any payload of the documents, short of a cycle's end. */
const maxDepth = 12;

/** `allOf`'s members merged into the schema: their properties and required fields together. */
function merged(schema: JsonRecord): JsonRecord {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...own } = schema;
  const parts = [...(allOf as unknown[]).filter(isRecord).map(merged), own];
  const result: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isRecord(value))
        result.properties = { ...(isRecord(result.properties) ? result.properties : {}), ...value };
      else if (key === 'required' && Array.isArray(value))
        result.required = [
          ...new Set([...(Array.isArray(result.required) ? result.required : []), ...value]),
        ];
      else result[key] = value;
    }
  }
  return result;
}

const json = (value: unknown) => JSON.stringify(value);

function typeOf(schema: JsonRecord): string {
  if ('const' in schema) return json(schema.const);
  const types = [schema.type].flat().filter((type): type is string => typeof type === 'string');
  let type = types.length > 0 ? types.join(' | ') : isRecord(schema.properties) ? 'object' : 'any';
  const format = stringAt(schema, 'format');
  if (format) type = `${type} (${format})`;
  const items = schema.items;
  if (Array.isArray(items)) type = `${type}, ${items.length} in order`;
  return type;
}

function constraintsOf(schema: JsonRecord): string[] {
  const out: string[] = [];
  if (Array.isArray(schema.enum)) {
    const descriptions = Array.isArray(schema['x-enum-descriptions']) ? schema['x-enum-descriptions'] : [];
    const values = schema.enum.map((value, index) =>
      typeof descriptions[index] === 'string' ? `${json(value)} (${descriptions[index]})` : json(value),
    );
    out.push(values.length === 1 ? `always ${values[0]}` : `one of ${values.join(', ')}`);
  }
  const bounds: [string, string][] = [
    ['minimum', 'at least'],
    ['exclusiveMinimum', 'more than'],
    ['maximum', 'at most'],
    ['exclusiveMaximum', 'less than'],
  ];
  for (const [key, words] of bounds) if (typeof schema[key] === 'number') out.push(`${words} ${schema[key]}`);
  const count = (min: string, max: string, unit: string) => {
    const low = typeof schema[min] === 'number' ? (schema[min] as number) : undefined;
    const high = typeof schema[max] === 'number' ? (schema[max] as number) : undefined;
    if (low !== undefined && low === high) out.push(`exactly ${low} ${unit}`);
    else {
      if (low !== undefined && low > 0) out.push(`at least ${low} ${unit}`);
      if (high !== undefined) out.push(`at most ${high} ${unit}`);
    }
  };
  count('minItems', 'maxItems', 'items');
  count('minLength', 'maxLength', 'characters');
  const pattern = stringAt(schema, 'pattern');
  if (pattern) out.push(`matches \`${pattern}\``);
  const unixTime = stringAt(schema, 'x-unix-time');
  if (unixTime) out.push(`Unix time in ${unixTime}`);
  return out;
}

/** The rows of `schema`'s fields (a payload: its properties, and theirs, and so on). */
export function fieldRows(schema: unknown): FieldRow[] {
  const rows: FieldRow[] = [];
  const visit = (node: unknown, label: string, path: string, depth: number, required: boolean) => {
    if (!isRecord(node)) return;
    const schema = merged(node);
    const fieldName = stringAt(schema, 'x-field-name');
    rows.push({
      label: fieldName ?? label,
      path,
      depth,
      type: typeOf(schema),
      required,
      description: stringAt(schema, 'description') ?? '',
      constraints: constraintsOf(schema),
    });
    children(schema, path, depth + 1);
  };
  const children = (schema: JsonRecord, path: string, depth: number) => {
    if (depth > maxDepth) return;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    if (isRecord(schema.properties))
      for (const [name, property] of Object.entries(schema.properties))
        visit(property, name, path ? `${path}.${name}` : name, depth, required.has(name));
    if (isRecord(schema.additionalProperties)) {
      const key = stringAt(schema, 'propertyNames', 'description');
      const value = merged(schema.additionalProperties);
      visit(
        {
          ...value,
          description: [key && `Each key: ${key}`, stringAt(value, 'description')].filter(Boolean).join(' '),
        },
        '*',
        `${path}.*`,
        depth,
        false,
      );
    }
    const { items } = schema;
    if (Array.isArray(items)) {
      // A tuple: each position its own row, required up to minItems.
      const least = typeof schema.minItems === 'number' ? schema.minItems : 0;
      items.forEach((item, index) => {
        visit(item, `[${index}]`, `${path}[${index}]`, depth, index < least);
      });
    } else if (isRecord(items)) {
      visit(items, '[]', `${path}[]`, depth, false);
    }
  };
  children(isRecord(schema) ? merged(schema) : {}, '', 0);
  return rows;
}

/** The table of a payload's fields. */
export function renderFieldTable(rows: readonly FieldRow[]): string {
  const body = rows
    .map((row) => {
      const description = [
        row.description ? renderMarkdown(row.description, 6) : '',
        row.constraints.length > 0
          ? `<p class="constraints">${row.constraints.map((constraint) => renderInline(constraint)).join('; ')}</p>`
          : '',
      ].join('');
      const place = row.label === row.path ? '' : ` <span class="path">${escapeHtml(row.path)}</span>`;
      return `          <tr data-path="${escapeHtml(row.path)}" data-depth="${row.depth}">
            <td style="padding-left: ${0.5 + row.depth * 1.25}rem"><code class="field">${escapeHtml(row.label)}</code>${place}${
              row.required ? ' <span class="required">required</span>' : ''
            }</td>
            <td><code>${escapeHtml(row.type)}</code></td>
            <td>${description}</td>
          </tr>`;
    })
    .join('\n');
  return `        <div class="table"><table class="fields">
          <thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead>
          <tbody>
${body}
          </tbody>
        </table></div>`;
}
