// txc's main: refuses a secret on the command line before anything parses it, runs the program,
// and turns every way it can end into an exit code (see exit-codes.ts).
import { CommanderError } from 'commander';
import { environmentVariables } from '../../model/environment.ts';
import { ConfigurationError } from '../index.ts';
import { optionSources } from './connection.ts';
import { exitCodes } from './exit-codes.ts';
import { buildProgram } from './program.ts';
import { UsageError } from './usage-error.ts';

/** Runs txc with the arguments after the program name; resolves with the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  // Command lines are visible to other users of the machine: a secret there is refused without
  // echoing it (the parser's own error would print the argument).
  if (args.some((arg) => /^--?[\w-]*secret/i.test(arg))) {
    process.stderr.write(
      `txc: the API secret is never taken from the command line (other users can read it); set ${environmentVariables.apiSecret} or use --env-file\n`,
    );
    return exitCodes.usage;
  }
  let code: number = exitCodes.success;
  const program = buildProgram((exitCode) => {
    code = exitCode;
  });
  try {
    await program.parseAsync([...args], { from: 'user' });
    return code;
  } catch (error) {
    // The parser has printed its own message (unknown option, missing value, help).
    if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.success : exitCodes.usage;
    if (error instanceof UsageError) {
      process.stderr.write(`txc: ${error.message}\n`);
      return exitCodes.usage;
    }
    if (error instanceof ConfigurationError) {
      const source = optionSources[error.field];
      process.stderr.write(`txc: ${error.message}${source ? ` (set with ${source})` : ''}\n`);
      return exitCodes.usage;
    }
    process.stderr.write(`txc: ${error instanceof Error ? error.message : String(error)}\n`);
    return exitCodes.other;
  }
}
