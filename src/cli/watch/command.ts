// `txc watch`: a subcommand a channel (channels.ts), each with the channel's summary and update
// interval, its argument and flags from its subscribe's params (params.ts), and the options every
// watch shares; `txc watch --help` lists the channels. Nothing here names a channel.
import { type Command, Option } from 'commander';
import { streamServers } from '../../../generated/streams.ts';
import { environmentVariables, streamVariables } from '../../../model/environment.ts';
import { exitCodes } from '../exit-codes.ts';
import { commanderOptions, type FieldFlag } from '../flags.ts';
import { type WatchChannel, watchChannels } from './channels.ts';
import { runWatch, type WatchFlags } from './run-watch.ts';
import { tokenOperation, tokenOperationId } from './token.ts';

const serverNames = [...new Set(Object.values(streamServers).flatMap(Object.keys))];

/** Where an account channel's token comes from, as --help says it. */
function tokenSource(): string {
  const operation = tokenOperation();
  return operation ? `${operation.method.toUpperCase()} ${operation.path}` : tokenOperationId;
}

function sharedOptions(account: boolean): Option[] {
  return [
    new Option('--json', 'print NDJSON (one update a line) even on a terminal'),
    new Option(
      '--stream-url <url>',
      `the streams' WebSocket URL (default ${streamVariables.url}, else the streams of --base-url's origin)`,
    ),
    new Option(
      '--base-url <url>',
      `the origin whose streams (at /ws, as the sandbox serves them) to watch${account ? ', and whose HTTP API gives the token' : ''} (default ${environmentVariables.baseUrl})`,
    ),
    new Option('--server <name>', `a deployment named in the stream documents: ${serverNames.join(', ')}`),
    new Option(
      '--env-file <path>',
      `read ${[...Object.values(environmentVariables), streamVariables.url].join(', ')} from a KEY=VALUE file`,
    ),
  ];
}

function interval(channel: WatchChannel): string {
  if (channel.intervalSeconds === null) return 'Updates come as things happen.';
  return `Updates come every ${channel.intervalSeconds} s.`;
}

const watchHelp = `
Piped, or with --json: NDJSON, each update's params as the server sent them, one a line (amounts
stay strings). On a terminal: a live view that fits its width (depth: the book's best levels side
by side; the others: a table of the newest updates). Ctrl-C stops: it unsubscribes, closes the
connection and exits ${exitCodes.success}.

The stream URL: --stream-url or ${streamVariables.url}; else --base-url's or ${environmentVariables.baseUrl}'s
origin with ws(s) and /ws (where the sandbox serves them); or --server. A deployment's streams may
be on another host than its HTTP API: give them with --stream-url. The account channels take their
token from the HTTP API (${tokenSource()}) with ${environmentVariables.apiKey} and
${environmentVariables.apiSecret}; it is never printed.

Exit codes: ${exitCodes.success} stopped, ${exitCodes.usage} usage, ${exitCodes.denied} unauthorized or token refused, ${exitCodes.unavailable} no connection or no answer,
${exitCodes.other} anything else (a subscription refused).`;

function addChannelCommand(watch: Command, channel: WatchChannel, setExitCode: (code: number) => void): void {
  const account = channel.requiresAuthorization
    ? ` Needs credentials: an account channel, authorized with a token from ${tokenSource()}.`
    : '';
  const command = watch
    .command(channel.command)
    .summary(`${channel.summary}${channel.requiresAuthorization ? ' Needs credentials.' : ''}`)
    .description(`${channel.summary} ${interval(channel)}${account}`);
  if (channel.command !== channel.channel) command.alias(channel.channel);
  const { argument } = channel.params;
  if (argument) {
    const name = `${argument.label}${argument.variadic ? '...' : ''}`;
    command.argument(argument.required ? `<${name}>` : `[${name}]`, argument.description);
  }
  const shared = sharedOptions(channel.requiresAuthorization);
  const taken = new Set(shared.map((option) => option.long));
  const attributes = new Map<FieldFlag, string>();
  for (const flag of channel.params.flags) {
    const [option, ...others] = commanderOptions(flag);
    if (!option) continue;
    for (const each of [option, ...others]) {
      if (taken.has(each.long)) {
        throw new Error(`${channel.channel}: parameter ${flag.field} would be ${each.long}, a txc option`);
      }
      command.addOption(each);
    }
    attributes.set(flag, option.attributeName());
  }
  for (const option of shared) command.addOption(option);
  command.addHelpText('after', watchHelp);
  command.action(async (...args: unknown[]) => {
    // commander passes the argument (if any), then the options, then the command.
    const given = argument ? args[0] : undefined;
    const values = (argument ? args[1] : args[0]) as WatchFlags & Record<string, unknown>;
    const list = given === undefined ? [] : Array.isArray(given) ? given.map(String) : [String(given)];
    setExitCode(await runWatch(channel, list, values, (flag) => attributes.get(flag) ?? flag.field));
  });
}

/**
 * Adds `txc watch` to the program, a subcommand for each channel; made by `command()`, they take
 * the program's settings (its exit override, its parser errors as one `txc:` line).
 */
export function addWatchCommand(program: Command, setExitCode: (code: number) => void): void {
  const watch = program
    .command('watch')
    .description('stream a channel of the WebSocket streams: NDJSON when piped, a live view on a terminal')
    .helpCommand(false)
    .addHelpText('after', watchHelp);
  for (const channel of watchChannels) addChannelCommand(watch, channel, setExitCode);
}
