// Prints, as JSON, what `txc --help` and `txc <subcommand> --help` print, for every subcommand and
// `ops`: txc's own program (src/cli/program.ts), asked for each help in turn in one process, its
// output captured instead of written. Run by docs/cli-help.ts as a child process, so that it reads
// the operation table as it is on disk now (`npm start` rewrites it while it runs).
import { CommanderError } from 'commander';
import { cliOperations } from '../src/cli/operations.ts';
import { buildProgram } from '../src/cli/program.ts';

const commands = ['', ...cliOperations.map((operation) => operation.name), 'ops'];
const helps: { command: string; text: string }[] = [];
// One program for every help: a program holds every subcommand, so building one per help made
// the work grow with the square of the operations' number. Asking for help changes nothing in it.
let text = '';
const program = buildProgram(() => {});
for (const each of [program, ...program.commands]) {
  each.configureOutput({
    writeOut: (chunk) => {
      text += chunk;
    },
  });
}
for (const command of commands) {
  text = '';
  try {
    await program.parseAsync([...(command ? [command] : []), '--help'], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError) || error.exitCode !== 0) throw error;
  }
  helps.push({ command, text: text.trimEnd() });
}
process.stdout.write(JSON.stringify(helps));
