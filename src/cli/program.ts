// The command tree: one subcommand per operation (named by operations.ts, the operationId as an
// alias), its flags from the request schema, the connection flags every call shares, `ops`, and
// `watch` with a subcommand per stream channel (watch/command.ts).
import { Command, Option } from 'commander';
import { servers } from '../../generated/operations.ts';
import { environmentVariables } from '../../model/environment.ts';
import { exitCodes } from './exit-codes.ts';
import { commanderOptions, type FieldFlag, fieldFlag, fieldFlags } from './flags.ts';
import { type BodyFacts, cliOperations, type RetrySafe } from './operations.ts';
import { listOperations } from './ops.ts';
import { parserErrorLine } from './output/error-line.ts';
import { type OperationFlags, runOperation } from './run-operation.ts';
import { UsageError } from './usage-error.ts';
import { addWatchCommand } from './watch/command.ts';

const serverNames = [...new Set(Object.values(servers).flatMap((list) => list.map((server) => server.name)))];

const commonHelp = `
Credentials come from ${environmentVariables.apiKey} and ${environmentVariables.apiSecret} (the secret is never
a flag), the origin from ${environmentVariables.baseUrl}; --env-file reads them from a KEY=VALUE file.
The fiat gateway's calls take its token from ${environmentVariables.gatewayToken} (what jwt-token prints), never a flag.
Output is a table on a terminal, JSON when piped or with --json.

Exit codes: ${exitCodes.success} success, ${exitCodes.usage} usage or invalid request, ${exitCodes.denied} unauthorized or forbidden,
${exitCodes.rateLimited} rate limited, ${exitCodes.unavailable} server error, transport failure or timeout, ${exitCodes.other} anything else.`;

/** The flag of the body field whose value makes a retry safe (a quote's id). */
const keyFlag = (body: BodyFacts, key: string): string => fieldFlag(key, body.properties[key] ?? {});

function connectionOptions(signed: boolean, retrySafe: RetrySafe, body: BodyFacts): Option[] {
  return [
    new Option('--json', 'print JSON even on a terminal'),
    new Option(
      '--env-file <path>',
      `read ${Object.values(environmentVariables).join(', ')} from a KEY=VALUE file`,
    ),
    new Option('--base-url <url>', `origin to call (default ${environmentVariables.baseUrl})`),
    new Option('--server <name>', `a deployment named in the documents: ${serverNames.join(', ')}`),
    new Option('--timeout-ms <ms>', 'per-attempt timeout in milliseconds (default 10000)'),
    // An operation the documents say is never repeated has no --retry at all.
    ...(retrySafe === false
      ? []
      : [
          new Option(
            '--retry',
            retrySafe === true
              ? 'retry on 429, 5xx, timeouts and transport failures'
              : `retry on 429, 5xx, timeouts and transport failures, only when ${keyFlag(body, retrySafe.idempotencyKey)} is given (sent again with the same value)`,
          ),
        ]),
    new Option(
      '--validate',
      'check the answer against the documents: drift is printed on stderr, exit code 1',
    ),
    ...(signed ? [new Option('--nonce-window', 'send nonceWindow: true (timestamp nonces)')] : []),
  ];
}

/** Builds the program; `setExitCode` receives each action's exit code. */
/** What --retry does to an operation that writes, for its help. */
function retryHelp(safe: RetrySafe, body: BodyFacts): string {
  if (safe === true) return '';
  if (safe === false) return ' Never retried.';
  return ` Retried (with --retry) only when ${keyFlag(body, safe.idempotencyKey)} is given.`;
}

export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('txc')
    .description(
      'The exchange API v4 from the command line; every subcommand is an operation of the documents.',
    )
    .exitOverride()
    // Subcommands inherit it: every parser error is one `txc:` line.
    .configureOutput({ outputError: (text, write) => write(parserErrorLine(text)) })
    .helpCommand(false)
    .addHelpText('after', commonHelp);

  for (const operation of cliOperations) {
    const { facts } = operation;
    const signed = facts.auth === 'signed';
    const command = program
      .command(operation.name)
      .alias(facts.operationId)
      .description(`${facts.summary} (${facts.method.toUpperCase()} ${facts.path})`);
    const shared = connectionOptions(signed, facts.retrySafe, operation.body);
    if (operation.writes) shared.push(new Option('--yes', 'send without asking for confirmation'));
    const taken = new Set(shared.map((option) => option.long));
    const flags = fieldFlags(operation.body);
    const attributes = new Map<FieldFlag, string>();
    const aliases = new Map<FieldFlag, string>();
    for (const flag of flags) {
      if (taken.has(flag.flag)) {
        throw new Error(`${facts.operationId}: body field ${flag.field} would be ${flag.flag}, a txc option`);
      }
      const [option, ...others] = commanderOptions(flag);
      if (!option) continue;
      attributes.set(flag, option.attributeName());
      for (const each of [option, ...others]) {
        if (taken.has(each.long)) {
          throw new Error(
            `${facts.operationId}: body field ${flag.field} would be ${each.long}, a txc option`,
          );
        }
        command.addOption(each);
      }
      // The field's own flag, where x-cli-flag renamed it: hidden, for scripts written before.
      if (flag.alias) {
        const alias = new Option(`${flag.alias} ${option.flags.split(' ')[1] ?? ''}`.trim()).hideHelp();
        if (taken.has(alias.long) || command.options.some((other) => other.long === alias.long)) {
          throw new Error(`${facts.operationId}: the alias ${flag.alias} of ${flag.field} is taken`);
        }
        if (option.parseArg) alias.argParser(option.parseArg);
        aliases.set(flag, alias.attributeName());
        command.addOption(alias);
      }
    }
    for (const option of shared) command.addOption(option);
    const notes = [
      `Rate limit: ${facts.rateLimit.requests} requests per ${facts.rateLimit.windowSeconds} s.`,
      facts.partnerOnly ? 'B2B partner keys only.' : '',
      operation.writes
        ? `Changes the account: asks for confirmation on a terminal, needs --yes otherwise.${retryHelp(facts.retrySafe, operation.body)}`
        : '',
    ].filter(Boolean);
    command.addHelpText('after', `\n${notes.join('\n')}\n${commonHelp}`);
    command.action(async (values: OperationFlags & Record<string, unknown>) => {
      for (const [flag, alias] of aliases) {
        const attribute = attributes.get(flag) ?? flag.field;
        if (values[alias] === undefined) continue;
        if (values[attribute] !== undefined) {
          throw new UsageError(`${flag.alias} is another name of ${flag.flag}: give one of them`);
        }
        values[attribute] = values[alias];
      }
      setExitCode(await runOperation(operation, flags, values, (flag) => attributes.get(flag) ?? flag.field));
    });
  }

  program
    .command('ops')
    .description('list the operations: subcommand, rate limit, partner-only, writes, retry-safe')
    .option('--json', 'print JSON even on a terminal')
    .action((values: { json?: boolean }) => {
      listOperations(values.json);
      setExitCode(exitCodes.success);
    });
  addWatchCommand(program, setExitCode);
  return program;
}
