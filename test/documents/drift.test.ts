// Changing a document without regenerating must fail `npm run check:generated`, and
// regenerating must make it pass: proven on a copy of the project, never the real one, whose
// HTTP documents keep a few operations (those edited here among them): whether a change is caught
// does not depend on how many operations a document has, and rendering the whole private document
// again after each edit was most of this file's time. That the project's own generated/ is up to
// date is the check:generated stage of npm test, not this file's. The command (its exit code and
// message) runs here, in this process, once, on the first kind of change: scripts/generate.ts
// only hands it the process's arguments and exit code, and a process of its own would load
// codegen's modules a second time. The other kinds go through the functions it calls.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../model/document.ts';
import { runGenerate } from '../../scripts/generate-command.ts';
import { staleGeneratedFiles, writeGeneratedFiles } from '../../scripts/generated-files.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { keepFewOperations } from '../few-operations.ts';

const copy = mkdtempSync(join(tmpdir(), 'drift-'));
for (const part of ['openapi', 'asyncapi', 'generated', 'redocly.yaml']) {
  cpSync(join(projectRoot, part), join(copy, part), { recursive: true });
}
keepFewOperations(copy, { operationIds: ['listFlexInvestmentHistory', 'getCollateralBalanceSummary'] });
// The copy's generated/, of the cut documents: what the edits below make stale.
beforeAll(() => writeGeneratedFiles(copy), timeLimits.hookMs);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** `npm run check:generated`'s command, on the copy: its exit code and its lines on stderr. */
async function checkCommand() {
  const stderr: string[] = [];
  const status = await runGenerate(['--root', copy, '--check'], {
    out: () => {},
    err: (line) => stderr.push(line),
  });
  return { status, stderr: stderr.join('\n') };
}

function edit(file: string, from: string, to: string) {
  const path = join(copy, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

describe('generated/ drift', () => {
  it('the copy starts up to date', async () => {
    expect(await staleGeneratedFiles(copy)).toEqual({ differing: [], leftover: [] });
  });

  it("a changed field in an operation's own file fails npm run check:generated until regenerated", async () => {
    edit(
      'openapi/paths/listFlexInvestmentHistory.yaml',
      'transaction:\n              type: string',
      'transaction:\n              type: integer',
    );
    const stale = await checkCommand();
    expect(stale.status, stale.stderr).toBe(1);
    expect(stale.stderr).toContain('generated/private-v4.ts is stale: run npm run generate');
    // Its passing run is the check:generated stage of npm test, on the project itself.
    await writeGeneratedFiles(copy);
    expect(await staleGeneratedFiles(copy)).toEqual({ differing: [], leftover: [] });
  });

  it('a changed shared component fails the check until regenerated', async () => {
    edit(
      'openapi/components/schemas/OrderKind.yaml',
      'enum: [spot, margin, futures]',
      'enum: [spot, margin]',
    );
    expect((await staleGeneratedFiles(copy)).differing).toContain('generated/private-v4.ts');
    await writeGeneratedFiles(copy);
    expect(readFileSync(join(copy, 'generated/private-v4.ts'), 'utf8')).toContain(
      'OrderKind: "spot" | "margin";',
    );
    expect(await staleGeneratedFiles(copy)).toEqual({ differing: [], leftover: [] });
  });

  it('a changed rate limit fails the check until regenerated', async () => {
    edit('openapi/paths/getCollateralBalanceSummary.yaml', 'requests: 12000', 'requests: 11000');
    expect((await staleGeneratedFiles(copy)).differing).toContain('generated/operations.ts');
    await writeGeneratedFiles(copy);
    expect(readFileSync(join(copy, 'generated/operations.ts'), 'utf8')).toContain('"requests": 11000');
    expect(await staleGeneratedFiles(copy)).toEqual({ differing: [], leftover: [] });
  });

  it('a changed stream channel fails the check until its types and facts are regenerated', async () => {
    edit(
      'asyncapi/channels/depth.yaml',
      'enum: [1, 5, 10, 20, 30, 50, 100]',
      'enum: [1, 5, 10, 20, 30, 50, 100, 200]',
    );
    edit('asyncapi/channels/depth.yaml', 'x-update-interval-seconds: 0.1', 'x-update-interval-seconds: 0.2');
    expect((await staleGeneratedFiles(copy)).differing.sort()).toEqual([
      'generated/streams-public-v4.ts',
      'generated/streams.ts',
    ]);
    await writeGeneratedFiles(copy);
    expect(readFileSync(join(copy, 'generated/streams-public-v4.ts'), 'utf8')).toContain(
      '1 | 5 | 10 | 20 | 30 | 50 | 100 | 200',
    );
    expect(readFileSync(join(copy, 'generated/streams.ts'), 'utf8')).toContain('"intervalSeconds": 0.2');
    expect(await staleGeneratedFiles(copy)).toEqual({ differing: [], leftover: [] });
  });
});
