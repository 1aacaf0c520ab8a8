// The token operation answered, but without a token: the account channels cannot be authorized.
export class TokenAnswerError extends Error {
  override readonly name = 'TokenAnswerError';

  constructor(operationId: string, field: string) {
    super(`${operationId} answered without a ${field}`);
  }
}
