// The steps of one rebuild in `npm start`'s watch loop, on a project root, besides codegen
// (scripts/generated-files.ts): lint the documents (the OpenAPI ones with Redocly, the stream
// documents with the AsyncAPI parser), build the docs beside the served site and swap them in. A
// step that fails says why with the file and line where there is one.
import { execFile } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { type StreamDocumentName, streamDocumentFiles } from '../model/streams.ts';
import { apiLintKey, lintedClean, rememberClean, streamLintKey } from '../scripts/clean-lints.ts';
import { documentInputs } from '../scripts/input-hashes.ts';
import { lintStreamDocuments } from '../scripts/stream-lint.ts';
import { buildSite, redoclyBin, redoclyEnv } from './site.ts';

export interface LintResult {
  ok: boolean;
  /** One line per problem: `file:line:col severity rule message`. */
  problems: string[];
}

const problemLine = /^\s+(\d+):(\d+)\s+(error|warning)\s+(\S+)\s+(.*)$/;
const fileLine = /^(\S.*\.(?:ya?ml|json)):$/;
const parseFailure = /^Failed to parse API description at (.*):$/;

/** Reads `redocly lint --format=stylish` output into one line per problem. */
export function lintProblems(output: string, root: string): string[] {
  const problems: string[] = [];
  let file = '';
  let parsing = false;
  for (const line of output.split('\n')) {
    const fileMatch = fileLine.exec(line);
    const failure = parseFailure.exec(line);
    const problem = problemLine.exec(line);
    if (failure) {
      file = (failure[1] as string).replace(`${root}/`, '');
      parsing = true;
    } else if (fileMatch) {
      file = fileMatch[1] as string;
      parsing = false;
    } else if (problem) {
      const [, row, col, severity, rule, message] = problem;
      problems.push(`${file}:${row}:${col} ${severity} ${rule} ${message}`);
    } else if (parsing && line.startsWith('  - ')) {
      // A YAML error: `  - message in "/abs/file.yaml" (line:col)`.
      const where = /\((\d+):(\d+)\)\s*$/.exec(line);
      const message = line.slice(4).replace(/ in ".*$/, '');
      problems.push(`${file}:${where ? `${where[1]}:${where[2]}` : '?'} error ${message}`);
    }
  }
  return problems;
}

/**
 * `redocly lint` of the documents named in `root`'s redocly.yaml. A clean lint is remembered
 * (scripts/clean-lints.ts): the same files pass again without a run, after `npm run lint` too.
 */
export async function lint(root: string): Promise<LintResult> {
  const key = apiLintKey(root);
  if (lintedClean('lint-clean', key)) return { ok: true, problems: [] };
  const result = await lintOnce(root);
  if (result.ok) await rememberClean('lint-clean', key);
  return result;
}

/**
 * Every file the stream documents (asyncapi/) of `root` read, relative to it: their parts and the
 * OpenAPI schemas they share. What their lint, their pages and their part of generated/ are made of.
 */
export function streamDocumentsInputs(root: string): string[] {
  return [
    ...new Set(Object.values(streamDocumentFiles).flatMap((file) => documentInputs(root, file))),
  ].sort();
}

/** The last lint of each stream document, by the key of every file it read (clean or not). */
const lastStreamLints = new Map<string, LintResult>();

/**
 * The AsyncAPI parser's lint of the stream documents of `root` (scripts/stream-lint.ts, what
 * `npm run lint` runs), one line per problem, `file:line:col rule message`, a problem in a part
 * the documents share said once. Each document is linted on its own, and only when a file it
 * reads (the OpenAPI documents' too: the token operation a stream document names is looked up
 * there) or the lint's own code changed since its last lint: a clean lint is remembered on disk
 * as `lint`'s is, any lint in this process, so a save elsewhere while one is broken reports its
 * problems again without linting it again.
 */
export async function lintStreams(root: string): Promise<LintResult> {
  const problems = new Set<string>();
  for (const name of Object.keys(streamDocumentFiles) as StreamDocumentName[]) {
    const key = streamLintKey(root, name);
    let result = lastStreamLints.get(key);
    if (!result && lintedClean('stream-lint-clean', key)) result = { ok: true, problems: [] };
    if (!result) {
      result = await lintStreamDocuments(root, [name]);
      if (result.ok) await rememberClean('stream-lint-clean', key);
    }
    if (lastStreamLints.size >= 100) lastStreamLints.clear();
    lastStreamLints.set(key, result);
    for (const problem of result.problems) problems.add(problem);
  }
  return { ok: problems.size === 0, problems: [...problems] };
}

function lintOnce(root: string): Promise<LintResult> {
  return new Promise((resolve) => {
    execFile(
      redoclyBin,
      ['lint', '--format=stylish'],
      { cwd: root, env: redoclyEnv, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        const problems = lintProblems(output, root);
        if (error && problems.length === 0) {
          // Not a problem we can place: show what the CLI said, without its banners.
          problems.push(
            ...output
              .split('\n')
              .filter((line) => line.trim() !== '' && !/[║╔╚]|validat/.test(line))
              .slice(-10),
          );
        }
        resolve({ ok: !error, problems });
      },
    );
  });
}

/**
 * Builds the docs of `root` into a directory beside `siteDir` (returned), the pages named in
 * `reuse` copied from the served site, all but the cli page: the watch loop writes or copies that
 * one once codegen is done (`writeCliPage`). Nothing served changes until `swapDocs`.
 */
export async function draftDocs(root: string, siteDir: string, reuse: string[]): Promise<string> {
  const next = `${siteDir}.next`;
  try {
    await buildSite(next, root, { reusePages: { from: siteDir, names: reuse }, withoutCliPage: true });
  } catch (error) {
    discardDocs(siteDir);
    throw error;
  }
  return next;
}

/** Drops a draft that is not to be served (lint or codegen failed meanwhile). */
export function discardDocs(siteDir: string): void {
  rmSync(`${siteDir}.next`, { recursive: true, force: true });
}

/** Serves the draft: swapped in at once, so the served site is never half built. */
export function swapDocs(siteDir: string): void {
  const next = `${siteDir}.next`;
  const previous = `${siteDir}.previous`;
  rmSync(previous, { recursive: true, force: true });
  if (existsSync(siteDir)) renameSync(siteDir, previous);
  renameSync(next, siteDir);
  rmSync(previous, { recursive: true, force: true });
}
