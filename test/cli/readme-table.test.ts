// The txc guide's subcommand table (docs/guides/txc.md) lists the subcommands that are txc's own
// (`ops`, `watch`), every one of them and no operation's: an operation's subcommand is listed by
// `txc ops` and the txc page, both from the documents, so a new operation costs the guide nothing.
import { describe, expect, it } from 'vitest';
import { cliOperations } from '../../src/cli/operations.ts';
import { buildProgram } from '../../src/cli/program.ts';
import { guideText } from '../manual.ts';

const guide = guideText('txc');
const start = guide.slice(guide.indexOf('| subcommand | what it does |'));
const table = start.slice(0, start.indexOf('\n\n'));

describe('the txc guide: subcommand table', () => {
  it("has a row for each subcommand of txc's own, and none for an operation's", () => {
    const names = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map(([, name]) => name);
    const operationNames = new Set(cliOperations.map((operation) => operation.name));
    const program = buildProgram(() => undefined);
    const own = program.commands.map((command) => command.name()).filter((name) => !operationNames.has(name));
    expect(own).toEqual(expect.arrayContaining(['ops', 'watch']));
    expect(names.sort()).toEqual(own.sort());
  });

  it('points to where every operation’s subcommand is listed', () => {
    expect(guide).toContain('`npx txc ops`');
    expect(guide).toContain('(./cli.html)');
  });
});
