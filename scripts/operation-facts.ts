// Reads the operation facts that the documents carry as vendor extensions and renders
// them as generated/operations.ts, so that src/ never repeats a path, a limit or a header.
import type { FieldRule } from '../generated/operations.ts';
import { type ApiDocument, loadApiDocuments } from '../model/document.ts';
import {
  arrayAt,
  at,
  isRecord,
  type JsonRecord,
  numberAt,
  optionalRecordAt,
  pointerSteps,
  recordAt,
  stringAt,
} from '../model/json.ts';
import { gatewayTokenSource, type LinkedOperations, type TokenSource } from '../model/token-source.ts';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Source = 'specification' | 'observed-upstream';

export type AuthKind = 'none' | 'signed' | 'gateway-token';

/** The security schemes that are not the signing headers, by the auth kind they give. */
const tokenSchemes: Readonly<Record<string, AuthKind>> = { GatewayToken: 'gateway-token' };

interface RateLimit {
  requests: number;
  windowSeconds: number;
  source: Source;
  description: string;
}

/**
 * x-retry-safe in its object form: the operation may be repeated only when the body carries a
 * non-empty value for `idempotencyKey`, a field whose repeat the service refuses (a quote's id: a
 * quote converts once), so that a repeat cannot act twice.
 */
export interface RetrySafeByKey {
  idempotencyKey: string;
  source: Source;
}

/** x-retry-safe as the client reads it: always, never, or only with the key in the body. */
export type RetrySafe = boolean | RetrySafeByKey;

/** A body field as tools show it: the client's rule plus what a reader needs (help, enum names). */
export interface FieldFacts extends FieldRule {
  readonly description?: string;
  readonly default?: unknown;
  /** Names of the enum values, in order (x-enum-varnames). */
  readonly enumNames?: readonly string[];
  readonly anyOf?: readonly FieldFacts[];
  readonly items?: FieldFacts;
  readonly properties?: Readonly<Record<string, FieldFacts>>;
  /**
   * The txc flag of the field, without its dashes (x-cli-flag): one name per concept, wherever
   * the operator's wire names differ. On a component (PlanId), every field that $refs it has it.
   */
  readonly cliFlag?: string;
}

export interface BodyFacts {
  readonly required: readonly string[];
  readonly properties: Readonly<Record<string, FieldFacts>>;
}

export interface OperationFacts {
  operationId: string;
  summary: string;
  /** The command-line name (x-cli-name), when the document gives one. */
  cliName?: string;
  api: string;
  method: string;
  path: string;
  /**
   * How a call is authorised, from its security requirement: `signed` (the HMAC headers of the
   * document's schemes), `none`, or `gateway-token` (the GatewayToken scheme: the fiat gateway's
   * token in a header of its own, the body unsigned, the token given per call).
   */
  auth: AuthKind;
  /** The header a `gateway-token` call carries its token in (the scheme's `name`). */
  tokenHeader?: string;
  /**
   * Where a `gateway-token` call's token comes from (model/token-source.ts): the operation whose
   * answer holds it, that answer's status, and a JSON pointer to it; absent when no link says.
   */
  tokenSource?: TokenSource;
  /** The operation's own servers (another origin than its document's), when it has them. */
  servers?: ServerFacts[];
  rateLimit: { requests: number; windowSeconds: number; source: RateLimit['source'] };
  retrySafe: RetrySafe;
  /** x-writes: the call changes state (moves money, cancels); tools keep it off live targets. */
  writes: boolean;
  partnerOnly: boolean;
  noCache: boolean;
  statuses: number[];
  body?: BodyFacts | undefined;
  /** A GET's parameters: those of its path (`{market}`) and of its query string. */
  params?: ParamsFacts | undefined;
  /** x-stream-events: the stream updates a successful call shows (none for most). */
  streamEvents: StreamEventFacts[];
}

/**
 * x-stream-events, one entry: a successful call shows as an update of the stream channel
 * `channel` to a connection subscribed with `subscribe` (the subscribe request's params), an
 * update whose `fields` (a dotted path below the update's params, each position by its
 * x-field-name) hold these values. A value is a literal or a runtime expression of the call,
 * `$request.body#/…` or `$response.body#/…`, as in a link.
 */
export interface StreamEventFacts {
  channel: string;
  /** The request example whose call shows the update; by default the first. */
  example?: string;
  subscribe: unknown[];
  fields: Record<string, unknown>;
}

/** x-stream-events read: a list of { channel, subscribe, fields, description }. */
function streamEventFacts(operationId: string, value: unknown): StreamEventFacts[] {
  if (value === undefined) return [];
  const shape = '{ channel, example?, subscribe: [params], fields: { path: value }, description }';
  if (!Array.isArray(value))
    throw new Error(
      `${operationId}: x-stream-events must be a list of ${shape}, not ${JSON.stringify(value)}`,
    );
  return value.map((entry) => {
    const channel = at(entry, 'channel');
    const subscribe = at(entry, 'subscribe');
    const fields = at(entry, 'fields');
    const example = at(entry, 'example');
    if (
      (example !== undefined && typeof example !== 'string') ||
      typeof channel !== 'string' ||
      !Array.isArray(subscribe) ||
      !isRecord(fields) ||
      Object.keys(fields).length === 0 ||
      typeof at(entry, 'description') !== 'string'
    )
      throw new Error(
        `${operationId}: each x-stream-events entry must be ${shape}, not ${JSON.stringify(entry)}`,
      );
    return { channel, ...(example === undefined ? {} : { example }), subscribe, fields };
  });
}

/** An operation's parameters by where they go, each set with its required names and rules. */
export interface ParamsFacts {
  readonly path?: BodyFacts;
  readonly query?: BodyFacts;
}

/** x-cli-flag read: a flag name in kebab case, without the leading dashes (`plan-id`). */
function cliFlagOf(value: unknown): string {
  if (typeof value === 'string' && /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(value)) return value;
  throw new Error(
    `x-cli-flag must be a flag name in kebab case without dashes, not ${JSON.stringify(value)}`,
  );
}

/** A list of strings (`required`, `x-enum-varnames`, a list of types), or undefined. */
function stringsAt(value: unknown, key: string): readonly string[] | undefined {
  const node = at(value, key);
  return Array.isArray(node) && node.every((item) => typeof item === 'string') ? node : undefined;
}

/** A dereferenced schema's field facts: what the client checks, and what tools show. */
function fieldFacts(schema: unknown): FieldFacts {
  const rule: { -readonly [K in keyof FieldFacts]: FieldFacts[K] } = {};
  // A field of several accepted forms (the nonce: digits or an integer) passes if one passes.
  const forms = at(schema, 'anyOf');
  if (Array.isArray(forms)) rule.anyOf = forms.map(fieldFacts);
  else {
    const type = stringAt(schema, 'type') ?? stringsAt(schema, 'type');
    if (type !== undefined) rule.type = type;
  }
  const pattern = stringAt(schema, 'pattern');
  if (pattern) rule.pattern = pattern;
  const bound = (key: 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems') => {
    const value = numberAt(schema, key);
    if (value !== undefined) rule[key] = value;
  };
  for (const key of ['minLength', 'maxLength', 'minimum', 'maximum'] as const) bound(key);
  const values = at(schema, 'enum');
  if (Array.isArray(values)) rule.enum = values;
  const constant = at(schema, 'const');
  if (constant !== undefined) rule.enum = [constant];
  const format = stringAt(schema, 'format');
  if (format) rule.format = format;
  for (const key of ['minItems', 'maxItems'] as const) bound(key);
  const items = at(schema, 'items');
  if (items) rule.items = fieldFacts(items);
  // An object field (a bulk order's items) carries its own required fields and rules.
  const required = stringsAt(schema, 'required');
  if (required) rule.required = required;
  const properties = optionalRecordAt(schema, 'properties');
  if (properties) {
    rule.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, fieldFacts(property)]),
    );
  }
  const description = stringAt(schema, 'description');
  if (description) rule.description = description.trim();
  const fallback = at(schema, 'default');
  if (fallback !== undefined) rule.default = fallback;
  const enumNames = stringsAt(schema, 'x-enum-varnames');
  if (enumNames) rule.enumNames = enumNames;
  if (at(schema, 'x-sensitive') === true) rule.sensitive = true;
  const cliFlag = at(schema, 'x-cli-flag');
  if (cliFlag !== undefined) rule.cliFlag = cliFlagOf(cliFlag);
  return rule;
}

const ruleKeys = [
  'type',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'enum',
  'format',
  'minItems',
  'maxItems',
  'required',
  'sensitive',
] as const;

/** What the client checks of a field: its facts without what only tools show. */
function fieldRule(facts: FieldFacts): FieldRule {
  const rule: { -readonly [K in keyof FieldRule]: FieldRule[K] } = {};
  for (const key of ruleKeys) if (facts[key] !== undefined) Object.assign(rule, { [key]: facts[key] });
  if (facts.anyOf) rule.anyOf = facts.anyOf.map(fieldRule);
  if (facts.items) rule.items = fieldRule(facts.items);
  if (facts.properties) {
    rule.properties = Object.fromEntries(
      Object.entries(facts.properties).map(([name, property]) => [name, fieldRule(property)]),
    );
  }
  return rule;
}

/** A dereferenced operation's JSON body: its required fields and each field's facts. */
function bodyFacts(operation: unknown): BodyFacts | undefined {
  const schema = at(operation, 'requestBody', 'content', 'application/json', 'schema');
  if (!schema) return undefined;
  return {
    required: stringsAt(schema, 'required') ?? [],
    properties: Object.fromEntries(
      Object.entries(recordAt(schema, 'properties')).map(([name, property]) => [name, fieldFacts(property)]),
    ),
  };
}

/** A dereferenced operation's parameters, by where they go. */
function paramsFacts(operation: unknown): ParamsFacts | undefined {
  const parameters = arrayAt(operation, 'parameters').map((parameter) => ({
    in: stringAt(parameter, 'in'),
    name: stringAt(parameter, 'name') ?? '',
    required: at(parameter, 'required') === true,
    schema: at(parameter, 'schema'),
    description: stringAt(parameter, 'description'),
  }));
  const facts: { path?: BodyFacts; query?: BodyFacts } = {};
  for (const where of ['path', 'query'] as const) {
    const own = parameters.filter((parameter) => parameter.in === where);
    if (own.length === 0) continue;
    facts[where] = {
      required: own.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      properties: Object.fromEntries(
        own.map((parameter) => [
          parameter.name,
          // The parameter's own description is what a reader of the flag needs, not its schema's.
          {
            ...fieldFacts(parameter.schema ?? {}),
            ...(parameter.description && { description: parameter.description.trim() }),
          },
        ]),
      ),
    };
  }
  return facts.path || facts.query ? facts : undefined;
}

/** x-rate-limit read: the limit and where the fact comes from (its description is for readers). */
function rateLimitFacts(operationId: string, value: unknown): OperationFacts['rateLimit'] {
  const requests = numberAt(value, 'requests');
  const windowSeconds = numberAt(value, 'windowSeconds');
  const source = at(value, 'source');
  if (
    requests !== undefined &&
    windowSeconds !== undefined &&
    (source === 'specification' || source === 'observed-upstream')
  ) {
    return { requests, windowSeconds, source };
  }
  throw new Error(
    `${operationId}: x-rate-limit must be { requests, windowSeconds, source, description }, not ${JSON.stringify(value)}`,
  );
}

/** x-retry-safe read: a boolean, or the object form with its key field (it must name one). */
function retrySafeFacts(operationId: string, value: unknown): RetrySafe {
  if (typeof value === 'boolean') return value;
  const key = at(value, 'idempotencyKey');
  const source = at(value, 'source');
  if (
    typeof key === 'string' &&
    key !== '' &&
    (source === 'specification' || source === 'observed-upstream')
  ) {
    return { idempotencyKey: key, source };
  }
  throw new Error(
    `${operationId}: x-retry-safe must be true, false or { idempotencyKey, source, description }, not ${JSON.stringify(value)}`,
  );
}

export interface ServerFacts {
  name: string;
  url: string;
  variables: Record<string, string>;
}

/** The documents as the facts need them: each API's name and dereferenced document. */
export type ApiDocuments = readonly Pick<ApiDocument, 'name' | 'dereferenced'>[];

export function collectOperationFacts<Api extends Pick<ApiDocument, 'name' | 'dereferenced'>>(
  apis: readonly Api[],
): OperationFacts[] {
  const facts: OperationFacts[] = [];
  const linked = linkedOperations(apis);
  for (const { name, dereferenced: document } of apis) {
    for (const [path, item] of Object.entries(recordAt(document, 'paths'))) {
      for (const method of methods) {
        const operation = optionalRecordAt(item, method);
        if (!operation) continue;
        const operationId = stringAt(operation, 'operationId');
        if (!operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
        // An operation's own security (an empty list: none) replaces the document's.
        const security = arrayAt(operation.security === undefined ? document : operation, 'security');
        const rateLimit = rateLimitFacts(operationId, operation['x-rate-limit']);
        const body = bodyFacts(operation);
        const params = paramsFacts(operation);
        const cliName = stringAt(operation, 'x-cli-name');
        const auth = authOf(operationId, security);
        const tokenScheme = Object.keys(tokenSchemes).find((scheme) => tokenSchemes[scheme] === auth);
        const tokenHeader = tokenScheme
          ? stringAt(document, 'components', 'securitySchemes', tokenScheme, 'name')
          : undefined;
        const tokenSource = auth === 'gateway-token' ? gatewayTokenSource(linked, operationId) : undefined;
        const ownServers = Array.isArray(operation.servers) ? serverFacts(operation.servers) : undefined;
        facts.push({
          operationId,
          summary: stringAt(operation, 'summary') ?? '',
          ...(cliName ? { cliName } : {}),
          api: name,
          method,
          path,
          auth,
          ...(tokenHeader ? { tokenHeader } : {}),
          ...(tokenSource ? { tokenSource } : {}),
          ...(ownServers ? { servers: ownServers } : {}),
          rateLimit,
          retrySafe: retrySafeFacts(operationId, operation['x-retry-safe']),
          writes: operation['x-writes'] === true,
          partnerOnly: operation['x-partner-only'] === true,
          noCache: operation['x-no-cache'] === true,
          // `default` (any other failure) is not a status.
          statuses: Object.keys(recordAt(operation, 'responses'))
            .filter((status) => /^\d{3}$/.test(status))
            .map(Number),
          ...(body ? { body } : {}),
          ...(params ? { params } : {}),
          streamEvents: streamEventFacts(operationId, operation['x-stream-events']),
        });
      }
    }
  }
  return facts.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

/** Every operation of the documents, by operationId: what the links between them are read from. */
function linkedOperations(apis: readonly Pick<ApiDocument, 'dereferenced'>[]): LinkedOperations {
  const operations: { operationId: string; object: JsonRecord }[] = [];
  for (const { dereferenced: document } of apis) {
    for (const item of Object.values(recordAt(document, 'paths'))) {
      for (const method of methods) {
        const object = optionalRecordAt(item, method);
        const operationId = stringAt(object, 'operationId');
        if (object && operationId) operations.push({ operationId, object });
      }
    }
  }
  return { operations };
}

/**
 * The auth kind of a security requirement list: none for an empty one, a token kind for a
 * requirement naming one token scheme alone, signed for any other (the signing schemes).
 */
function authOf(operationId: string, security: readonly unknown[]): AuthKind {
  const named = security.map((requirement) => Object.keys(recordAt(requirement)));
  if (!named.some((schemes) => schemes.length > 0)) return 'none';
  const tokens = named.flat().filter((scheme) => scheme in tokenSchemes);
  if (tokens.length === 0) return 'signed';
  const [only] = named;
  if (named.length !== 1 || only?.length !== 1)
    throw new Error(
      `${operationId}: a token scheme (${tokens.join(', ')}) must be its only security requirement`,
    );
  return tokenSchemes[only[0] as string] as AuthKind;
}

/** A `servers` list read: each server's name (x-server-name), URL and variables' defaults. */
function serverFacts(list: readonly unknown[]): ServerFacts[] {
  return list.map((server) => ({
    name: stringAt(server, 'x-server-name') ?? '',
    url: stringAt(server, 'url') ?? '',
    variables: Object.fromEntries(
      Object.entries(recordAt(server, 'variables')).map(([key, variable]) => [
        key,
        stringAt(variable, 'default') ?? '',
      ]),
    ),
  }));
}

export function collectServers(apis: ApiDocument[]): Record<string, ServerFacts[]> {
  const servers: Record<string, ServerFacts[]> = {};
  for (const { name, dereferenced: document } of apis)
    servers[name] = serverFacts(arrayAt(document, 'servers'));
  return servers;
}

/**
 * The operations served from their own origin (their own `servers`), by API and operationId: the
 * client sends them there unless it was given a base URL.
 */
export function collectOperationServers(
  facts: OperationFacts[],
): Record<string, Record<string, ServerFacts[]>> {
  const own: Record<string, Record<string, ServerFacts[]>> = {};
  for (const { api, operationId, servers } of facts) {
    if (servers) own[api] = { ...own[api], [operationId]: servers };
  }
  return own;
}

/**
 * Header name of each signing security scheme, by scheme name (ApiKey, Payload, Signature); a
 * token scheme's header is its operations' `tokenHeader`.
 */
export function collectSigningHeaders(apis: ApiDocuments): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { dereferenced: document } of apis) {
    for (const [scheme, definition] of Object.entries(recordAt(document, 'components', 'securitySchemes'))) {
      if (scheme in tokenSchemes) continue;
      const name = stringAt(definition, 'name');
      if (stringAt(definition, 'in') === 'header' && name) headers[scheme] = name;
    }
  }
  return headers;
}

/** The fields every signed body has (request, nonce, nonceWindow): the client writes them. */
export function collectSignedBodyFields(facts: OperationFacts[]): string[] {
  const signedBodies = facts.filter((operation) => operation.auth === 'signed' && operation.body);
  return Object.keys(signedBodies[0]?.body?.properties ?? {}).filter((field) =>
    signedBodies.every((operation) => operation.body && field in operation.body.properties),
  );
}

/**
 * What the client reads of each operation, keyed by `method path`: the full table carries facts
 * only tools need, and the client's bundle should not. Body rules leave out the fields every
 * signed body shares (request, nonce, nonceWindow), which the client writes itself.
 */
export function collectClientRoutes(facts: OperationFacts[]) {
  const shared = new Set(collectSignedBodyFields(facts));
  return Object.fromEntries(
    facts.map(
      ({ operationId, method, path, auth, tokenHeader, tokenSource, rateLimit, retrySafe, body, params }) => [
        `${method} ${path}`,
        {
          operationId,
          method,
          path,
          // Only a token call differs from its client's default (signed, or none for public ones).
          ...(auth === 'gateway-token' && tokenHeader && { auth, tokenHeader: tokenHeader.toLowerCase() }),
          // Named in its refusal without a token: the source and the field, as a reader writes it.
          ...(tokenSource && {
            tokenSource: {
              operationId: tokenSource.operationId,
              field: pointerSteps(tokenSource.at).join('.'),
            },
          }),
          rateLimit: { requests: rateLimit.requests, windowSeconds: rateLimit.windowSeconds },
          // The client needs only the key; where the fact comes from is for tools.
          retrySafe:
            typeof retrySafe === 'boolean' ? retrySafe : { idempotencyKey: retrySafe.idempotencyKey },
          ...(body && {
            body: {
              required: body.required.filter((field) => !shared.has(field)),
              properties: Object.fromEntries(
                Object.entries(body.properties)
                  .filter(([field]) => !shared.has(field))
                  .map(([field, facts]) => [field, fieldRule(facts)]),
              ),
            },
          }),
          ...(params && {
            params: Object.fromEntries(
              Object.entries(params).map(([where, facts]) => [where, bodyRules(facts)]),
            ),
          }),
        },
      ],
    ),
  );
}

/** What the client checks of a set of fields: their facts without what only tools show. */
function bodyRules(facts: BodyFacts): { required: readonly string[]; properties: Record<string, FieldRule> } {
  return {
    required: facts.required,
    properties: Object.fromEntries(
      Object.entries(facts.properties).map(([field, facts]) => [field, fieldRule(facts)]),
    ),
  };
}

/** How far from server time a window-mode nonce may be (x-window-seconds on NonceWindow). */
export function collectNonceWindowSeconds(apis: ApiDocuments): number {
  const found = apis.flatMap(({ dereferenced: document }) => {
    const seconds = at(document, 'components', 'schemas', 'NonceWindow', 'x-window-seconds');
    return typeof seconds === 'number' ? [seconds] : [];
  });
  if (found.length !== 1) throw new Error('the documents must give one x-window-seconds on NonceWindow');
  return found[0] as number;
}

/** The backoff the operator advises after a 429 (x-backoff on the documents' 429 responses). */
export function collectBackoff(apis: ApiDocument[]): { initialSeconds: number; maxSeconds: number } {
  const found = apis.flatMap(({ dereferenced: document }) =>
    Object.values(recordAt(document, 'components', 'responses')).flatMap((response) => {
      const advice = at(response, 'x-backoff');
      return isRecord(advice) &&
        typeof advice.initialSeconds === 'number' &&
        typeof advice.maxSeconds === 'number'
        ? [{ initialSeconds: advice.initialSeconds, maxSeconds: advice.maxSeconds }]
        : [];
    }),
  );
  const [first] = found;
  if (!first || found.some((other) => JSON.stringify(other) !== JSON.stringify(first))) {
    throw new Error('the documents must give one x-backoff on their 429 responses');
  }
  return { initialSeconds: first.initialSeconds, maxSeconds: first.maxSeconds };
}

/**
 * The shape of the field rules in clientRoutes, written into generated/operations.ts so that the
 * client (src/engine.ts) and this generator share one definition below both of them.
 */
const fieldRuleTypes = `/** What the client checks of a field, as the documents' schema states it. */
export interface FieldRule {
  /**
   * A JSON Schema type (\`null\` included), or several (\`[integer, 'null']\`); absent when the
   * field takes one of several forms (\`anyOf\`).
   */
  readonly type?: string | readonly string[];
  /** The forms the field may take; a value passes if it passes one of them. */
  readonly anyOf?: readonly FieldRule[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly unknown[];
  readonly format?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** An array's items. */
  readonly items?: FieldRule;
  /** An object's required fields and the rules of its fields (a bulk order's items). */
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, FieldRule>>;
  /**
   * A secret of the caller's (x-sensitive: a card number): shown only by its last four
   * characters wherever the toolkit shows a request (its errors, txc, the contract reports).
   */
  readonly sensitive?: true;
}

/** What the client checks of a body: the required fields and each field's rule. */
export interface BodyRules {
  readonly required: readonly string[];
  readonly properties: Readonly<Record<string, FieldRule>>;
}
`;

/**
 * generated/operations.ts, the facts of every operation, and generated/routes.ts, what the client
 * reads of each: a module of its own, which the client loads when it is made (with its
 * transport), not with the package's entry, since it grows with every operation.
 */
export function renderOperationModules(root: string): { operations: string; routes: string } {
  const apis = loadApiDocuments(root);
  const facts = collectOperationFacts(apis);
  const header = `// Generated by scripts/generate.ts from ${apis.map((api) => api.file).join(' and ')}. Do not edit.`;
  return {
    operations: renderOperationsModule(apis, facts, header),
    routes: renderRoutesModule(facts, header),
  };
}

function renderOperationsModule(apis: ApiDocument[], facts: OperationFacts[], header: string): string {
  const operations = Object.fromEntries(facts.map((operation) => [operation.operationId, operation]));
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return `${header}

${fieldRuleTypes}
/** Facts of every operation, from the documents' vendor extensions, by operationId. */
export const operations = ${json(operations)} as const;

export type OperationId = keyof typeof operations;

/** The fields every signed body carries; the client writes them, callers never do. */
export const signedBodyFields = ${json(collectSignedBodyFields(facts))} as const;

/** The deployments of each API, selectable by name (x-server-name). */
export const servers = ${json(collectServers(apis))} as const;

/**
 * The operations served from an origin of their own (their own \`servers\`), by API and operationId:
 * the client sends them there unless it was given a base URL.
 */
export const operationServers = ${json(collectOperationServers(facts))} as const;

/** How far from server time a window-mode nonce may be, observed upstream (x-window-seconds). */
export const nonceWindowSeconds = ${collectNonceWindowSeconds(apis)};

/** Backoff after a 429, as the operator advises (x-backoff, observed upstream). */
export const backoff = ${json(collectBackoff(apis))} as const;

/** Header names of the signing security schemes, by scheme name. */
export const signingHeaders = ${json(collectSigningHeaders(apis))} as const;
`;
}

function renderRoutesModule(facts: OperationFacts[], header: string): string {
  return `${header}

/** What the client reads of each operation, by \`method path\`; body rules without the signed fields. */
export const clientRoutes = ${JSON.stringify(collectClientRoutes(facts), null, 2)} as const;
`;
}
