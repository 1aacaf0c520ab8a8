// A failure as one line on stderr: kind, HTTP status, the private error code, the message and the
// errors per field, with the flag that set a field where there is one. Never the secret: an
// ApiError carries none.
import type { ApiError } from '../../index.ts';

export function errorLine(error: ApiError, flagOf: (field: string) => string | undefined): string {
  const parts: string[] = [error.kind];
  if (error.status !== undefined) parts.push(`HTTP ${error.status}`);
  if (error.code !== undefined) parts.push(`code ${error.code}`);
  const body = error.body as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : error.message;
  const fields = Object.entries(error.fieldErrors).map(([field, messages]) => {
    const flag = flagOf(field);
    return `${field}${flag ? ` (${flag})` : ''}: ${messages.join(' ')}`;
  });
  const retry =
    error.retryAfterMs !== undefined ? `; retry after ${Math.ceil(error.retryAfterMs / 1000)} s` : '';
  const detail = fields.length > 0 && error.kind !== 'invalid-request' ? `; ${fields.join('; ')}` : '';
  const invalidFlag = error.kind === 'invalid-request' && error.field ? flagOf(error.field) : undefined;
  return `txc: ${parts.join(', ')}: ${message}${invalidFlag ? ` (${invalidFlag})` : ''}${detail}${retry}`;
}

/**
 * The parser's own message (an unknown option or subcommand, a missing value) as one `txc:` line,
 * like every other error: the parser writes `error: …` and its hints on lines of their own.
 */
export function parserErrorLine(text: string): string {
  const message = text
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return `txc: ${message} (txc --help for usage)\n`;
}
