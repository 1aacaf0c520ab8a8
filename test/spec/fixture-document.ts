// The spec tests' fixture document (fixtures/base.yaml), typed as far as the tests change it: a
// test that edits a part the fixture does not have fails to compile instead of writing into
// nothing.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** A JSON Schema of the fixture, with what the cases add, change or remove. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: string[];
  description?: string;
  examples?: string[];
  required?: string[];
  items?: Schema;
  properties?: Partial<Record<string, Schema>>;
}

/** An object schema: its required names and its properties. */
export interface ObjectSchema extends Schema {
  required: string[];
  properties: Partial<Record<string, Schema>>;
}

export interface Media {
  schema: Schema;
}

export interface Response {
  description?: string;
  headers?: Record<string, { required?: boolean; schema: Schema }>;
  content?: Record<string, Media>;
}

export interface Operation {
  operationId: string;
  'x-rate-limit'?: { requests: number; windowSeconds: number; source: string };
  'x-retry-safe'?: unknown;
  'x-partner-only'?: boolean;
  'x-no-cache'?: boolean;
  'x-writes'?: boolean;
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { required?: boolean; content: Record<string, Media> };
  responses: Partial<Record<string, Response>>;
}

export interface FixtureDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: {
    '/orders': { post: Operation };
    '/orders/list'?: { get: Operation };
  } & Partial<Record<string, Partial<Record<string, Operation>>>>;
  components: {
    schemas: {
      Side: Schema & { enum: string[] };
      OrderRequest: ObjectSchema;
      Order: ObjectSchema;
    };
  };
}

/** The fixture as fixtures/base.yaml writes it. */
export function readFixture(): FixtureDocument {
  return parse(readFileSync(new URL('./fixtures/base.yaml', import.meta.url), 'utf8'));
}

/** The fixture's createOrder. */
export const createOrder = (document: FixtureDocument): Operation => document.paths['/orders'].post;

/** The fixture's listOrders; it is there unless a case removed it. */
export const listOrders = (document: FixtureDocument): Operation =>
  present(document.paths['/orders/list'], '/orders/list').get;

/** What a case reaches inside the fixture, or a failure naming what is not there. */
function present<Value>(value: Value | undefined, what: string): Value {
  if (value === undefined) throw new Error(`the fixture has no ${what}`);
  return value;
}

/** A property of an object schema. */
export const property = (schema: Schema, name: string): Schema =>
  present(schema.properties?.[name], `property ${name}`);

/** An operation's answer for a status. */
export const response = (operation: Operation, status: string): Response =>
  present(operation.responses[status], `${status} answer of ${operation.operationId}`);

/** An operation's parameter, by its place in the list. */
export const parameter = (operation: Operation, index: number) =>
  present(operation.parameters?.[index], `parameter ${index} of ${operation.operationId}`);

/** An operation's rate limit. */
export const rateLimit = (operation: Operation) =>
  present(operation['x-rate-limit'], `x-rate-limit on ${operation.operationId}`);
