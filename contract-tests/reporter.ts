// Prints, at the end of a run, a table per transport (each vitest project of the suite is one
// transport) with one line per operation: checks passed, failed and skipped, the declared
// statuses covered by a passing check and those not covered; then each failed check with its
// transport, the names of the checks that failed, the first lines of its error (which name the
// operation and the field at fault) and the calls that reproduce it, as txc and as curl. The
// stream part (streams.contract.ts, whatever the transport) gets a table of its own, one line per
// channel, and its failures, listed with the others, carry a websocat line.

import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { operations } from '../generated/operations.ts';
import { contractVariables } from '../model/environment.ts';
import { checkNamesIn, reproducerHeading } from './support/reproducer.ts';
import { type TransportName, transportNames } from './support/transport-names.ts';
import { describeTarget } from './support/variables.ts';

/** A test of the stream part: its channel (streams.contract.ts tags it). */
const channelOf = (test: TestCase): string | undefined => test.meta().stream?.channel;

interface Row {
  passed: number;
  failed: number;
  skipped: number;
  covered: Set<number>;
  failures: string[];
}

const declared = (operationId: string): readonly number[] =>
  (operations as Record<string, { statuses: readonly number[] }>)[operationId]?.statuses ?? [];

const pad = (text: string, width: number) => text.padEnd(width);

/**
 * A failed test as the report lists it: its name, the checks that failed, their first problems on
 * one line, then each reproducer as it is (multi-line shell commands a reader copies).
 */
function describeFailure(name: string, messages: readonly string[]): string {
  const message = messages.join('\n');
  const start = message.indexOf(reproducerHeading);
  const problems = (start < 0 ? message : message.slice(0, start)).trim();
  const reproducers = start < 0 ? '' : message.slice(start).trim();
  const checks = checkNamesIn(problems);
  return [
    `${name}${checks.length ? ` (failed: ${checks.join(', ')})` : ''}`,
    `      ${problems.split('\n').slice(0, 8).join(' ')}`,
    ...(reproducers
      ? reproducers
          .split('\n')
          // A stack or a tool's hint after the commands is not part of them.
          .filter((line) => line.trim() !== '' && !/^\s*at /.test(line) && !line.startsWith('Hint:'))
          .map((line) => `      ${line}`)
      : []),
  ].join('\n');
}

export default class ContractReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const byTransport = new Map<string, TestModule[]>();
    for (const module of testModules) {
      const transport = module.project.name;
      byTransport.set(transport, [...(byTransport.get(transport) ?? []), module]);
    }
    const target = describeTarget(process.env[contractVariables.target]?.trim() || 'mock');
    const lines: string[] = [];
    const failures: string[] = [];
    const order = (name: string) => transportNames.indexOf(name as TransportName);
    for (const [transport, modules] of [...byTransport].sort(([a], [b]) => order(a) - order(b))) {
      lines.push('', `Contract summary (target: ${target}; transport: ${transport})`);
      failures.push(...this.table(lines, modules).map((failure) => `[${transport}] ${failure}`));
    }
    failures.push(...this.streamTable(lines, testModules).map((failure) => `[stream] ${failure}`));
    if (failures.length) {
      lines.push('', 'Failed contract checks:');
      for (const failure of failures) lines.push(`  ${failure}`);
    }
    // A check that could not run on this target says why (the stateful run on a mock).
    // The stream part's, one line a reason, with the channels it holds for.
    const notRun = new Set<string>();
    const streamsNotRun = new Map<string, Set<string>>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const reason = test.meta().skipReason;
        if (!reason || test.result().state !== 'skipped') continue;
        const channel = channelOf(test);
        if (channel === undefined) notRun.add(`  ${test.name}: ${reason}`);
        else streamsNotRun.set(reason, (streamsNotRun.get(reason) ?? new Set()).add(channel));
      }
    }
    for (const [reason, channels] of streamsNotRun)
      notRun.add(`  stream checks of ${[...channels].join(', ')}: ${reason}`);
    if (notRun.size) lines.push('', 'Not run on this target:', ...notRun);
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }

  /** Adds the table of the stream part's channels to `lines`, if it ran; returns its failures. */
  private streamTable(lines: string[], testModules: readonly TestModule[]): string[] {
    const rows = new Map<string, Row>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const channel = channelOf(test);
        if (channel === undefined) continue;
        const row = rows.get(channel) ?? {
          passed: 0,
          failed: 0,
          skipped: 0,
          covered: new Set(),
          failures: [],
        };
        rows.set(channel, row);
        const result = test.result();
        if (result.state === 'passed') row.passed++;
        else if (result.state === 'failed') {
          row.failed++;
          row.failures.push(
            describeFailure(
              test.name,
              (result.errors ?? []).map((error) => error.message),
            ),
          );
        } else row.skipped++;
      }
    }
    if (rows.size === 0) return [];
    const stream =
      process.env[contractVariables.streamTarget]?.trim() ||
      process.env[contractVariables.target]?.trim() ||
      'mock';
    const width = Math.max(...[...rows.keys()].map((key) => key.length), 'channel'.length) + 2;
    lines.push('', `Stream summary (target: ${describeTarget(stream)})`);
    lines.push(`${pad('channel', width)}${pad('passed', 8)}${pad('failed', 8)}skipped`);
    for (const [channel, row] of rows)
      lines.push(
        `${pad(channel, width)}${pad(String(row.passed), 8)}${pad(String(row.failed), 8)}${row.skipped}`,
      );
    return [...rows].flatMap(([channel, row]) => row.failures.map((failure) => `${channel}: ${failure}`));
  }

  /** Adds the table of one transport's modules to `lines`; returns its failures. */
  private table(lines: string[], testModules: readonly TestModule[]): string[] {
    const rows = new Map<string, Row>();
    for (const operationId of Object.keys(operations)) {
      rows.set(operationId, { passed: 0, failed: 0, skipped: 0, covered: new Set(), failures: [] });
    }
    const other: Row = { passed: 0, failed: 0, skipped: 0, covered: new Set(), failures: [] };
    for (const module of testModules) {
      for (const test of module.children.allTests())
        if (channelOf(test) === undefined) this.count(rows, other, test);
    }
    const width = Math.max(...[...rows.keys()].map((key) => key.length), 'operation'.length) + 2;
    lines.push(
      `${pad('operation', width)}${pad('passed', 8)}${pad('failed', 8)}${pad('skipped', 9)}statuses`,
    );
    // Only the operations this transport has checks of: a run of the suite's own checks
    // (--self-check) calls none, and a transport other than the first one calls one operation of
    // each wire shape (support/wire-shapes.ts); no rows of zeros for the others.
    const ran = [...rows].filter(([, row]) => row.passed + row.failed + row.skipped > 0);
    for (const [operationId, row] of ran) {
      const covered = [...row.covered].sort();
      const missing = declared(operationId).filter((status) => !row.covered.has(status));
      lines.push(
        `${pad(operationId, width)}${pad(String(row.passed), 8)}${pad(String(row.failed), 8)}${pad(
          String(row.skipped),
          9,
        )}covered ${covered.join(',') || '-'}${missing.length ? `; not covered ${missing.join(',')}` : ''}`,
      );
    }
    if (ran.length > 0 && ran.length < rows.size)
      lines.push(`(${rows.size - ran.length} other operations: no check of theirs ran on this transport)`);
    lines.push(
      `${pad('(suite checks)', width)}${pad(String(other.passed), 8)}${pad(String(other.failed), 8)}${other.skipped}`,
    );
    const failures = [...rows].flatMap(([operationId, row]) =>
      row.failures.map((failure) => `${operationId}: ${failure}`),
    );
    return [...failures, ...other.failures];
  }

  private count(rows: Map<string, Row>, other: Row, test: TestCase): void {
    const meta = test.meta().contract;
    // Untagged tests (skipped ones never ran) belong to the operation their outer suite names.
    const operationId = meta?.operationId ?? test.fullName.split(' > ')[0] ?? '';
    const row = rows.get(operationId) || other;
    const result = test.result();
    if (result.state === 'passed') {
      row.passed++;
      if (meta?.status !== undefined && declared(operationId).includes(meta.status))
        row.covered.add(meta.status);
    } else if (result.state === 'failed') {
      row.failed++;
      row.failures.push(
        describeFailure(
          test.name,
          (result.errors ?? []).map((error) => error.message),
        ),
      );
    } else row.skipped++;
  }
}
