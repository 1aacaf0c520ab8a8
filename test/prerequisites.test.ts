// npm test looks for what it needs before anything else, and says how to install what is missing.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../model/document.ts';
import { findChromium, findTmux, onPath } from '../scripts/prerequisites.ts';
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

const packageScripts: Record<string, string> = JSON.parse(
  readFileSync(join(projectRoot, 'package.json'), 'utf8'),
).scripts;
const laneStages: string[] = testPlan.lanes.flat();

/**
 * Each stage of a project below, when it starts, adds its name as a line to this file: with the
 * shell npm runs it in, not a node of its own (a dozen stages, a tenth of a CPU-second each).
 */
const startedFile = 'started-stages';
const recordStart = `echo "$npm_lifecycle_event" >> ${startedFile}`;

/**
 * A project whose package.json has npm test's stages: the real check:prerequisites (its script,
 * with scripts/ and node_modules/ linked from this repository), and in place of every other stage
 * a command that only records that it started; `replaced` overrides any of them. No real stage
 * runs, so a runner that went on after a missing prerequisite fails here in seconds.
 */
function stagesProject(name: string, replaced: Record<string, string> = {}): string {
  const directory = join(scratch, name);
  mkdirSync(directory);
  symlinkSync(join(projectRoot, 'node_modules'), join(directory, 'node_modules'));
  symlinkSync(join(projectRoot, 'scripts'), join(directory, 'scripts'));
  const scripts: Record<string, string> = {
    'check:prerequisites': packageScripts['check:prerequisites'] ?? '',
  };
  for (const stage of laneStages) scripts[stage] = recordStart;
  writeFileSync(
    join(directory, 'package.json'),
    JSON.stringify({ name, private: true, type: 'module', scripts: { ...scripts, ...replaced } }),
  );
  return directory;
}

/** `npm test`'s runner, scripts/test-stages.ts, in `directory`. */
function runStages(directory: string, env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/test-stages.ts')], {
    cwd: directory,
    encoding: 'utf8',
    env,
    timeout: timeLimits.runMs,
  });
}

function startedStages(directory: string): string[] {
  const file = join(directory, startedFile);
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

/** A directory with node, npm and sh: what npm test's runner needs on PATH, and no tmux. */
function pathWithoutTmux(): string {
  const directory = binDirectory('without-tmux', []);
  const npm = onPath(['npm']);
  const sh = onPath(['sh']);
  if (npm === undefined || sh === undefined) throw new Error('npm and sh are not on PATH');
  symlinkSync(process.execPath, join(directory, 'node'));
  symlinkSync(npm, join(directory, 'npm'));
  symlinkSync(sh, join(directory, 'sh'));
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

  it.each([
    {
      missing: 'Chromium',
      install: '`sudo apt-get install -y chromium`',
      env: () => ({ ...process.env, CHROMIUM_PATH: join(scratch, 'no-chromium') }),
    },
    {
      missing: 'tmux',
      install: '`sudo apt-get install -y tmux`',
      env: () => ({ ...process.env, PATH: pathWithoutTmux() }),
    },
  ])(
    'npm test without $missing stops after the prerequisites, naming $install',
    ({ missing, install, env }) => {
      const project = stagesProject(`without-${missing}`);
      const result = runStages(project, env());
      expect(result.status, result.stderr).toBe(1);
      expect(result.stderr).toContain(install);
      expect(startedStages(project)).toEqual([]);
      for (const stage of laneStages) {
        expect(result.stdout).toMatch(
          new RegExp(`^${stage}\\s+0\\.0 s  not run: a prerequisite is missing$`, 'm'),
        );
      }
      expect(result.stdout).toMatch(/^check:prerequisites .* FAILED \(exit code 1\)$/m);
      expect(result.stdout).toContain('npm test stopped: install what check:prerequisites names above');
    },
  );

  it('a failing stage after the prerequisites: every stage still runs, and the table reports each', () => {
    const [failing] = laneStages;
    if (failing === undefined) throw new Error('npm test has no stages after the prerequisites');
    // It fails as vitest does: its account of the failure, on stderr, after other lines.
    const failure = ['⎯⎯⎯ Failed Tests 1 ⎯⎯⎯', ' FAIL  test/x.test.ts > the failing test'];
    const project = stagesProject('one-stage-fails', {
      'check:prerequisites': recordStart,
      [failing]: `${recordStart} && echo before the failure && ${failure.map((line) => `echo '${line}' >&2`).join(' && ')} && exit 3`,
    });
    const result = runStages(project, process.env);
    expect(result.status, result.stderr).toBe(1);
    expect(startedStages(project).toSorted()).toEqual(['check:prerequisites', ...laneStages].toSorted());
    expect(result.stdout).toMatch(new RegExp(`^${failing}\\s+\\d+\\.\\d s  FAILED \\(exit code 3\\)$`, 'm'));
    for (const stage of ['check:prerequisites', ...laneStages.filter((stage) => stage !== failing)]) {
      expect(result.stdout).toMatch(new RegExp(`^${stage}\\s+\\d+\\.\\d s  passed$`, 'm'));
    }
    expect(result.stdout).toContain(`stages: ${laneStages.length} passed, 1 failed`);
    // Its failure is quoted again at the end, just above the table, without the lines before it.
    const end = result.stdout.slice(result.stdout.lastIndexOf(`${failing} failed; what it printed`));
    expect(end.split('\n').slice(1, 3)).toEqual(failure.map((line) => `[${failing}] ${line}`));
    expect(end).not.toContain('before the failure');
    expect(end.indexOf(failure[1] as string)).toBeLessThan(end.indexOf('npm test: '));
  });
});
