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
  readonly auth: 'none' | 'signed';
  readonly rateLimit: { readonly requests: number; readonly windowSeconds: number };
  /** Always, never, or only when the body carries the key whose repeat the service refuses. */
  readonly retrySafe: RetrySafe;
  readonly partnerOnly: boolean;
  /** x-writes: the call changes the account. */
  readonly writes: boolean;
  readonly body?: BodyFacts;
}

export interface CliOperation {
  /** The subcommand: see commandName. */
  readonly name: string;
  readonly facts: OperationFacts;
  /** Whether running it changes the account (it then asks for confirmation). */
  readonly writes: boolean;
  /** The body fields the caller writes (the client adds request, nonce and nonceWindow). */
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
  const properties = Object.entries(facts.body?.properties ?? {}).filter(([field]) => !signed.has(field));
  return {
    required: (facts.body?.required ?? []).filter((field) => !signed.has(field)),
    properties: Object.fromEntries(properties),
  };
}

export const cliOperations: readonly CliOperation[] = (
  Object.values(operations) as readonly OperationFacts[]
).map((facts) => ({ name: commandName(facts), facts, writes: facts.writes, body: callerBody(facts) }));

export type { OperationId };
