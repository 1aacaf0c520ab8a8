// Prints, at the end of a run, a table per transport (each vitest project of the suite is one
// transport) with one line per operation: checks passed, failed and skipped, the declared
// statuses covered by a passing check and those not covered; then each failed check with its
// transport, the names of the checks that failed, the first lines of its error (which name the
// operation and the field at fault) and the calls that reproduce it, as txc and as curl.

import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { operations } from '../generated/operations.ts';
import { contractVariables } from '../model/environment.ts';
import { checkNamesIn, reproducerHeading } from './support/reproducer.ts';
import { type TransportName, transportNames } from './support/transport-names.ts';
import { describeTarget } from './support/variables.ts';

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
    if (failures.length) {
      lines.push('', 'Failed contract checks:');
      for (const failure of failures) lines.push(`  ${failure}`);
    }
    // A check that could not run on this target says why (the stateful run on a mock).
    const notRun = new Set<string>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const reason = test.meta().skipReason;
        if (reason && test.result().state === 'skipped') notRun.add(`  ${test.name}: ${reason}`);
      }
    }
    if (notRun.size) lines.push('', 'Not run on this target:', ...notRun);
    process.stdout.write(`${lines.join('\n')}\n\n`);
  }

  /** Adds the table of one transport's modules to `lines`; returns its failures. */
  private table(lines: string[], testModules: readonly TestModule[]): string[] {
    const rows = new Map<string, Row>();
    for (const operationId of Object.keys(operations)) {
      rows.set(operationId, { passed: 0, failed: 0, skipped: 0, covered: new Set(), failures: [] });
    }
    const other: Row = { passed: 0, failed: 0, skipped: 0, covered: new Set(), failures: [] };
    for (const module of testModules) {
      for (const test of module.children.allTests()) this.count(rows, other, test);
    }
    const width = Math.max(...[...rows.keys()].map((key) => key.length), 'operation'.length) + 2;
    lines.push(
      `${pad('operation', width)}${pad('passed', 8)}${pad('failed', 8)}${pad('skipped', 9)}statuses`,
    );
    // A run of the suite's own checks (--self-check) calls no operation: no rows of zeros for it.
    const anyOperationRan = [...rows.values()].some((row) => row.passed + row.failed + row.skipped > 0);
    for (const [operationId, row] of anyOperationRan ? rows : []) {
      const covered = [...row.covered].sort();
      const missing = declared(operationId).filter((status) => !row.covered.has(status));
      lines.push(
        `${pad(operationId, width)}${pad(String(row.passed), 8)}${pad(String(row.failed), 8)}${pad(
          String(row.skipped),
          9,
        )}covered ${covered.join(',') || '-'}${missing.length ? `; not covered ${missing.join(',')}` : ''}`,
      );
    }
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
