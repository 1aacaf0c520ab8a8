// The operations as txc sees them: one subcommand per operation of generated/operations.ts,
// named by a rule, with the body fields a caller writes. Nothing here names an operation or a
// field: a new operation or field in the documents becomes a subcommand or flag by itself.
import { type OperationId, operations, signedBodyFields } from '../../generated/operations.ts';

/** A body field as the operation facts describe it. */
export interface FieldFacts {
  /** A JSON type, or several (`[integer, 'null']`); absent for a choice of forms (`anyOf`). */
  readonly type?: string | readonly string[];
  readonly anyOf?: readonly FieldFacts[];
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  /** Names of the enum values, in order (x-enum-varnames). */
  readonly enumNames?: readonly string[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: FieldFacts;
  /** An object's fields (a bulk order's items). */
  readonly properties?: Readonly<Record<string, FieldFacts>>;
  readonly required?: readonly string[];
  /** The flag's name without its dashes (x-cli-flag), where it is not the field's own. */
  readonly cliFlag?: string;
}

export interface BodyFacts {
  readonly required: readonly string[];
  readonly properties: Readonly<Record<string, FieldFacts>>;
}

export type RetrySafe = boolean | { readonly idempotencyKey: string };

/** What txc reads of an operation's facts. */
export interface OperationFacts {
  readonly operationId: string;
  readonly summary: string;
  readonly cliName?: string;
  readonly api: string;
  readonly method: string;
  readonly path: string;
  readonly auth: 'none' | 'signed' | 'gateway-token';
  /** The header a `gateway-token` call carries its token in. */
  readonly tokenHeader?: string;
  /** The operation's own servers, when it is served from another origin than its document. */
  readonly servers?: readonly { readonly name: string; readonly url: string }[];
  readonly rateLimit: { readonly requests: number; readonly windowSeconds: number };
  /** Always, never, or only when the body carries the key whose repeat the service refuses. */
  readonly retrySafe: RetrySafe;
  readonly partnerOnly: boolean;
  /** x-writes: the call changes the account. */
  readonly writes: boolean;
  readonly body?: BodyFacts;
  /** A GET's parameters: its path's and its query string's. */
  readonly params?: { readonly path?: BodyFacts; readonly query?: BodyFacts };
}

export interface CliOperation {
  /** The subcommand: see commandName. */
  readonly name: string;
  readonly facts: OperationFacts;
  /** Whether running it changes the account (it then asks for confirmation). */
  readonly writes: boolean;
  /**
   * The fields the caller writes, each a flag: the body's (the client adds request, nonce and
   * nonceWindow), or a GET's path and query parameters.
   */
  readonly body: BodyFacts;
}

/**
 * The naming rule: the subcommand is the document's `x-cli-name` (e.g. `balance`, `cancel-all`),
 * or else the operationId in kebab case (`readSomeThing` -> `read-some-thing`). The operationId
 * itself is always accepted as an alias.
 */
function commandName(facts: OperationFacts): string {
  return facts.cliName ?? facts.operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

const signed = new Set<string>(signedBodyFields);

function callerBody(facts: OperationFacts): BodyFacts {
  const sets = [facts.body, facts.params?.path, facts.params?.query].filter((set) => set !== undefined);
  const properties = sets
    .flatMap((set) => Object.entries(set.properties))
    .filter(([field]) => !signed.has(field));
  return {
    required: sets.flatMap((set) => set.required).filter((field) => !signed.has(field)),
    properties: Object.fromEntries(properties),
  };
}

/** A GET's flag values split into its path and query parameters, as the client takes them. */
export function paramsOf(
  facts: OperationFacts,
  fields: Readonly<Record<string, unknown>>,
): { path?: Record<string, unknown>; query?: Record<string, unknown> } {
  const split: { path?: Record<string, unknown>; query?: Record<string, unknown> } = {};
  for (const [field, value] of Object.entries(fields)) {
    const where = facts.params?.path?.properties[field] ? 'path' : 'query';
    split[where] = { ...split[where], [field]: value };
  }
  return split;
}

export const cliOperations: readonly CliOperation[] = (
  Object.values(operations) as readonly OperationFacts[]
).map((facts) => ({ name: commandName(facts), facts, writes: facts.writes, body: callerBody(facts) }));

export type { OperationId };
