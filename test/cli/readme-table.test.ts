// The txc guide's subcommand table (docs/guides/txc.md) lists every subcommand txc has, each
// operation's with its operationId, and no other: a new operation's subcommand (or any other, such
// as `watch`) is missing from the guide until its row is added.
import { describe, expect, it } from 'vitest';
import { cliOperations } from '../../src/cli/operations.ts';
import { buildProgram } from '../../src/cli/program.ts';
import { guideText } from '../manual.ts';

const guide = guideText('txc');
const start = guide.slice(guide.indexOf('| subcommand | operation |'));
const table = start.slice(0, start.indexOf('\n\n'));

describe('the txc guide: subcommand table', () => {
  it('lists every subcommand with its operation, and nothing else', () => {
    const rows = [...table.matchAll(/^\| `([a-z-]+)` \| `(\w+)`/gm)].map(
      ([, name, operationId]) => `${name} ${operationId}`,
    );
    expect(rows.sort()).toEqual(
      cliOperations.map((operation) => `${operation.name} ${operation.facts.operationId}`).sort(),
    );
  });

  it('has a row for each subcommand of the program, operations or not (ops, watch)', () => {
    const names = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map(([, name]) => name);
    const program = buildProgram(() => undefined);
    const commands = program.commands.map((command) => command.name());
    expect(commands).toEqual(expect.arrayContaining(['ops', 'watch']));
    expect(names.sort()).toEqual(commands.sort());
  });
});
