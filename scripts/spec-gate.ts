// The version gate of `npm test` (`npm run spec:gate`): a document whose change breaks callers
// needs a new major `info.version` and a section for it in CHANGELOG.md; any other change to its
// operations needs at least a new minor version. Servers are not gated here: the project's own
// (the sandbox, the mocks) are checked against the documents by the contract suite.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Comparison, compareWithRef, type DocumentComparison } from './spec-compare.ts';

export interface GateResult {
  passed: boolean;
  lines: string[];
}

type Version = [number, number, number];

function parseVersion(text: string | undefined): Version | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text ?? '');
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** The versions CHANGELOG.md has a section for (`## 5.0.0`, `## [5.0.0] - 2025-01-01`) with some text in it. */
export function changelogVersions(text: string): Set<string> {
  const versions = new Set<string>();
  const sections = text.split(/^## /m).slice(1);
  for (const section of sections) {
    const [heading = '', ...body] = section.split('\n');
    const version = /^\[?v?(\d+\.\d+\.\d+[^\]\s]*)/.exec(heading)?.[1];
    if (version && body.join('\n').trim() !== '') versions.add(version);
  }
  return versions;
}

function checkDocument(document: DocumentComparison, changelog: Set<string>): string[] {
  const { name, file, oldVersion, newVersion, changes } = document;
  if (newVersion === undefined) return [`${name}: ${file} was removed, which breaks every caller`];
  if (oldVersion === undefined || changes.length === 0) return [];
  const before = parseVersion(oldVersion);
  const after = parseVersion(newVersion);
  if (!before || !after)
    return [`${name}: info.version ${oldVersion} -> ${newVersion} is not a version x.y.z`];
  const breaking = changes.filter((change) => change.caller.breaking);
  const describeChange = (change: (typeof changes)[number]) =>
    `${change.operationId}: ${change.detail} (${change.caller.reason})`;
  if (breaking.length > 0) {
    const problems: string[] = [];
    if (after[0] <= before[0]) {
      problems.push(
        `${name}: ${breaking.length} change(s) break callers, so info.version needs a new major version (now ${oldVersion} -> ${newVersion}):`,
        ...breaking.map((change) => `  - ${describeChange(change)}`),
      );
    }
    if (!changelog.has(newVersion)) {
      problems.push(
        `${name}: CHANGELOG.md needs a section "## ${newVersion}" saying what breaks for callers${
          problems.length === 0 ? `: ${breaking.map(describeChange).join('; ')}` : ''
        }`,
      );
    }
    return problems;
  }
  const newer = after[0] > before[0] || (after[0] === before[0] && after[1] > before[1]);
  if (newer) return [];
  return [
    `${name}: ${changes.length} change(s) break no caller but need at least a new minor version (now ${oldVersion} -> ${newVersion}):`,
    ...changes.map((change) => `  - ${change.operationId}: ${change.detail}`),
  ];
}

/** Checks the working tree against `ref` (default: last tag, else merge base with main). */
export function runGate(root: string, ref?: string): GateResult {
  const comparison: Comparison = compareWithRef(root, ref);
  if (!comparison.found) {
    return { passed: true, lines: [`spec:gate: skipped, ${comparison.reason}`] };
  }
  const { base, documents } = comparison;
  if (documents.every((document) => !document.differs)) {
    return { passed: true, lines: [`spec:gate: the documents are unchanged since ${base.how}`] };
  }
  const changelogFile = join(root, 'CHANGELOG.md');
  const changelog = changelogVersions(existsSync(changelogFile) ? readFileSync(changelogFile, 'utf8') : '');
  const problems = documents.flatMap((document) => checkDocument(document, changelog));
  if (problems.length > 0) {
    return {
      passed: false,
      lines: [`spec:gate: failed against ${base.how} (npm run spec:diff shows every change):`, ...problems],
    };
  }
  const changed = documents.filter((document) => document.changes.length > 0);
  return {
    passed: true,
    lines: [
      changed.length === 0
        ? `spec:gate: only descriptions or examples changed since ${base.how}; no new version needed`
        : `spec:gate: passed against ${base.how}: ${changed
            .map((document) => `${document.name} ${document.oldVersion} -> ${document.newVersion}`)
            .join(', ')}`,
    ],
  };
}
