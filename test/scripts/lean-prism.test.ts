// The preload every Prism of the project runs with (scripts/lean-prism.cjs): Prism's router
// answers as before, each request's route is found again rather than recomputed until the
// document is reloaded, and Prism's faker is the English one without the other locales loaded.
// Run against Prism's own modules, in a process with the preload and one without.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../model/document.ts';
import { leanPrismArgs } from '../../scripts/prism-command.ts';

const fixture = join(projectRoot, 'test/fixtures/prism-parts.cjs');

interface PrismParts {
  routes: string[];
  sameAgain: boolean;
  afterReload: string;
  name: string;
  locales: string[];
  germanLoaded: boolean;
}

const partsWith = (nodeArgs: readonly string[]): PrismParts =>
  JSON.parse(execFileSync(process.execPath, [...nodeArgs, fixture], { cwd: projectRoot, encoding: 'utf8' }));

describe('Prism with the preload', () => {
  const plain = partsWith([]);
  const lean = partsWith(leanPrismArgs);

  it('routes every request as Prism alone does, and finds a route again until a reload', () => {
    expect(lean.routes).toEqual(plain.routes);
    expect(lean.routes.slice(0, 2)).toEqual(['book', 'balance']);
    expect(lean.afterReload).toBe(plain.afterReload);
    expect(lean.afterReload).toMatch(/^404 /);
    expect(plain.sameAgain).toBe(false);
    expect(lean.sameAgain).toBe(true);
  });

  it('gives Prism the English faker, without loading the other locales', () => {
    expect(lean.name).toBe('string');
    expect(lean.locales).toEqual(['en']);
    expect(lean.germanLoaded).toBe(false);
    expect(plain.locales).toContain('en');
    expect(plain.germanLoaded).toBe(true);
  });
});
