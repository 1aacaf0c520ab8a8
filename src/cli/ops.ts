// `txc ops`: every subcommand with its operation, rate limit and flags (partner-only, writes,
// retry-safe), from the operation facts.
import { cliOperations, type RetrySafe } from './operations.ts';
import { renderTable } from './output/table.ts';
import { terminalWidth, wantsJson } from './output/write.ts';

export function listOperations(json: boolean | undefined): void {
  const rows = cliOperations.map(({ name, facts, writes }) => ({
    command: name,
    operationId: facts.operationId,
    method: facts.method.toUpperCase(),
    path: facts.path,
    rateLimit: { requests: facts.rateLimit.requests, windowSeconds: facts.rateLimit.windowSeconds },
    partnerOnly: facts.partnerOnly,
    writes,
    retrySafe: facts.retrySafe,
  }));
  if (wantsJson(json)) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  const yes = (flag: boolean) => (flag ? 'yes' : '-');
  const retries = (safe: RetrySafe) =>
    typeof safe === 'boolean' ? yes(safe) : `with ${safe.idempotencyKey}`;
  const table = renderTable(
    ['command', 'operationId', 'request', 'rate limit', 'partner-only', 'writes', 'retry-safe'],
    rows.map((row) => [
      row.command,
      row.operationId,
      `${row.method} ${row.path}`,
      `${row.rateLimit.requests} per ${row.rateLimit.windowSeconds} s`,
      yes(row.partnerOnly),
      yes(row.writes),
      retries(row.retrySafe),
    ]),
    // A subcommand is what a user types: never cut; the operationId and the request give up room.
    { width: terminalWidth(), whole: ['command'] },
  );
  process.stdout.write(`${table}\n`);
}
