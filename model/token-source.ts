// Where a gateway-token operation's token comes from: the link into it, from another operation's
// answer, whose `x-stateful` names `gatewayToken` as a runtime expression into that answer's body.
// Try it (docs/try-it.ts) and the contract suite (contract-tests/support/clients.ts) both get
// the token this way, so the documents say once which call issues it.
import { operations } from '../generated/operations.ts';
import { at, recordAt } from './json.ts';
import type { DocumentModel } from './model.ts';

export interface TokenSource {
  /** The operation whose answer holds the token. */
  operationId: string;
  /** The status of that answer. */
  status: number;
  /** A JSON pointer to the token in its body (`/data/token`). */
  at: string;
}

/** The token source of `operationId`, or undefined when no link names one. */
export function gatewayTokenSource(model: DocumentModel, operationId: string): TokenSource | undefined {
  for (const source of Object.keys(operations)) {
    const responses = recordAt(model.operation(source).object, 'responses');
    for (const [status, response] of Object.entries(responses)) {
      for (const link of Object.values(recordAt(response, 'links'))) {
        if (at(link, 'operationId') !== operationId) continue;
        const expression = at(link, 'x-stateful', 'gatewayToken');
        const pointer =
          typeof expression === 'string' ? /^\$response\.body#(\/.*)$/.exec(expression)?.[1] : undefined;
        if (pointer) return { operationId: source, status: Number(status), at: pointer };
      }
    }
  }
  return undefined;
}
