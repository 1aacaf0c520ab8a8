// Where a gateway-token operation's token comes from: the link into it, from another operation's
// answer, whose `x-stateful` names `gatewayToken` as a runtime expression into that answer's body.
// The generator writes it into each such operation's facts (`tokenSource` in
// generated/operations.ts), which the client's refusal, Try it (docs/try-it.ts) and the contract
// suite (contract-tests/support/clients.ts) read: the documents say once which call issues it.
import { at, recordAt } from './json.ts';
import type { OperationView } from './model.ts';

export interface TokenSource {
  /** The operation whose answer holds the token. */
  operationId: string;
  /** The status of that answer. */
  status: number;
  /** A JSON pointer to the token in its body (`/data/token`). */
  at: string;
}

/** What the links are read from: the documents' operations (a DocumentModel is one). */
export interface LinkedOperations {
  readonly operations: readonly Pick<OperationView, 'operationId' | 'object'>[];
}

/**
 * The token source of `operationId`, or undefined when no link names one. It reads the documents'
 * operations, not generated/'s table, since the generator derives that table with it.
 */
export function gatewayTokenSource(model: LinkedOperations, operationId: string): TokenSource | undefined {
  for (const { operationId: source, object } of model.operations) {
    const responses = recordAt(object, 'responses');
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
