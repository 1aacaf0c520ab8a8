// `npm test`: every stage CI runs, each an npm script run by npm-run-all2 (its Node API), every
// stage run even when another failed, then a table of the stages with their time and result; the
// exit code is 1 when any stage failed. The first stages are the prerequisites: when one fails,
// nothing else starts (each later stage would fail minutes on for the same missing tool), and the
// table shows every other stage as not run. A failed lane stage's failure is quoted again above
// the table (scripts/stage-output.ts).
// The stages and their order: scripts/test-plan.ts.
import { join } from 'node:path';
import runAll from 'npm-run-all2';
import { projectRoot } from '../model/document.ts';
import { tarballVariable } from './package-tarball.ts';
import { failureExcerpt, StageTranscript } from './stage-output.ts';
import { testPlan, typesCheckedByTsc } from './test-plan.ts';

const { first, lanes } = testPlan;

interface StageResult {
  stage: string;
  seconds: number;
  /**
   * The exit code; undefined when the stage could not be started at all, 'not run' when a
   * prerequisite was missing.
   */
  code: number | undefined | 'not run';
  /** What a lane stage printed, kept to quote its failure above the table. */
  transcript?: StageTranscript;
}

process.env[tarballVariable] ??= join(projectRoot, 'reports', 'package', 'txc-api-v4.tgz');
process.env[typesCheckedByTsc] = '1';
// npm-run-all2 pipes each stage into our stdout and stderr and listens on them while it runs:
// with every stage of the plan that is more than Node's default of 10 listeners, not a leak.
const stageCount = first.length + lanes.flat().length;
for (const stream of [process.stdout, process.stderr]) stream.setMaxListeners(stageCount * 4 + 10);

async function runStage(stage: string, label: boolean): Promise<StageResult> {
  const started = performance.now();
  let code: number | undefined = 0;
  // The prerequisites print to the terminal itself; a lane stage's lines are labelled anyway.
  const transcript = label ? new StageTranscript() : undefined;
  try {
    await runAll([stage], {
      stdout: transcript?.through(process.stdout) ?? process.stdout,
      stderr: transcript?.through(process.stderr) ?? process.stderr,
      printLabel: label,
      printName: !label,
      continueOnError: true,
    });
  } catch (error) {
    // npm-run-all2 rejects with the results of the tasks it ran: the stage's exit code.
    const results = (error as { results?: { code?: number }[] }).results;
    code = results?.[0]?.code ?? undefined;
    if (code === 0) code = 1;
    if (results === undefined) console.error(`${stage}: ${(error as Error).message}`);
  }
  const seconds = (performance.now() - started) / 1000;
  return transcript ? { stage, seconds, code, transcript } : { stage, seconds, code };
}

const started = performance.now();
const results: StageResult[] = [];
for (const stage of first) results.push(await runStage(stage, false));
const prerequisitesMissing = results.some((result) => result.code !== 0);
const laneResults = prerequisitesMissing
  ? lanes.map((lane) => lane.map((stage): StageResult => ({ stage, seconds: 0, code: 'not run' })))
  : await Promise.all(
      lanes.map(async (lane) => {
        const done: StageResult[] = [];
        for (const stage of lane) done.push(await runStage(stage, true));
        return done;
      }),
    );
results.push(...laneResults.flat());
const totalSeconds = (performance.now() - started) / 1000;

const failed = results.filter((result) => result.code !== 0 && result.code !== 'not run');
const notRun = results.filter((result) => result.code === 'not run');
const outcome = (code: StageResult['code']) => {
  if (code === 0) return 'passed';
  if (code === 'not run') return 'not run: a prerequisite is missing';
  return `FAILED (exit code ${code ?? 'none: not started'})`;
};
const quoted = failed.flatMap(({ stage, transcript }) =>
  transcript
    ? [
        '',
        `${stage} failed; what it printed of the failure (the whole of its output is above):`,
        ...failureExcerpt(transcript.text),
      ]
    : [],
);
const width = Math.max(...results.map((result) => result.stage.length), 'stage'.length);
const row = (stage: string, time: string, result: string) =>
  `${stage.padEnd(width)}  ${time.padStart(8)}  ${result}`;
const lines = [
  ...quoted,
  '',
  `npm test: ${lanes.length} lanes side by side after ${first.join(', ')}`,
  row('stage', 'time', 'result'),
  ...results.map((result) => row(result.stage, `${result.seconds.toFixed(1)} s`, outcome(result.code))),
  row('total (wall)', `${totalSeconds.toFixed(1)} s`, failed.length === 0 ? 'passed' : 'FAILED'),
  `stages: ${results.length - failed.length - notRun.length} passed, ${failed.length} failed` +
    (notRun.length > 0 ? `, ${notRun.length} not run` : ''),
  ...(prerequisitesMissing
    ? [`npm test stopped: install what ${first.join(', ')} names above, then run it again`]
    : []),
];
console.log(lines.join('\n'));
process.exitCode = failed.length === 0 ? 0 : 1;
