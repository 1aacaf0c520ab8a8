// The WebSocket token of the account channels, from the HTTP operation that issues it (the one the
// stream documents name, x-token-operation in generated/streams.ts), called with the private
// client and the credentials every signed subcommand uses. The stream client asks for a fresh one for each
// connection that needs it and once more after a refusal; the token goes from the answer to the
// stream client and nowhere else (it is never printed, and an error never quotes it).
import { operations } from '../../../generated/operations.ts';
import { streamTokenOperation } from '../../../generated/streams.ts';
import { callByPath } from '../../client.ts';
import type { PrivateClient } from '../../index.ts';
import type { OperationFacts } from '../operations.ts';
import { TokenAnswerError } from './token-answer-error.ts';

/** The operation that issues the token, by its id in the documents. */
export const tokenOperationId: string = streamTokenOperation.operationId;
/** The field of its answer that holds the token. */
const tokenField: string = streamTokenOperation.field;

/** The operation's facts, or undefined when the documents this txc was built from lack it. */
export function tokenOperation(): OperationFacts | undefined {
  return (operations as Readonly<Record<string, OperationFacts>>)[tokenOperationId];
}

/**
 * A token provider for the stream client: each call asks the operation for a fresh token. A
 * refusal rejects with its ApiError (the stream client wraps it in an AuthorizationError).
 */
export function tokenProvider(client: PrivateClient, operation: OperationFacts): () => Promise<string> {
  return async () => {
    const result = await callByPath(client, operation.path, {});
    if (result.error) throw result.error;
    const token = (result.data as Record<string, unknown> | undefined)?.[tokenField];
    if (typeof token !== 'string' || token === '')
      throw new TokenAnswerError(operation.operationId, tokenField);
    return token;
  };
}
