// How `txc watch` ends when something fails: one line on stderr that names the channel (and what
// was asked of it) and the cause, the causes behind it included (a timeout's connection that never
// opened, an authorization's refused token call), and an exit code of the same table as every
// subcommand's (exit-codes.ts). The stream client's errors and the HTTP client's carry no token
// and no secret, and nothing else is quoted.
import { ApiError } from '../../errors.ts';
import { StreamError } from '../../streams/errors/stream-error.ts';
import { exitCodeOf, exitCodes } from '../exit-codes.ts';

/** An error and its causes, outermost first, at most a few deep. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let next: unknown = error; next !== undefined && chain.length < 4; ) {
    chain.push(next);
    next = next instanceof Error ? next.cause : undefined;
  }
  return chain;
}

function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const status = error.status === undefined ? '' : `, HTTP ${error.status}`;
    const code = error.code === undefined ? '' : `, code ${error.code}`;
    const body = error.body as { message?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : error.message;
    return `${error.kind}${status}${code}: ${message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** `txc: watch depth BTC_USDT: <what failed>: <why>`. */
export function failureLine(subject: string, error: unknown): string {
  const texts: string[] = [];
  for (const each of causes(error)) {
    const text = describe(each);
    // A wrapper often repeats its cause's words: each text once.
    if (text && !texts.some((earlier) => earlier.includes(text))) texts.push(text);
  }
  return `txc: watch ${subject}: ${texts.join(': ')}`;
}

/** The exit code: the HTTP client's kinds as every subcommand maps them, the stream's likewise. */
export function failureExitCode(error: unknown): number {
  const api = causes(error).find((each) => each instanceof ApiError);
  if (api instanceof ApiError) return exitCodeOf(api.kind);
  if (!(error instanceof StreamError)) return exitCodes.other;
  switch (error.kind) {
    case 'connection':
    case 'timeout':
    case 'pong-timeout':
      return exitCodes.unavailable;
    case 'authorization':
      return exitCodes.denied;
    default:
      return exitCodes.other;
  }
}
