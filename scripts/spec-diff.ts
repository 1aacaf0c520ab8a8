// What changed between two versions of an OpenAPI document, per operation, and whom each change
// breaks. Pure: two parsed documents in, a list of changes out (scripts/spec-diff-cli.ts reads
// them from git and the working tree; scripts/spec-gate.ts decides what a change needs).
//
// Every change is classed for the two parties of a call. A *caller* is code written against the
// old document (our client, a partner's integration); a *server* is an implementation of the old
// document (the sandbox, a mock, the service itself). A request is produced by the caller and
// read by the server, a response the other way round: so a rule that lets the producer send more
// than before (an enum value added, a pattern dropped) breaks the reader, and a rule that lets it
// send less (a value removed, a field newly required) breaks the producer's existing messages.
import { dereference } from '../model/document.ts';
import { arrayAt, at, isRecord, type JsonRecord, recordAt, stringAt } from '../model/json.ts';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type ChangeKind =
  | 'operation-added'
  | 'operation-removed'
  | 'operation-id-changed'
  | 'field-added'
  | 'field-removed'
  | 'field-newly-required'
  | 'field-no-longer-required'
  | 'type-changed'
  | 'format-changed'
  | 'pattern-changed'
  | 'enum-value-added'
  | 'enum-value-removed'
  | 'enum-added'
  | 'enum-removed'
  | 'status-added'
  | 'status-removed'
  | 'vendor-fact-changed';

export interface Verdict {
  breaking: boolean;
  reason: string;
}

export interface SpecChange {
  /** The document's name (its key in redocly.yaml). */
  api: string;
  /** `METHOD /path`: an operation is known by its method and path, so a renamed operationId is a change of it. */
  operation: string;
  /** The operationId in the new document (in the old one for a removed operation). */
  operationId: string;
  kind: ChangeKind;
  /** Where in the operation: the request, or the response of `status`; absent for the operation as a whole. */
  location?: 'request' | 'response';
  status?: string;
  /** The field: `body.amount`, `body.data[].amount`, `query.ticker`, `header.Retry-After`; or the vendor fact. */
  field?: string;
  /** What changed, in words. */
  detail: string;
  caller: Verdict;
  server: Verdict;
}

/**
 * The operation facts the diff compares, as vendor extensions. A boolean fact names the value that
 * restricts a caller: changing to it breaks callers, changing away from it breaks servers. A fact
 * missing from a document (x-writes before it was written down) is simply "not stated".
 */
export const vendorFacts: readonly VendorFact[] = [
  { name: 'x-rate-limit', kind: 'rate' },
  { name: 'x-retry-safe', kind: 'retry' },
  { name: 'x-writes', kind: 'boolean', restrictsCallerWhen: true, meaning: 'changes state' },
  { name: 'x-partner-only', kind: 'boolean', restrictsCallerWhen: true, meaning: 'only for B2B partners' },
  { name: 'x-no-cache', kind: 'boolean', restrictsCallerWhen: true, meaning: 'not to be cached' },
];

export type VendorFact =
  | { name: string; kind: 'rate' }
  /** x-retry-safe: true, false, or repeatable only with a key ({ idempotencyKey, source, description }). */
  | { name: string; kind: 'retry' }
  | { name: string; kind: 'boolean'; restrictsCallerWhen: boolean; meaning: string };

/**
 * x-retry-safe as compared: how freely a client may repeat the call (never, with the key, always)
 * and the key. Its description is words, not a fact, and is not compared.
 */
function retryFact(value: unknown): { level: number; key?: string; source?: string } | undefined {
  if (typeof value === 'boolean') return { level: value ? 2 : 0 };
  const key = stringAt(value, 'idempotencyKey');
  if (key === undefined) return undefined;
  const source = stringAt(value, 'source');
  return { level: 1, key, ...(source === undefined ? {} : { source }) };
}

function shownRetry(value: unknown): string {
  const fact = retryFact(value);
  if (!fact) return JSON.stringify(value);
  return fact.key === undefined
    ? String(fact.level === 2)
    : `only with ${fact.key} (${fact.source ?? 'no source'})`;
}

interface FieldFacts {
  required: boolean;
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
}

const yes = (reason: string): Verdict => ({ breaking: true, reason });
const no = (reason: string): Verdict => ({ breaking: false, reason });

/**
 * The changes from `before` to `after`: parsed documents whose `#/…` references are resolved here;
 * a split document comes already dereferenced (scripts/spec-sources.ts).
 */
export function diffDocuments(api: string, before: unknown, after: unknown): SpecChange[] {
  const oldOperations = operationsOf(dereference(before ?? {}));
  const newOperations = operationsOf(dereference(after ?? {}));
  const changes: SpecChange[] = [];
  for (const [key, operation] of newOperations) {
    const previous = oldOperations.get(key);
    const base = { api, operation: key, operationId: stringAt(operation, 'operationId') ?? key };
    if (!previous) {
      changes.push({
        ...base,
        kind: 'operation-added',
        detail: 'operation added',
        caller: no('callers that do not call it are unaffected'),
        server: yes('a server must now implement it'),
      });
      continue;
    }
    if (previous.operationId !== operation.operationId) {
      changes.push({
        ...base,
        kind: 'operation-id-changed',
        detail: `operationId ${previous.operationId} renamed to ${operation.operationId}`,
        caller: yes('code that names the operation (generated types, operation facts, options) must change'),
        server: no('the request on the wire is the same'),
      });
    }
    changes.push(...diffOperation(base, previous, operation));
  }
  for (const [key, operation] of oldOperations) {
    if (newOperations.has(key)) continue;
    changes.push({
      api,
      operation: key,
      operationId: stringAt(operation, 'operationId') ?? key,
      kind: 'operation-removed',
      detail: 'operation removed',
      caller: yes('calls to it will fail'),
      server: no('a server may keep serving it'),
    });
  }
  return changes;
}

function operationsOf(document: unknown): Map<string, JsonRecord> {
  const found = new Map<string, JsonRecord>();
  for (const [path, item] of Object.entries(recordAt(document, 'paths'))) {
    for (const method of methods) {
      const operation = at(item, method);
      if (isRecord(operation)) found.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return found;
}

type Base = Pick<SpecChange, 'api' | 'operation' | 'operationId'>;

function diffOperation(base: Base, before: JsonRecord, after: JsonRecord): SpecChange[] {
  const changes: SpecChange[] = [];
  changes.push(
    ...diffFields({ ...base, location: 'request' }, requestFields(before), requestFields(after), 'request'),
  );
  const oldResponses = recordAt(before, 'responses');
  const newResponses = recordAt(after, 'responses');
  for (const [status, response] of Object.entries(newResponses)) {
    const where = { ...base, location: 'response' as const, status };
    const success = status.startsWith('2');
    if (!(status in oldResponses)) {
      changes.push({
        ...where,
        kind: 'status-added',
        detail: `response ${status} added`,
        caller: success
          ? yes('a success answer of a new status reaches callers that expect the old ones')
          : no('callers already treat an undocumented failure status as an error'),
        server: no('a server need not send it'),
      });
      continue;
    }
    changes.push(
      ...diffFields(where, responseFields(oldResponses[status]), responseFields(response), 'response'),
    );
  }
  for (const status of Object.keys(oldResponses)) {
    if (status in newResponses) continue;
    const success = status.startsWith('2');
    changes.push({
      ...base,
      location: 'response',
      status,
      kind: 'status-removed',
      detail: `response ${status} removed`,
      caller: success
        ? yes('callers that expect this success status will not get it')
        : no('callers simply no longer see it'),
      server: yes('a server that still sends it no longer follows the document'),
    });
  }
  changes.push(...diffVendorFacts(base, before, after));
  return changes;
}

/** The fields a caller sends: parameters by location and name, and the JSON body. */
function requestFields(operation: JsonRecord): Map<string, FieldFacts> {
  const fields = new Map<string, FieldFacts>();
  for (const parameter of arrayAt(operation, 'parameters')) {
    const where = `${stringAt(parameter, 'in')}.${stringAt(parameter, 'name')}`;
    flatten(recordAt(parameter, 'schema'), where, at(parameter, 'required') === true, fields);
  }
  const body = at(operation, 'requestBody');
  if (isRecord(body)) flatten(bodySchema(body), 'body', body.required === true, fields);
  return fields;
}

/** The fields a server sends in one response: headers and the JSON body. */
function responseFields(response: unknown): Map<string, FieldFacts> {
  const fields = new Map<string, FieldFacts>();
  for (const [name, header] of Object.entries(recordAt(response, 'headers'))) {
    flatten(recordAt(header, 'schema'), `header.${name}`, at(header, 'required') === true, fields);
  }
  if (at(response, 'content')) flatten(bodySchema(response), 'body', true, fields);
  return fields;
}

function bodySchema(holder: unknown): JsonRecord {
  const content = recordAt(holder, 'content');
  return recordAt(content['application/json'] ?? Object.values(content)[0], 'schema');
}

/**
 * Every field of a schema by path (`body.data[].amount`; `{*}` for additional properties), with
 * the rules the diff compares. Alternatives (anyOf, oneOf, allOf) contribute their fields to the
 * same path: a field is required when an allOf part requires it, or every anyOf/oneOf branch does.
 */
function flatten(schema: JsonRecord, path: string, required: boolean, out: Map<string, FieldFacts>): void {
  const existing = out.get(path);
  const facts: FieldFacts = existing ?? { required };
  const type = Array.isArray(schema.type) ? [...schema.type].sort().join('|') : schema.type;
  if (type !== undefined) facts.type = String(type);
  if (schema.format !== undefined) facts.format = String(schema.format);
  if (schema.pattern !== undefined) facts.pattern = String(schema.pattern);
  if (Array.isArray(schema.enum)) facts.enum = schema.enum;
  if (schema.const !== undefined) facts.enum = [schema.const];
  out.set(path, facts);
  const requiredNames = new Set(arrayAt(schema, 'required'));
  for (const [name, property] of Object.entries(recordAt(schema, 'properties'))) {
    if (isRecord(property)) flatten(property, `${path}.${name}`, requiredNames.has(name), out);
  }
  if (isRecord(schema.additionalProperties)) flatten(schema.additionalProperties, `${path}.{*}`, false, out);
  if (isRecord(schema.items)) flatten(schema.items, `${path}[]`, true, out);
  for (const part of arrayAt(schema, 'allOf')) if (isRecord(part)) flatten(part, path, required, out);
  const branches = [...arrayAt(schema, 'anyOf'), ...arrayAt(schema, 'oneOf')].filter(isRecord);
  if (branches.length === 0) return;
  const perBranch = branches.map((branch) => {
    const fields = new Map<string, FieldFacts>();
    flatten(branch, path, required, fields);
    return fields;
  });
  for (const fields of perBranch) {
    for (const [field, branchFacts] of fields) {
      if (field === path) {
        // The alternatives' own types join the union of what the value may be.
        if (branchFacts.type !== undefined && facts.type === undefined) facts.type = branchFacts.type;
        continue;
      }
      const everywhere = perBranch.every((other) => other.get(field)?.required === true);
      const merged = out.get(field) ?? { ...branchFacts };
      merged.required = everywhere;
      out.set(field, merged);
    }
  }
}

type Side = 'request' | 'response';

/** Who produces and who reads a message on each side, for the reasons given. */
const parties = {
  request: { producer: 'callers', reader: 'a server' },
  response: { producer: 'a server', reader: 'callers' },
} as const;

/**
 * A rule that lets the producer send more than before breaks the reader; one that lets it send
 * less breaks whatever the producer already sends; a rule changed both ways breaks both.
 */
function classify(side: Side, effect: 'wider' | 'narrower' | 'different', what: string) {
  const { producer, reader } = parties[side];
  const producerIsCaller = side === 'request';
  const readerBreaks = yes(`${reader} must now handle ${what}`);
  const producerBreaks = yes(`what ${producer} sent before may no longer be valid (${what})`);
  const readerVerdict =
    effect === 'narrower' ? no(`${reader} receives nothing it did not handle before`) : readerBreaks;
  const producerVerdict =
    effect === 'wider' ? no(`what ${producer} sent before stays valid`) : producerBreaks;
  return producerIsCaller
    ? { caller: producerVerdict, server: readerVerdict }
    : { caller: readerVerdict, server: producerVerdict };
}

function diffFields(
  where: Base & Pick<SpecChange, 'location' | 'status'>,
  before: Map<string, FieldFacts>,
  after: Map<string, FieldFacts>,
  side: Side,
): SpecChange[] {
  const changes: SpecChange[] = [];
  const push = (
    field: string,
    kind: ChangeKind,
    detail: string,
    verdicts: Pick<SpecChange, 'caller' | 'server'>,
  ) => changes.push({ ...where, field, kind, detail, ...verdicts });
  // A field under one that was added or removed is part of that change, not one of its own.
  const under = (field: string, parents: string[]) =>
    parents.some((parent) => field.startsWith(`${parent}.`) || field.startsWith(`${parent}[]`));
  const added: string[] = [];
  const removed: string[] = [];
  for (const [field, facts] of after) {
    const previous = before.get(field);
    if (previous) {
      changes.push(...diffRules(where, field, previous, facts, side));
      continue;
    }
    if (under(field, added)) continue;
    added.push(field);
    if (side === 'request') {
      push(
        field,
        'field-added',
        `${facts.required ? 'required' : 'optional'} request field ${field} added`,
        facts.required
          ? { caller: yes('existing calls do not send it'), server: yes('a server must now read it') }
          : {
              caller: no('callers need not send it'),
              server: yes('a server must now accept it and act on it'),
            },
      );
    } else {
      push(
        field,
        'field-added',
        `${facts.required ? 'required' : 'optional'} response field ${field} added`,
        {
          caller: no('callers may ignore a field they do not know'),
          server: facts.required ? yes('a server must now send it') : no('a server need not send it'),
        },
      );
    }
  }
  for (const field of before.keys()) {
    if (after.has(field) || under(field, removed)) continue;
    removed.push(field);
    push(
      field,
      'field-removed',
      `${side} field ${field} removed`,
      side === 'request'
        ? {
            caller: yes('calls that send it may be refused, or it no longer has an effect'),
            server: no('a server may keep accepting it'),
          }
        : {
            caller: yes('callers that read it will no longer get it'),
            server: no('a server may keep sending it'),
          },
    );
  }
  return changes;
}

function diffRules(
  where: Base & Pick<SpecChange, 'location' | 'status'>,
  field: string,
  before: FieldFacts,
  after: FieldFacts,
  side: Side,
): SpecChange[] {
  const changes: SpecChange[] = [];
  const push = (kind: ChangeKind, detail: string, verdicts: Pick<SpecChange, 'caller' | 'server'>) =>
    changes.push({ ...where, field, kind, detail, ...verdicts });
  if (!before.required && after.required) {
    push(
      'field-newly-required',
      `${side} field ${field} is now required`,
      side === 'request'
        ? {
            caller: yes('calls without it will be refused'),
            server: no('a server may still cope without it'),
          }
        : { caller: no('callers now always get it'), server: yes('a server must now always send it') },
    );
  }
  if (before.required && !after.required) {
    push(
      'field-no-longer-required',
      `${side} field ${field} is no longer required`,
      side === 'request'
        ? { caller: no('callers may keep sending it'), server: yes('a server must now cope without it') }
        : { caller: yes('callers must now cope without it'), server: no('a server may keep sending it') },
    );
  }
  if (before.type !== after.type) {
    const oldTypes = new Set(before.type?.split('|') ?? []);
    const newTypes = new Set(after.type?.split('|') ?? []);
    const effect =
      after.type === undefined ||
      (before.type !== undefined && [...oldTypes].every((type) => newTypes.has(type)))
        ? 'wider'
        : before.type === undefined || [...newTypes].every((type) => oldTypes.has(type))
          ? 'narrower'
          : 'different';
    const detail = `type of ${field}: ${before.type ?? 'any'} -> ${after.type ?? 'any'}`;
    push('type-changed', detail, classify(side, effect, `values of type ${after.type ?? 'any'}`));
  }
  for (const rule of ['format', 'pattern'] as const) {
    if (before[rule] === after[rule]) continue;
    const effect =
      before[rule] === undefined ? 'narrower' : after[rule] === undefined ? 'wider' : 'different';
    const detail = `${rule} of ${field}: ${before[rule] ?? 'none'} -> ${after[rule] ?? 'none'}`;
    push(
      `${rule}-changed`,
      detail,
      classify(side, effect, `values under the ${rule} ${after[rule] ?? 'none'}`),
    );
  }
  if (before.enum && !after.enum) {
    push(
      'enum-removed',
      `${field} no longer limited to ${list(before.enum)}`,
      classify(side, 'wider', 'any value'),
    );
  } else if (!before.enum && after.enum) {
    push(
      'enum-added',
      `${field} now limited to ${list(after.enum)}`,
      classify(side, 'narrower', `only ${list(after.enum)}`),
    );
  } else if (before.enum && after.enum) {
    const oldValues = before.enum.map((value) => JSON.stringify(value));
    const newValues = after.enum.map((value) => JSON.stringify(value));
    const gained = newValues.filter((value) => !oldValues.includes(value));
    const lost = oldValues.filter((value) => !newValues.includes(value));
    if (gained.length > 0) {
      push(
        'enum-value-added',
        `${field} gains ${gained.join(', ')}`,
        classify(side, 'wider', `the value ${gained.join(', ')}`),
      );
    }
    if (lost.length > 0) {
      push(
        'enum-value-removed',
        `${field} loses ${lost.join(', ')}`,
        classify(side, 'narrower', `the value ${lost.join(', ')}`),
      );
    }
  }
  return changes;
}

const list = (values: unknown[]): string => values.map((value) => JSON.stringify(value)).join(', ');

function diffVendorFacts(base: Base, before: JsonRecord, after: JsonRecord): SpecChange[] {
  const changes: SpecChange[] = [];
  for (const fact of vendorFacts) {
    const oldValue =
      fact.kind === 'retry' ? (retryFact(before[fact.name]) ?? before[fact.name]) : before[fact.name];
    const newValue =
      fact.kind === 'retry' ? (retryFact(after[fact.name]) ?? after[fact.name]) : after[fact.name];
    if (JSON.stringify(oldValue) === JSON.stringify(newValue)) continue;
    const change = { ...base, kind: 'vendor-fact-changed' as const, field: fact.name };
    const shown = (value: unknown) =>
      value === undefined
        ? 'not stated'
        : fact.kind === 'rate'
          ? `${at(value, 'requests')} per ${at(value, 'windowSeconds')} s (${at(value, 'source')})`
          : JSON.stringify(value);
    const detail =
      fact.kind === 'retry'
        ? `${fact.name}: ${oldValue === undefined ? 'not stated' : shownRetry(before[fact.name])} -> ${newValue === undefined ? 'not stated' : shownRetry(after[fact.name])}`
        : `${fact.name}: ${shown(oldValue)} -> ${shown(newValue)}`;
    if (newValue === undefined) {
      changes.push({
        ...change,
        detail,
        caller: yes(`callers can no longer rely on ${fact.name}`),
        server: no('a server keeps behaving as before'),
      });
    } else if (oldValue === undefined) {
      changes.push({
        ...change,
        detail,
        caller: no(`${fact.name} is newly stated; nothing was promised before`),
        server: no(`${fact.name} is newly stated; it describes the server as it is`),
      });
    } else if (fact.kind === 'retry') {
      changes.push({
        ...change,
        detail,
        ...retryVerdicts(retryFact(before[fact.name]), retryFact(after[fact.name])),
      });
    } else if (fact.kind === 'rate') {
      const rate = (limit: unknown) => Number(at(limit, 'requests')) / Number(at(limit, 'windowSeconds'));
      const [oldRate, newRate] = [rate(oldValue), rate(newValue)];
      changes.push({
        ...change,
        detail,
        caller:
          newRate < oldRate
            ? yes('callers at the old rate will be refused with 429')
            : no('callers at the old rate stay within the limit'),
        server:
          newRate > oldRate
            ? yes('a server must now allow more requests')
            : no('a server may keep its limit or lower it'),
      });
    } else {
      const restricts = newValue === fact.restrictsCallerWhen;
      const now = `the operation is now ${newValue === true ? '' : 'not '}${fact.meaning}`;
      changes.push({
        ...change,
        detail,
        caller: restricts ? yes(`${now}: callers must treat it so`) : no(`${now}: callers lose no guarantee`),
        server: restricts ? no('a server keeps behaving as before') : yes(`${now}: a server must make it so`),
      });
    }
  }
  return changes;
}

/**
 * Whom a change of x-retry-safe breaks. A caller relies on it to repeat a call on its own: fewer
 * repeats allowed (always -> with a key -> never) break callers, which would act twice; more
 * break servers, which must now make a repeat harmless. A different key breaks both: a caller's
 * repeats with the old one would act twice, and a server must refuse repeats of the new one.
 */
function retryVerdicts(
  before: ReturnType<typeof retryFact>,
  after: ReturnType<typeof retryFact>,
): { caller: Verdict; server: Verdict } {
  const oldLevel = before?.level ?? 0;
  const newLevel = after?.level ?? 0;
  if (before?.key !== undefined && after?.key !== undefined && before.key !== after.key) {
    return {
      caller: yes(
        `repeats are now safe only with ${after.key}, not ${before.key}: a repeat with the old key acts twice`,
      ),
      server: yes(`a server must now refuse a repeated ${after.key}`),
    };
  }
  if (newLevel < oldLevel) {
    return {
      caller: yes(
        newLevel === 0
          ? 'the operation is now not safe to repeat: callers must send it once'
          : `the operation may now be repeated only when the body has ${after?.key}`,
      ),
      server: no('a server keeps behaving as before'),
    };
  }
  if (newLevel > oldLevel) {
    return {
      caller: no('callers lose no guarantee'),
      server: yes(
        newLevel === 2
          ? 'any repeat must now be harmless: a server must make it so'
          : `a server must now refuse a repeated ${after?.key}`,
      ),
    };
  }
  return {
    caller: no('the same repeats are allowed; only where the fact comes from changed'),
    server: no('the same repeats are allowed; only where the fact comes from changed'),
  };
}
