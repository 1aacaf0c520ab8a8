// The result of a call: what a transport brings back (an answer, or no answer at all) and what it
// means, data or an ApiError. Every failure is an ApiError whose `kind` says what went wrong, so
// callers branch on a name instead of guessing from a status or an untyped body. This file is the
// bottom of the call path: it imports nothing of the client.

/** What a response offers: a WHATWG Response, or a transport's lighter equivalent. */
export interface ResponseLike {
  readonly status: number;
  readonly ok: boolean;
  /** The URL called, without credentials. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}

/** The answer to one request: the response and its whole body as text. */
export interface Answer {
  readonly response: ResponseLike;
  readonly text: string;
}

export type ApiErrorKind =
  /** The client refused to send: a field breaks the document's rules (see `field`). */
  | 'invalid-request'
  /** The private error object (`code`, `message`, `errors`), e.g. a validation failure. */
  | 'private-error'
  /**
   * The public error object (`success`, `message`, `params`), or a public endpoint's refusal of
   * its parameters: an object keyed by parameter, each with its messages (`fieldErrors`).
   */
  | 'public-error'
  /** HTTP 429: over a rate limit, or a nonce not greater than the last one. */
  | 'rate-limited'
  /** HTTP 401: key, payload or signature not accepted. */
  | 'unauthorized'
  /** HTTP 403: the key lacks the permission or partner access. */
  | 'forbidden'
  /** HTTP 5xx. */
  | 'server-error'
  /** The connection failed: refused, reset, DNS. */
  | 'transport'
  /** No answer within `timeoutMs`. */
  | 'timeout'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** The body is not what any response of the operation can be: HTML from a proxy, truncated JSON. */
  | 'unexpected-body'
  /** HTTP 3xx: the client never follows a redirect, so signed headers and bodies go nowhere else. */
  | 'redirect'
  /** The answer was larger than `maxResponseBytes`; the connection was discarded. */
  | 'too-large'
  /** The client was closed: calls in flight end at once and later calls fail. */
  | 'closed';

export interface ApiErrorDetails<Body> {
  kind: ApiErrorKind;
  operationId: string;
  status?: number | undefined;
  body?: Body | undefined;
  field?: string | undefined;
  retryAfterMs?: number | undefined;
  attempts?: number | undefined;
  cause?: unknown;
}

export class ApiError<Body = unknown> extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly operationId: string;
  /** The HTTP status, when a response arrived. */
  readonly status: number | undefined;
  /** The parsed error body, typed by the operation's documented error responses. */
  readonly body: Body | undefined;
  /** For `invalid-request`: the offending field, as a path such as `actionTypes.0`. */
  readonly field: string | undefined;
  /** Retry-After of a 429 or 503, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** How many times the call was sent (more than 1 after retries). */
  readonly attempts: number;

  constructor(message: string, details: ApiErrorDetails<Body>) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.operationId = details.operationId;
    this.status = details.status;
    this.body = details.body;
    this.field = details.field;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts ?? 1;
  }

  /** The private error object's `code`, when the body carries one. */
  get code(): number | undefined {
    const code = (this.body as { code?: unknown } | undefined)?.code;
    return typeof code === 'number' ? code : undefined;
  }

  /**
   * Messages per field: the private error object's `errors`, a public refusal's parameters, or
   * the invalid field.
   */
  get fieldErrors(): Record<string, string[]> {
    if (this.kind === 'invalid-request' && this.field) return { [this.field]: [this.message] };
    // A private error object is never keyed by parameter, not even one that is its message alone.
    if (this.kind !== 'private-error' && isFieldErrors(this.body)) return fieldErrorLists(this.body);
    const errors = (this.body as { errors?: unknown } | undefined)?.errors;
    return errors && typeof errors === 'object' && !Array.isArray(errors)
      ? (errors as Record<string, string[]>)
      : {};
  }

  withAttempts(attempts: number): ApiError<Body> {
    return new ApiError<Body>(this.message, {
      kind: this.kind,
      operationId: this.operationId,
      status: this.status,
      body: this.body,
      field: this.field,
      retryAfterMs: this.retryAfterMs,
      cause: this.cause,
      attempts,
    });
  }
}

/** A call's result: its data and response, or an ApiError (with the response, when one came). */
export type CallResult<Data, ErrorBody> =
  | { data: Data; error?: undefined; response: ResponseLike }
  | { data?: undefined; error: ApiError<ErrorBody>; response?: ResponseLike };

/** Thrown at client creation when an option is wrong; names the option. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
  /** The option at fault, e.g. `baseUrl` or `retry.attempts`. */
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.field = field;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The private error object: a `message` and perhaps a `code`; or its messages per field alone,
 * `errors` with no `code` or `message` (observed upstream, a page out of range refused so).
 */
const isPrivateErrorObject = (body: unknown) =>
  isObject(body) &&
  ((typeof body.message === 'string' && (body.code === undefined || typeof body.code === 'number')) ||
    (Object.keys(body).length === 1 && isFieldErrors(body.errors)));

const isPublicErrorObject = (body: unknown) =>
  isObject(body) && body.success === false && typeof body.message === 'string';

/**
 * A public endpoint's refusal of its parameters (observed upstream): an object keyed by
 * parameter, each with a message or a list of messages, and nothing else.
 */
const isFieldErrors = (body: unknown): body is Record<string, string | string[]> =>
  isObject(body) &&
  Object.keys(body).length > 0 &&
  Object.values(body).every(
    (messages) =>
      typeof messages === 'string' ||
      (Array.isArray(messages) && messages.every((message) => typeof message === 'string')),
  );

const fieldErrorLists = (body: Record<string, string | string[]>): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(body).map(([field, messages]) => [field, Array.isArray(messages) ? messages : [messages]]),
  );

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The kind of a failed response, from its status and its (possibly unparseable) body. The status
 * decides first: the gateway answers a rate limit (429) and maintenance (503) with a body that
 * is not JSON, and those are still `rate-limited` and `server-error`, never `unexpected-body`.
 */
function responseErrorKind(status: number, body: unknown, parsed: boolean): ApiErrorKind {
  // A browser's fetch shows a redirect it did not follow as an opaque response of status 0.
  if (status === 0 || (status >= 300 && status < 400)) return 'redirect';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server-error';
  if (!parsed) return 'unexpected-body';
  if (isPublicErrorObject(body)) return 'public-error';
  // Before a public refusal keyed by parameter: a lone `message` (a private endpoint's 404,
  // observed upstream) is the private error object without its code, not a parameter named so.
  if (isPrivateErrorObject(body)) return 'private-error';
  if (isFieldErrors(body)) return 'public-error';
  return 'unexpected-body';
}

/** How much of a body that is not JSON a message quotes: enough to recognise, never a page. */
const quotedTextLength = 200;

/** What a failure's body says, for the message: its `message`, its `error` list, or its text. */
function bodyText(body: unknown): string {
  if (isObject(body) && typeof body.message === 'string') return body.message;
  // The gateway's internal error: {"error":["Internal server error."]}.
  if (isObject(body) && Array.isArray(body.error) && body.error.every((item) => typeof item === 'string')) {
    return body.error.join(' ');
  }
  if (typeof body === 'string') {
    const text = body.trim().replace(/\s+/g, ' ');
    return text.length > quotedTextLength ? `${text.slice(0, quotedTextLength)}…` : text;
  }
  return '';
}

/** The messages per field (the private error object's, or a public refusal's), as `field: message` pairs in one line. */
function fieldErrorText(body: unknown): string {
  const errors =
    isFieldErrors(body) && !isPrivateErrorObject(body) ? body : isObject(body) ? body.errors : undefined;
  if (!isObject(errors)) return '';
  return Object.entries(errors)
    .map(([field, messages]) => {
      const list = Array.isArray(messages) ? messages : [messages];
      const text = list.filter((message) => typeof message === 'string').join(' ');
      return text ? `${field}: ${text}` : '';
    })
    .filter(Boolean)
    .join('; ');
}

/** What happened when no answer arrived, in words that do not repeat the kind's name. */
const withoutAnswer: Partial<Record<ApiErrorKind, string>> = {
  transport: 'the connection failed',
  timeout: 'no answer in time',
  aborted: "stopped by the caller's signal",
};

/** What an answer without a body says by its status alone. */
const emptyAnswer: Readonly<Record<number, string>> = {
  // The gateway's answer to a path it has no route for: most likely a wrong baseUrl.
  404: 'empty, the answer to a path with no route (check baseUrl)',
};

/**
 * The message of a failure: where (operation, HTTP status), then what the body says with its
 * field errors in the same line (`Validation failed: planId: The selected planId is invalid.`).
 * The kind is not repeated: it is the error's own `kind`, which callers print or branch on.
 */
export function describeFailure(
  kind: ApiErrorKind,
  operationId: string,
  status?: number,
  body?: unknown,
): string {
  const where = status === undefined ? operationId : `${operationId} (HTTP ${status})`;
  const text = [bodyText(body), fieldErrorText(body)].filter(Boolean).join(': ');
  const what = text || (status === undefined ? (withoutAnswer[kind] ?? '') : (emptyAnswer[status] ?? ''));
  return what ? `${where}: ${what}` : where;
}

/** Why a transport gave up on an answer that was too large; the connection has been discarded. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
}

/** The reason calls in flight end with when their client is closed. */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
}

const noAnswerKinds: Readonly<Record<string, ApiErrorKind>> = {
  // A deadline aborts with a TimeoutError, as AbortSignal.timeout does.
  TimeoutError: 'timeout',
  ResponseTooLargeError: 'too-large',
  ClientClosedError: 'closed',
};

/**
 * The error of a call that got no answer: the caller aborted, the deadline passed, the answer was
 * too large, the client was closed, or the connection failed.
 */
export function errorWithoutAnswer(
  operationId: string,
  cause: unknown,
  signal: AbortSignal | undefined,
): ApiError {
  const name = (cause as { name?: unknown } | undefined)?.name;
  const known =
    typeof name === 'string' && Object.hasOwn(noAnswerKinds, name) ? noAnswerKinds[name] : undefined;
  const kind = known === 'closed' ? known : signal?.aborted ? 'aborted' : (known ?? 'transport');
  const reason =
    cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : '';
  return new ApiError(`${describeFailure(kind, operationId)}${reason ? `: ${reason}` : ''}`, {
    kind,
    operationId,
    cause,
  });
}

/** Where a redirect pointed, as it may be shown: resolved, credentials removed, or why not. */
function redirectTarget(response: Answer['response']): string {
  const location = response.headers.get('location');
  if (!location) return 'no location given';
  try {
    const target = new URL(location, response.url);
    target.username = '';
    target.password = '';
    return target.href;
  } catch {
    return 'an invalid location';
  }
}

/**
 * What an answer means, as a call's result: the parsed data of a success, or the ApiError of a
 * failure, with the response. A failure's
 * body is kept parsed when it is JSON and as text otherwise. `scrub` removes what must never be
 * shown (the API secret, should a server echo it) before anything is read.
 */
export function readAnswer(
  operationId: string,
  answer: Answer,
  scrub?: (text: string) => string,
): { data: unknown; response: ResponseLike } | { error: ApiError; response: ResponseLike } {
  const { response } = answer;
  const text = scrub ? scrub(answer.text) : answer.text;
  const { status } = response;
  if (response.ok) {
    try {
      if (text === '') throw new SyntaxError('empty body');
      return { data: JSON.parse(text), response };
    } catch (cause) {
      const kind = 'unexpected-body';
      return {
        error: new ApiError(`${describeFailure(kind, operationId, status)}: not JSON`, {
          kind,
          operationId,
          status,
          cause,
        }),
        response,
      };
    }
  }
  let body: unknown = text === '' ? undefined : text;
  let parsed = false;
  if (text !== '') {
    try {
      body = JSON.parse(text);
      parsed = true;
    } catch {}
  }
  const kind = responseErrorKind(status, body, parsed);
  const message =
    kind === 'redirect'
      ? `${describeFailure(kind, operationId, status)}: to ${redirectTarget(response)}, not followed`
      : describeFailure(kind, operationId, status, body);
  return {
    error: new ApiError(message, {
      kind,
      operationId,
      status,
      body,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    }),
    response,
  };
}
