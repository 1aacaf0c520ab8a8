// The version gate of `npm test`, on a temporary git repository holding the fixture document.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { changelogVersions, runGate } from '../../scripts/spec-gate.ts';
import type { FixtureDocument } from './fixture-document.ts';

const fixture = readFileSync(new URL('./fixtures/base.yaml', import.meta.url), 'utf8');
const changelog = '# Changelog\n\n## 1.0.0\n\nThe first version.\n';
const repositories: string[] = [];

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/**
 * A repository whose `main` holds the fixture document at 1.0.0, checked out on a topic branch;
 * `prepare` may change the files before the first commit.
 */
function repository(branch = 'main', prepare?: (root: string) => void): string {
  const root = mkdtempSync(join(tmpdir(), 'spec-gate-'));
  repositories.push(root);
  mkdirSync(join(root, 'openapi'));
  writeFileSync(join(root, 'redocly.yaml'), 'apis:\n  fixture:\n    root: openapi/fixture.yaml\n');
  writeFileSync(join(root, 'openapi/fixture.yaml'), fixture);
  writeFileSync(join(root, 'CHANGELOG.md'), changelog);
  prepare?.(root);
  git(root, 'init', '-q', '-b', branch);
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'The fixture API');
  if (branch === 'main') git(root, 'checkout', '-q', '-b', 'topic');
  return root;
}

function editDocument(root: string, edit: (document: FixtureDocument) => void): void {
  const file = join(root, 'openapi/fixture.yaml');
  const document: FixtureDocument = parse(readFileSync(file, 'utf8'));
  edit(document);
  writeFileSync(file, stringify(document));
}

const removeListOrders = (document: FixtureDocument) => {
  delete document.paths['/orders/list'];
};
const addOptionalField = (document: FixtureDocument) => {
  document.components.schemas.OrderRequest.properties.tag = { type: 'string' };
};
const setVersion = (version: string) => (document: FixtureDocument) => {
  document.info.version = version;
};

afterEach(() => {
  for (const root of repositories.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the spec gate', () => {
  it('passes when the documents equal the merge base with main', () => {
    const result = runGate(repository());
    expect(result).toEqual({
      passed: true,
      lines: [expect.stringMatching(/unchanged since merge base with main/)],
    });
  });

  it('passes on main itself, where the merge base is HEAD (CI on a fresh clone of main)', () => {
    const root = repository();
    git(root, 'checkout', '-q', 'main');
    expect(runGate(root).passed).toBe(true);
  });

  it('says in one line that it cannot compare when there is no tag and no main, and passes', () => {
    const root = repository('trunk');
    editDocument(root, removeListOrders);
    const result = runGate(root);
    expect(result.passed).toBe(true);
    expect(result.lines).toEqual([expect.stringMatching(/skipped, no tag and no main branch/)]);
  });

  it('fails a breaking change without a major version, naming the change', () => {
    const root = repository();
    editDocument(root, removeListOrders);
    const result = runGate(root);
    expect(result.passed).toBe(false);
    const text = result.lines.join('\n');
    expect(text).toMatch(/fixture: 1 change\(s\) break callers, so info.version needs a new major version/);
    expect(text).toMatch(/listOrders: operation removed \(calls to it will fail\)/);
  });

  it('fails a breaking change counted as committed on the branch, not only as edited', () => {
    const root = repository();
    editDocument(root, removeListOrders);
    editDocument(root, setVersion('1.1.0'));
    git(root, 'commit', '-qam', 'Remove listOrders');
    expect(runGate(root).passed).toBe(false);
  });

  it('fails a breaking change with a major version but no CHANGELOG.md section for it', () => {
    const root = repository();
    editDocument(root, removeListOrders);
    editDocument(root, setVersion('2.0.0'));
    const result = runGate(root);
    expect(result.passed).toBe(false);
    expect(result.lines.join('\n')).toMatch(
      /CHANGELOG.md needs a section "## 2.0.0".*listOrders: operation removed/,
    );
  });

  it('passes a breaking change with a major version and its CHANGELOG.md section', () => {
    const root = repository();
    editDocument(root, removeListOrders);
    editDocument(root, setVersion('2.0.0'));
    writeFileSync(
      join(root, 'CHANGELOG.md'),
      changelog.replace('## 1.0.0', '## 2.0.0\n\nlistOrders is gone.\n\n## 1.0.0'),
    );
    const result = runGate(root);
    expect(result).toEqual({
      passed: true,
      lines: [expect.stringMatching(/passed .*fixture 1.0.0 -> 2.0.0/)],
    });
  });

  it('fails a change that breaks no caller without a minor version, and passes it with one', () => {
    const root = repository();
    editDocument(root, addOptionalField);
    const result = runGate(root);
    expect(result.passed).toBe(false);
    expect(result.lines.join('\n')).toMatch(
      /need at least a new minor version[\s\S]*optional request field body.tag added/,
    );
    editDocument(root, setVersion('1.0.1'));
    expect(runGate(root).passed).toBe(false);
    editDocument(root, setVersion('1.1.0'));
    expect(runGate(root).passed).toBe(true);
  });

  it('needs no new version when only descriptions change', () => {
    const root = repository();
    editDocument(root, (document) => {
      document.info.description = 'Described at last.';
    });
    const result = runGate(root);
    expect(result).toEqual({
      passed: true,
      lines: [expect.stringMatching(/only descriptions or examples changed/)],
    });
  });

  it("gates a change made only in an operation's own file, reading every part at the ref", () => {
    // The split layout: listOrders in a file of its own, referring back to the root's components.
    const root = repository('main', (root) => {
      const document = parse(readFileSync(join(root, 'openapi/fixture.yaml'), 'utf8'));
      const item = document.paths['/orders/list'];
      item.get.responses['200'].content['application/json'].schema.items.$ref =
        '../fixture.yaml#/components/schemas/Order';
      mkdirSync(join(root, 'openapi/paths'));
      writeFileSync(join(root, 'openapi/paths/listOrders.yaml'), stringify(item));
      document.paths['/orders/list'] = { $ref: 'paths/listOrders.yaml' };
      writeFileSync(join(root, 'openapi/fixture.yaml'), stringify(document));
    });
    expect(runGate(root).lines).toEqual([expect.stringMatching(/unchanged since merge base with main/)]);
    const part = join(root, 'openapi/paths/listOrders.yaml');
    writeFileSync(part, readFileSync(part, 'utf8').replace('requests: 100', 'requests: 200'));
    const result = runGate(root);
    expect(result.passed).toBe(false);
    expect(result.lines.join('\n')).toMatch(
      /need at least a new minor version[\s\S]*listOrders: x-rate-limit/,
    );
    editDocument(root, setVersion('1.1.0'));
    expect(runGate(root).passed).toBe(true);
  });

  it('measures from the last tag when there is one', () => {
    const root = repository();
    editDocument(root, addOptionalField);
    editDocument(root, setVersion('1.1.0'));
    git(root, 'commit', '-qam', 'Add tag');
    git(root, 'tag', 'v1.1.0');
    expect(runGate(root).lines).toEqual([expect.stringMatching(/unchanged since last tag v1.1.0/)]);
    // Against main's merge base the same branch needs its 1.1.0, which it has.
    expect(runGate(root, 'main').passed).toBe(true);
  });
});

describe('CHANGELOG.md sections', () => {
  it('counts a version only when its section has text', () => {
    const text = '# Changelog\n\n## [3.0.0] - 2026-01-01\n\nBroke it.\n\n## 2.0.0\n\n## 1.0.0\nFirst.\n';
    expect([...changelogVersions(text)]).toEqual(['3.0.0', '1.0.0']);
  });
});
