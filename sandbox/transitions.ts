// The sandbox's state changes, by operationId: the one place in sandbox/ that names
// operations. An operation without an entry here is answered from its document (its first
// named success example) once the call has passed the pipeline every call goes through, so a
// stateless operation costs only its YAML. Everything a transition answers besides its state
// (messages, codes, statuses, refusals) is read from the operation's named examples and
// `x-messages`.
import type { OperationId } from '../generated/operations.ts';
import type { BodyOf } from './api-types.ts';
import type { Transition } from './context.ts';
import {
  invest,
  listInvestmentHistory,
  readCollateralSummary,
  readMainBalance,
} from './handlers/main-account.ts';
import { cancelAll } from './handlers/orders.ts';

export const transitions: { readonly [Op in OperationId]?: Transition<BodyOf<Op>> } = {
  getMainBalance: { run: readMainBalance },
  listFlexInvestmentHistory: { run: listInvestmentHistory },
  createFixedInvestment: { run: invest },
  getCollateralBalanceSummary: { run: readCollateralSummary },
  cancelAllOrders: { run: cancelAll },
};

/** The transition of an operation of any document set (a copy may hold operations with none). */
export function transitionOf(operationId: string): Transition<never> | undefined {
  return (transitions as Readonly<Record<string, Transition<never>>>)[operationId];
}
