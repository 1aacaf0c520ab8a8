// Changing a document without regenerating must fail `npm run check:generated`, and
// regenerating must make it pass: proven on a copy of the project, never the real one.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../model/document.ts';

const copy = mkdtempSync(join(tmpdir(), 'drift-'));
for (const part of ['openapi', 'generated', 'redocly.yaml']) {
  cpSync(join(projectRoot, part), join(copy, part), { recursive: true });
}
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const generate = (...flags: string[]) =>
  spawnSync(
    process.execPath,
    ['--import', 'tsx', join(projectRoot, 'scripts/generate.ts'), '--root', copy, ...flags],
    {
      encoding: 'utf8',
    },
  );

function edit(file: string, from: string, to: string) {
  const path = join(copy, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

describe('generated/ drift', () => {
  it('the copy starts up to date', () => {
    expect(generate('--check').status).toBe(0);
  });

  it("a changed field in an operation's own file fails the check until regenerated", () => {
    edit(
      'openapi/paths/listFlexInvestmentHistory.yaml',
      'transaction:\n              type: string',
      'transaction:\n              type: integer',
    );
    const stale = generate('--check');
    expect(stale.status).not.toBe(0);
    expect(stale.stderr).toContain('private-v4.ts is stale');
    expect(generate().status).toBe(0);
    expect(generate('--check').status).toBe(0);
  });

  it('a changed shared component fails the check until regenerated', () => {
    edit(
      'openapi/components/schemas/OrderKind.yaml',
      'enum: [spot, margin, futures]',
      'enum: [spot, margin]',
    );
    const stale = generate('--check');
    expect(stale.status).not.toBe(0);
    expect(stale.stderr).toContain('private-v4.ts is stale');
    expect(generate().status).toBe(0);
    expect(readFileSync(join(copy, 'generated/private-v4.ts'), 'utf8')).toContain(
      'OrderKind: "spot" | "margin";',
    );
  });

  it('a changed rate limit fails the check until regenerated', () => {
    edit('openapi/paths/getCollateralBalanceSummary.yaml', 'requests: 12000', 'requests: 11000');
    const stale = generate('--check');
    expect(stale.status).not.toBe(0);
    expect(stale.stderr).toContain('operations.ts is stale');
    expect(generate().status).toBe(0);
    expect(readFileSync(join(copy, 'generated/operations.ts'), 'utf8')).toContain('"requests": 11000');
  });
});
