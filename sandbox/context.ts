// What a state transition gets: the state, the operation called (whose named examples and
// `x-messages` are the only refusals it may give), the caller of a signed call or of a call a
// gateway token authorised, and the time.
import type { Answer } from './answer.ts';
import type { OperationDocument } from './document.ts';
import { documented, validation, worded } from './errors.ts';
import type { FixtureKey } from './fixture.ts';
import type { CallParameters } from './parameters.ts';
import type { AccountState, SandboxState } from './state.ts';

export interface CallContext {
  state: SandboxState;
  /** The operation called. */
  operation: OperationDocument;
  /** The key a signed call was signed with; absent for a public call. */
  key?: FixtureKey;
  /**
   * The account whose fiat gateway token authorised an unsigned `gateway-token` call (the token
   * stands in for the key there); absent for every other call.
   */
  gatewayAccount?: AccountState;
  /** Milliseconds since the epoch, on the sandbox's clock. */
  now: number;
  /** A GET's parameters, read and validated. */
  params?: CallParameters;
}

/**
 * A state change, named by an operation's `x-sandbox-state` (transitions.ts). `run` carries
 * a call out once the pipeline (route, signature, rate limit, nonce, key, request validation)
 * has let it through; an answer other than 2xx must leave the state as it was. Of a batch
 * (OperationDocument.batchField), the pipeline checks only that the batch is an array: its count
 * and items are the transition's to check.
 */
export interface Transition<Body> {
  readonly run: (context: CallContext, body: Body) => Answer;
}

/** The key and account of a signed call. */
export function caller(context: CallContext): { key: FixtureKey; account: AccountState } {
  if (!context.key) throw new Error(`${context.operation.id} is not a signed call`);
  return { key: context.key, account: context.state.account(context.key.account) };
}

/** The account of a call its gateway token authorised. */
export function gatewayCaller(context: CallContext): AccountState {
  if (!context.gatewayAccount) {
    throw new Error(`${context.operation.id} is not a call authorised by a gateway token`);
  }
  return context.gatewayAccount;
}

export const ok = (body: unknown): Answer => ({ status: 200, body });

/** The operation's named example `name`, as is. */
export const refuse = (context: CallContext, name: string): Answer => documented(context.operation, name);

/** The example `name` with `errors` naming fields. */
export const refuseWith = (context: CallContext, name: string, errors: Record<string, string[]>): Answer =>
  validation(context.operation, name, errors);

/** A refusal worded by the operation's `x-messages` (see errors.ts `worded`). */
export const refuseWorded = (
  context: CallContext,
  field: string,
  message: string,
  values?: Readonly<Record<string, string>>,
  shape?: string,
): Answer => worded(context.operation, field, message, values, shape);
