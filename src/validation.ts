// Validation of real traffic: every answer (or a sampled share of them) checked against what the
// documents promise, its status, content type, documented headers and JSON schema, with each
// mismatch reported as a drift event that holds names, numbers and ajv's messages, never a
// header value, a body or a credential. Two ways in: `createValidationMiddleware()` for an
// openapi-fetch client (the `txc-api-v4/validation` entry), and the clients' `validate` option,
// which loads this module only when set.
//
// ajv is an optional peer dependency: it is loaded, by a specifier no bundler follows, only when
// a validator is made, so that neither the package's entry nor `txc-api-v4/middleware` carries
// it, and a program that never validates never needs it installed. It compiles each schema on
// first use (with `new Function`: a page whose Content-Security-Policy forbids eval cannot
// validate).
import type { Middleware } from 'openapi-fetch';
import { type DocumentedResponse, responseContracts } from '../generated/responses.ts';
import { ConfigurationError } from './errors.ts';
import type { Transport } from './transport/types.ts';
import {
  checkValidationOptions,
  type Drift,
  type DriftCheck,
  type DriftEvent,
  type ValidationOptions,
} from './validation-options.ts';

export type { Drift, DriftCheck, DriftEvent, ValidationOptions };

/** An answer as a validator reads it. */
export interface ObservedAnswer {
  method: string;
  path: string;
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

export interface ResponseValidator {
  /** Whether to check the next answer: draws from `random` against `sampleRate`. */
  sampled(): boolean;
  /** Checks one answer and reports its drift to `onDrift`; returns the drifts, empty when none. */
  check(answer: ObservedAnswer): readonly Drift[];
}

type SchemaCheck = ((value: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string; keyword: string }[] | null;
};
interface SchemaCompiler {
  compile(schema: object): SchemaCheck;
  addFormat(name: string, format: object): unknown;
}

/** Read at run time, so that a bundler neither follows nor needs it. */
const ajvSpecifier = ['ajv', 'dist', '2020.js'].join('/');

/** Formats the documents use; any other format is not checked (ajv's `strict: false`). */
const formats: Record<string, object> = {
  int32: {
    type: 'number',
    validate: (value: number) => Number.isInteger(value) && Math.abs(value) <= 2 ** 31,
  },
  int64: { type: 'number', validate: (value: number) => Number.isInteger(value) },
  uuid: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
};

async function loadCompiler(): Promise<SchemaCompiler> {
  let module: { default?: unknown };
  try {
    module = await import(/* @vite-ignore */ ajvSpecifier);
  } catch {
    throw new ConfigurationError(
      'validate',
      'validation needs the optional peer dependency ajv (npm install ajv@8)',
    );
  }
  const Ajv = ((module.default as { default?: unknown })?.default ?? module.default) as new (
    options: object,
  ) => SchemaCompiler;
  const compiler = new Ajv({ allErrors: true, strict: false, logger: false, validateFormats: true });
  for (const [name, format] of Object.entries(formats)) compiler.addFormat(name, format);
  return compiler;
}

/** A header's value as its schema types it: a number where the schema wants one. */
function headerValue(value: string, schema: Readonly<Record<string, unknown>>): unknown {
  const type = schema.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return value;
}

const fieldOf = (instancePath: string) => instancePath.slice(1).replaceAll('/', '.') || '(body)';

/** Makes a validator: ajv loads now, each schema compiles on its first answer. */
export async function createResponseValidator(options: ValidationOptions): Promise<ResponseValidator> {
  checkValidationOptions(options);
  const compiler = await loadCompiler();
  const compiled = new WeakMap<object, SchemaCheck>();
  const schemaCheck = (schema: object) => {
    let check = compiled.get(schema);
    if (!check) {
      check = compiler.compile(schema);
      compiled.set(schema, check);
    }
    return check;
  };
  const { onDrift, sampleRate = 1, random = Math.random } = options;

  const drifts = (documented: DocumentedResponse, answer: ObservedAnswer): Drift[] => {
    const found: Drift[] = [];
    const mediaType = answer.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    // An empty body has no content type to check (servers label even those).
    if (answer.text !== '') {
      if (!mediaType || !documented.contentTypes.includes(mediaType)) {
        found.push({
          check: 'content_type_conformance',
          message: `content type ${mediaType ?? '(none)'} is not documented (${documented.contentTypes.join(', ') || 'no body'})`,
        });
      }
    }
    for (const [name, header] of Object.entries(documented.headers)) {
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required)
          found.push({ check: 'response_headers_conformance', field: name, message: 'is missing' });
        continue;
      }
      const check = schemaCheck(header.schema);
      if (!check(headerValue(value, header.schema))) {
        const message = check.errors?.[0]?.message ?? 'does not match its schema';
        found.push({ check: 'response_headers_conformance', field: name, message });
      }
    }
    if (documented.schema && mediaType === 'application/json') {
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        found.push({ check: 'response_schema_conformance', field: '(body)', message: 'is not JSON' });
        return found;
      }
      const check = schemaCheck(documented.schema);
      if (!check(body)) {
        for (const error of check.errors ?? []) {
          found.push({
            check: 'response_schema_conformance',
            field: fieldOf(error.instancePath),
            message: error.message ?? error.keyword,
          });
        }
      }
    }
    return found;
  };

  return {
    sampled: () => sampleRate >= 1 || random() < sampleRate,
    check(answer) {
      const method = answer.method.toLowerCase();
      const contract = responseContracts[`${method} ${answer.path}`];
      // A path the documents do not have is not ours to judge: the client refuses it before sending.
      if (!contract) return [];
      const documented = contract.responses[String(answer.status)] ?? contract.responses.default;
      const found: Drift[] = documented
        ? drifts(documented, answer)
        : [
            {
              check: 'status_code_conformance',
              message: `status ${answer.status} is not documented (${Object.keys(contract.responses).join(', ')})`,
            },
          ];
      if (found.length > 0) {
        const event: DriftEvent = Object.freeze({
          operationId: contract.operationId,
          method,
          path: answer.path,
          status: answer.status,
          drifts: Object.freeze(found.map((drift) => Object.freeze(drift))),
        });
        try {
          onDrift(event);
        } catch (error) {
          // As a hook's: the call goes on; the error is thrown again on its own.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
      return found;
    },
  };
}

/**
 * An openapi-fetch middleware that checks every answer (or the sampled share) against the
 * documents and reports drift to `onDrift`. Give it after a signing middleware or alone (public
 * calls); it reads a copy of the body and never changes the response.
 */
export function createValidationMiddleware(options: ValidationOptions): Middleware {
  checkValidationOptions(options);
  const validator = createResponseValidator(options);
  // A load failure is reported by the first answer, never as an unhandled rejection.
  validator.catch(() => undefined);
  return {
    async onResponse({ request, response, schemaPath }) {
      const ready = await validator;
      // An answer left out of the sample is not even read.
      if (!ready.sampled()) return undefined;
      ready.check({
        method: request.method,
        path: schemaPath,
        status: response.status,
        headers: response.headers,
        text: await response.clone().text(),
      });
      return undefined;
    },
  };
}

/**
 * A client's transport with its answers checked against the route's documented path. The answer
 * goes on unchanged, after `onDrift` has seen any drift.
 */
export function validatingTransport(inner: Transport, validator: ResponseValidator): Transport {
  return {
    async lease(target, deadline) {
      const lease = await inner.lease(target, deadline);
      return {
        async send(outgoing) {
          const answer = await lease.send(outgoing);
          if (validator.sampled()) {
            validator.check({
              method: target.method,
              path: target.path,
              status: answer.response.status,
              headers: answer.response.headers,
              text: answer.text,
            });
          }
          return answer;
        },
        release: () => lease.release(),
      };
    },
    close: (reason) => inner.close(reason),
  };
}
