import { StreamError } from './stream-error.ts';

/**
 * The server answered a request with an `error`. Its shape is not shown upstream, so it is kept as
 * it came (scrubbed of the token) in `body`, and the message quotes its `message` when it has one.
 */
export class StreamRequestError extends StreamError {
  override readonly name = 'StreamRequestError';
  readonly kind = 'request-refused';
  readonly method: string;
  /** The answer's `error`, as the server sent it, the token removed. */
  readonly body: unknown;

  constructor(method: string, body: unknown) {
    super(`${method}: refused by the server${describe(body)}`);
    this.method = method;
    this.body = body;
  }

  /** The error's `code`, when it has a numeric one. */
  get code(): number | undefined {
    const code = (body(this.body) as { code?: unknown } | undefined)?.code;
    return typeof code === 'number' ? code : undefined;
  }
}

const body = (value: unknown) => (typeof value === 'object' && value !== null ? value : undefined);

/** How much of an error the message quotes: enough to recognise, never a page. */
const quotedLength = 200;

function describe(error: unknown): string {
  const message = (body(error) as { message?: unknown } | undefined)?.message;
  const text =
    typeof message === 'string' ? message : typeof error === 'string' ? error : JSON.stringify(error);
  if (!text) return '';
  return `: ${text.length > quotedLength ? `${text.slice(0, quotedLength)}…` : text}`;
}
