// Growth: what each added operation costs the stages of `npm test` whose work grows with the
// documents. Two temporary copies of the project (its tracked files as they are in the working
// tree, node_modules linked, never the checkout itself): one as it is, and one with `extra`
// synthetic operations, each an existing operation's file copied under a new operationId, path
// and txc name with its line in the root document, as test/one-more-operation.test.ts adds one,
// then `npm run generate`. A copy keeps its model's x-sandbox-state: the sandbox carries it out as
// it does the model. Each stage then runs in both copies,
// interleaved (as is, grown; then grown, as is; …), and the per-operation cost is the median over
// the rounds of (grown - as is) / extra, in wall and in CPU seconds (the command and every process
// it waited for: far less moved by other work on the machine than wall time).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type OperationId, operations } from '../generated/operations.ts';
import { loadApiDocuments } from '../model/document.ts';
import { type PipelineResult, timed } from './pipeline.ts';
import { median } from './stats.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The models, a mix of shapes: one order's deals, a paged and filtered list, a batch of orders
 * placed, a batch of cancels, a public list and a public map. Copied in turn until `extra`
 * operations are added; each one's path and root document are read from the documents.
 */
const models: readonly OperationId[] = [
  'listOrderDeals',
  'listOrderHistory',
  'createBulkLimitOrders',
  'cancelOrdersInBulk',
  'listMarkets',
  'listAssets',
];

/** A model's path, and the root document whose `paths` name it. */
function modelOf(operationId: OperationId): { operationId: OperationId; path: string; document: string } {
  const facts = operations[operationId];
  const api = loadApiDocuments(root).find((candidate) => candidate.name === facts.api);
  if (!api) throw new Error(`${operationId}: no document ${facts.api} in redocly.yaml`);
  return { operationId, path: facts.path, document: api.file };
}

export interface AddedOperation {
  model: string;
  operationId: string;
  path: string;
}

/** A temporary copy of the project's tracked files, node_modules linked; `remove` deletes it. */
export function copyProject(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of tracked) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      cpSync(join(root, file), join(dir, file));
    } catch (error) {
      // A tracked file deleted in the working tree is not part of the project as it is.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Adds `extra` operations to the copy's documents (nothing outside openapi/ is touched): the n-th
 * is the model's file with the operationId `<model>Growth<n>`, the path `<path>-growth-<n>` and
 * the txc name `<name>-growth-<n>`, named in the root document after its model.
 */
export function addOperations(copy: string, extra: number): AddedOperation[] {
  const added: AddedOperation[] = [];
  for (let n = 1; n <= extra; n++) {
    const model = modelOf(models[(n - 1) % models.length] as OperationId);
    const operationId = `${model.operationId}Growth${n}`;
    const path = `${model.path}-growth-${n}`;
    const source = readFileSync(join(copy, `openapi/paths/${model.operationId}.yaml`), 'utf8');
    if (!/^ {2}x-cli-name: \S+$/m.test(source))
      throw new Error(`openapi/paths/${model.operationId}.yaml has no x-cli-name to rename`);
    const yaml = source
      .replace(/^( {2}x-cli-name: \S+)$/m, `$1-growth-${n}`)
      // The path as a whole (in `const` and examples), never as the prefix of a longer one.
      .replace(new RegExp(`${escaped(model.path)}(?![\\w/-])`, 'g'), path)
      .replace(new RegExp(`\\b${model.operationId}\\b`, 'g'), operationId);
    writeFileSync(join(copy, `openapi/paths/${operationId}.yaml`), yaml);
    const rootFile = join(copy, model.document);
    const document = readFileSync(rootFile, 'utf8');
    const line = `  ${model.path}:\n    $ref: paths/${model.operationId}.yaml\n`;
    if (!document.includes(line))
      throw new Error(`${model.document} does not name ${model.path} as expected`);
    writeFileSync(
      rootFile,
      document.replace(line, `${line}  ${path}:\n    $ref: paths/${operationId}.yaml\n`),
    );
    added.push({ model: model.operationId, operationId, path });
  }
  return added;
}

/**
 * A copy of the project with `extra` synthetic operations, generated: what the growth section
 * times, and what test/bench/growth.test.ts checks. Throws when generating fails.
 */
export async function grownCopy(
  extra: number,
  timeoutMs: number,
): Promise<{ dir: string; added: AddedOperation[]; remove(): void }> {
  const copy = copyProject('txc-bench-grown-');
  try {
    const added = addOperations(copy.dir, extra);
    const generated = await timed('npm', ['run', '--silent', 'generate'], timeoutMs, { cwd: copy.dir });
    if (generated.seconds === undefined)
      throw new Error(`npm run generate in the grown copy: ${generated.note}`);
    return { ...copy, added };
  } catch (error) {
    copy.remove();
    throw error;
  }
}

/** A stage of `npm test` whose work grows with the operations, as the copies run it. */
interface GrowthStage {
  name: string;
  args: string[];
}

/**
 * Unit test files with a case per operation or per example of the documents, that pass on a grown
 * copy (the document tests that pin the list of operations cannot: any operation added fails them).
 */
const documentDrivenUnitTests = [
  'test/sandbox/request-examples.test.ts',
  'test/sandbox/example-recipes.test.ts',
  'test/sandbox/auth.test.ts',
  'test/cli/answer-shapes.test.ts',
  'test/documents/extensions.test.ts',
];

export const growthStages: readonly GrowthStage[] = [
  { name: 'check:generated', args: ['run', '--silent', 'check:generated'] },
  { name: 'lint:api (Redocly)', args: ['run', '--silent', 'lint:api'] },
  { name: 'typecheck', args: ['run', '--silent', 'typecheck'] },
  {
    name: 'test:unit, document-driven files',
    args: ['exec', '--', 'vitest', 'run', '--project', 'unit', ...documentDrivenUnitTests],
  },
  { name: 'contract (mocks)', args: ['run', '--silent', 'contract'] },
  { name: 'contract:sandbox', args: ['run', '--silent', 'contract:sandbox'] },
  { name: 'contract:self-check', args: ['run', '--silent', 'contract:self-check'] },
  { name: 'docs', args: ['run', '--silent', 'docs'] },
];

export interface GrowthRow {
  stage: string;
  /** Median seconds of the copy as it is and of the grown copy. */
  wall: { base: number; grown: number };
  cpu: { base: number; grown: number };
  /** Median over the rounds of (grown - as is) / extra: seconds per added operation. */
  wallPerOperation: number;
  cpuPerOperation: number;
  /** Why a stage has no figures (it failed or overran in a copy). */
  note?: string;
}

export interface GrowthResult {
  operations: { base: number; grown: number };
  extra: number;
  rounds: number;
  added: AddedOperation[];
  rows: GrowthRow[];
}

/** Operations in a copy's generated route tables (one `"operationId":` per operation). */
export function routeCount(copy: string): number {
  return (readFileSync(join(copy, 'generated/routes.ts'), 'utf8').match(/^ {4}"operationId": /gm) ?? [])
    .length;
}

export async function runGrowth(options: {
  extra: number;
  rounds: number;
  timeoutMs: number;
  log: (line: string) => void;
}): Promise<GrowthResult> {
  const base = copyProject('txc-bench-base-');
  let grown: Awaited<ReturnType<typeof grownCopy>> | undefined;
  try {
    grown = await grownCopy(options.extra, options.timeoutMs);
    const dirs = { base: base.dir, grown: grown.dir };
    const runs = new Map<string, { base: PipelineResult[]; grown: PipelineResult[] }>(
      growthStages.map((stage) => [stage.name, { base: [], grown: [] }]),
    );
    for (let round = 0; round < options.rounds; round++) {
      for (const stage of growthStages) {
        // Alternate which copy goes first, so that neither always runs on caches the other warmed.
        const order = round % 2 === 0 ? (['base', 'grown'] as const) : (['grown', 'base'] as const);
        for (const side of order) {
          const result = await timed('npm', stage.args, options.timeoutMs, { cwd: dirs[side] });
          options.log(
            `  round ${round + 1}, ${stage.name}, ${side}: ${
              result.seconds === undefined
                ? result.note
                : `${result.seconds.toFixed(1)} s wall, ${result.cpuSeconds?.toFixed(1) ?? 'n/a'} s CPU`
            }`,
          );
          runs.get(stage.name)?.[side].push(result);
        }
      }
    }
    const rows = growthStages.map((stage): GrowthRow => {
      const { base: baseRuns, grown: grownRuns } = runs.get(stage.name) ?? { base: [], grown: [] };
      const failed = [...baseRuns, ...grownRuns].find((run) => run.seconds === undefined);
      const of = (runs: PipelineResult[], key: 'seconds' | 'cpuSeconds') =>
        runs.map((run) => run[key] ?? Number.NaN);
      const slope = (key: 'seconds' | 'cpuSeconds') =>
        median(
          of(grownRuns, key).map(
            (value, round) => (value - (of(baseRuns, key)[round] as number)) / options.extra,
          ),
        );
      return {
        stage: stage.name,
        wall: { base: median(of(baseRuns, 'seconds')), grown: median(of(grownRuns, 'seconds')) },
        cpu: { base: median(of(baseRuns, 'cpuSeconds')), grown: median(of(grownRuns, 'cpuSeconds')) },
        wallPerOperation: slope('seconds'),
        cpuPerOperation: slope('cpuSeconds'),
        ...(failed && { note: failed.note }),
      };
    });
    return {
      operations: { base: routeCount(base.dir), grown: routeCount(grown.dir) },
      extra: options.extra,
      rounds: options.rounds,
      added: grown.added,
      rows,
    };
  } finally {
    base.remove();
    grown?.remove();
  }
}
