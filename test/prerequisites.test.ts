// npm test looks for what it needs before anything else, and says how to install what is missing.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../model/document.ts';
import { findChromium, findTmux } from '../scripts/prerequisites.ts';
import { testPlan } from '../scripts/test-plan.ts';
import { timeLimits } from '../scripts/time-limits.ts';

const scratch = mkdtempSync(join(tmpdir(), 'txc-prerequisites-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A directory holding executables of these names (empty scripts). */
function binDirectory(name: string, executables: string[]): string {
  const directory = join(scratch, name);
  mkdirSync(directory, { recursive: true });
  for (const executable of executables) {
    writeFileSync(join(directory, executable), '#!/bin/sh\n');
    chmodSync(join(directory, executable), 0o755);
  }
  return directory;
}

describe('prerequisites', () => {
  it('npm test checks them first, then runs every check script of package.json', () => {
    const { scripts } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
    expect(scripts.test).toBe('tsx scripts/test-stages.ts');
    expect(testPlan.first).toEqual(['check:prerequisites']);
    const planned: string[] = [...testPlan.first, ...testPlan.lanes.flat()];
    for (const stage of planned) expect(scripts, stage).toHaveProperty(stage);
    // A new check script is a stage of npm test, or it would never run in CI.
    const checks = Object.keys(scripts).filter((name) =>
      /^(check:|test:(?!loaded$)|contract|spec:gate$|lint$|typecheck$)/.test(name),
    );
    expect(planned.toSorted()).toEqual(checks.toSorted());
  });

  it('Chromium: CHROMIUM_PATH first, then the usual names on PATH, then the usual places', () => {
    const empty = binDirectory('empty', []);
    const named = binDirectory('named', ['chromium-browser']);
    const placed = join(binDirectory('placed', ['chromium']), 'chromium');
    expect(findChromium({ PATH: named, CHROMIUM_PATH: placed }, [])).toEqual({ path: placed });
    expect(findChromium({ PATH: named }, [placed])).toEqual({ path: join(named, 'chromium-browser') });
    expect(findChromium({ PATH: empty }, [join(empty, 'missing'), placed])).toEqual({ path: placed });
    // A wrong CHROMIUM_PATH is reported, not guessed around.
    expect(findChromium({ PATH: named, CHROMIUM_PATH: join(empty, 'nope') }, [placed])).toEqual({
      problem: expect.stringMatching(/^CHROMIUM_PATH=.*nope is not an executable file/),
    });
  });

  it('none found: the one command that installs each', () => {
    const empty = binDirectory('empty', []);
    expect(findChromium({ PATH: empty }, [])).toEqual({
      problem: expect.stringContaining('`sudo apt-get install -y chromium`'),
    });
    expect(findTmux({ PATH: empty })).toEqual({
      problem: expect.stringContaining('`sudo apt-get install -y tmux`'),
    });
  });

  it('npm run check:prerequisites stops with one line per missing tool, exit code 1', () => {
    // Nothing on PATH (node is called by its path): neither Chromium (CHROMIUM_PATH wrong) nor tmux.
    const nothing = binDirectory('nothing', []);
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'scripts/prerequisites-cli.ts')],
      {
        cwd: projectRoot,
        encoding: 'utf8',
        env: { PATH: nothing, CHROMIUM_PATH: join(nothing, 'chromium') },
        timeout: timeLimits.runMs,
      },
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('CHROMIUM_PATH=');
    expect(lines[1]).toContain('apt-get install -y tmux');
  });
});
