// The growth section (bench/growth.ts) times the project against a copy grown by K operations:
// this checks that the grown copy really holds K more, each generated under its own name and path
// (its route, its operation facts, its file named in a root document), and that the copy as is
// holds as many as the project. No figure is asserted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AddedOperation, copyProject, grownCopy, routeCount } from '../../bench/growth.ts';
import { projectRoot } from '../../model/document.ts';
import { timeLimits } from '../../scripts/time-limits.ts';

// One more than the bench's six models: a model is copied twice, under two names.
const extra = 7;
let grown: { dir: string; added: AddedOperation[]; remove(): void };
let base: { dir: string; remove(): void };

beforeAll(async () => {
  base = copyProject('txc-growth-test-base-');
  grown = await grownCopy(extra, timeLimits.runMs);
}, timeLimits.hookMs);

afterAll(() => {
  base?.remove();
  grown?.remove();
});

describe('the growth section’s copies', () => {
  it('the copy as is has the project’s operations; the grown one K more', () => {
    const operations = routeCount(projectRoot);
    expect(operations).toBeGreaterThan(0);
    expect(routeCount(base.dir)).toBe(operations);
    expect(routeCount(grown.dir)).toBe(operations + extra);
    expect(new Set(grown.added.map((operation) => operation.operationId)).size).toBe(extra);
    expect(new Set(grown.added.map((operation) => operation.model)).size).toBe(extra - 1);
  });

  it('generates each added operation under its own id and path, named in its root document', () => {
    const routes = readFileSync(join(grown.dir, 'generated/routes.ts'), 'utf8');
    const facts = readFileSync(join(grown.dir, 'generated/operations.ts'), 'utf8');
    const roots = ['openapi/private-v4.yaml', 'openapi/public-v4.yaml']
      .map((file) => readFileSync(join(grown.dir, file), 'utf8'))
      .join('\n');
    for (const { operationId, path } of grown.added) {
      expect(routes).toContain(`"operationId": "${operationId}"`);
      expect(routes).toContain(`"path": "${path}"`);
      expect(facts).toContain(`"operationId": "${operationId}"`);
      expect(roots).toContain(`  ${path}:\n    $ref: paths/${operationId}.yaml\n`);
    }
  });
});
