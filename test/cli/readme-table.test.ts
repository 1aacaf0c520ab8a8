// README's subcommand table lists every subcommand txc has, each with its operationId, and no
// other: a new operation's subcommand is missing from the README until its row is added.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../model/document.ts';
import { cliOperations } from '../../src/cli/operations.ts';

const readme = readFileSync(`${projectRoot}/README.md`, 'utf8');

describe('README subcommand table', () => {
  it('lists every subcommand with its operation, and nothing else', () => {
    const table = readme.slice(readme.indexOf('| subcommand | operation |'));
    const rows = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| `([a-z-]+)` \| `(\w+)`/gm)].map(
      ([, name, operationId]) => `${name} ${operationId}`,
    );
    expect(rows.sort()).toEqual(
      cliOperations.map((operation) => `${operation.name} ${operation.facts.operationId}`).sort(),
    );
  });
});
