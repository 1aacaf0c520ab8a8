// Renders the changes of a spec diff for people (plain text, markdown for a pull request) and
// for tools (JSON), grouped by document and operation.
import type { SpecChange } from './spec-diff.ts';

export type ReportFormat = 'text' | 'markdown' | 'json';

export interface DiffReport {
  /** What the working tree was compared with. */
  base: string;
  changes: SpecChange[];
}

const verdict = (change: SpecChange, party: 'caller' | 'server'): string =>
  `${change[party].breaking ? 'BREAKING' : 'not breaking'} for a ${party}: ${change[party].reason}`;

function grouped(changes: SpecChange[]): Map<string, SpecChange[]> {
  const groups = new Map<string, SpecChange[]>();
  for (const change of changes) {
    const key = `${change.api}: ${change.operationId} (${change.operation})`;
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return groups;
}

const where = (change: SpecChange): string =>
  change.location === 'response' ? `response ${change.status}` : (change.location ?? 'operation');

export function renderReport(report: DiffReport, format: ReportFormat): string {
  const { changes } = report;
  const breaking = changes.filter((change) => change.caller.breaking || change.server.breaking);
  if (format === 'json') {
    return `${JSON.stringify(
      {
        base: report.base,
        breakingForCallers: changes.some((change) => change.caller.breaking),
        breakingForServers: changes.some((change) => change.server.breaking),
        changes,
      },
      null,
      2,
    )}\n`;
  }
  const summary =
    changes.length === 0
      ? `No changes to operations since ${report.base}.`
      : `${changes.length} change(s) since ${report.base}: ${
          changes.filter((change) => change.caller.breaking).length
        } breaking for callers, ${changes.filter((change) => change.server.breaking).length} for servers, ${
          changes.length - breaking.length
        } breaking for neither.`;
  const lines: string[] = [];
  if (format === 'markdown') {
    lines.push('## API changes', '', summary);
    for (const [operation, group] of grouped(changes)) {
      lines.push('', `### ${operation}`, '', '| change | where | caller | server |', '|---|---|---|---|');
      for (const change of group) {
        const cell = (party: 'caller' | 'server') =>
          `${change[party].breaking ? '**breaking**' : 'ok'}: ${change[party].reason}`;
        lines.push(
          `| ${escapeCell(change.detail)} | ${where(change)} | ${escapeCell(cell('caller'))} | ${escapeCell(cell('server'))} |`,
        );
      }
    }
    return `${lines.join('\n')}\n`;
  }
  lines.push(summary);
  for (const [operation, group] of grouped(changes)) {
    lines.push('', operation);
    for (const change of group) {
      lines.push(`  - ${change.detail} [${where(change)}]`);
      lines.push(`      ${verdict(change, 'caller')}`);
      lines.push(`      ${verdict(change, 'server')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const escapeCell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
