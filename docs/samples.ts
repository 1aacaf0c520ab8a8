// The TypeScript code sample of every operation lives in docs/samples/<operationId>.ts, where
// `npm run typecheck` compiles it against the client, and is shown by the docs through the
// operation's `x-codeSamples` in the YAML. The YAML holds a copy of the file's text (the
// document tooling in scripts/ resolves only local $refs), so this module keeps the copy
// honest: `findSampleDrift` reports any difference, and `tsx docs/samples.ts --write` rewrites
// the copies from the files, touching nothing else in the YAML.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { operations } from '../generated/operations.ts';
import { loadApiDocuments } from '../scripts/operation-facts.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));
export const sampleLang = 'TypeScript';
export const sampleLabel = 'TypeScript client';

export function sampleFile(operationId: string, root = projectRoot): string {
  return `${root}/docs/samples/${operationId}.ts`;
}

/** Every operation in generated/operations.ts with the document (redocly.yaml `apis`) it lives in. */
export function operationsByDocument(root = projectRoot): { file: string; operationIds: string[] }[] {
  return loadApiDocuments(root).map((api) => ({
    file: api.file,
    operationIds: Object.values(operations)
      .filter((operation) => operation.api === api.name)
      .map((operation) => operation.operationId),
  }));
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The `x-codeSamples` key of one operation, as YAML lines at the operation's indentation. */
export function renderCodeSamples(source: string, pad: string): string[] {
  if (!source.endsWith('\n') || source.endsWith('\n\n')) {
    throw new Error('a sample must end with exactly one newline');
  }
  if (/^\s/.test(source)) throw new Error('a sample must not start with whitespace');
  const body = source
    .slice(0, -1)
    .split('\n')
    .map((line) => (line === '' ? '' : `${pad}      ${line}`));
  return [
    `${pad}x-codeSamples:`,
    `${pad}  - lang: ${sampleLang}`,
    `${pad}    label: ${sampleLabel}`,
    `${pad}    source: |`,
    ...body,
  ];
}

/** Returns the YAML text with the operation's x-codeSamples set to `source`, all else unchanged. */
export function withCodeSample(yamlText: string, operationId: string, source: string): string {
  const lines = yamlText.split('\n');
  const idLine = lines.findIndex((line) => line.trim() === `operationId: ${operationId}`);
  if (idLine < 0) throw new Error(`operationId ${operationId} not found`);
  const indent = indentOf(lines[idLine] as string);
  const pad = ' '.repeat(indent);
  const isEnd = (line: string): boolean => line.trim() !== '' && indentOf(line) < indent;
  let start = idLine;
  while (start > 0 && !isEnd(lines[start - 1] as string)) start--;
  let end = idLine;
  while (end < lines.length && !isEnd(lines[end] as string)) end++;
  // The extent of the key on line `at`: up to the next line at the operation's indentation or less.
  const keyEnd = (at: number): number => {
    let next = at + 1;
    while (
      next < end &&
      ((lines[next] as string).trim() === '' || indentOf(lines[next] as string) > indent)
    ) {
      next++;
    }
    return next;
  };
  const rendered = renderCodeSamples(source, pad);
  const existing = lines.findIndex((line, at) => at >= start && at < end && line === `${pad}x-codeSamples:`);
  if (existing >= 0) {
    lines.splice(existing, keyEnd(existing) - existing, ...rendered);
  } else {
    let after = -1;
    for (let at = start; at < end; at++) {
      const line = lines[at] as string;
      if (indentOf(line) === indent && line.trimStart().startsWith('x-')) after = keyEnd(at);
    }
    lines.splice(after >= 0 ? after : end, 0, ...rendered);
  }
  return lines.join('\n');
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed YAML operation
function findOperation(document: any, operationId: string): any {
  for (const item of Object.values<Record<string, unknown>>(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      // biome-ignore lint/suspicious/noExplicitAny: a parsed YAML operation
      if ((operation as any)?.operationId === operationId) return operation;
    }
  }
  return undefined;
}

/** What differs between the sample files and the documents' x-codeSamples; empty when in step. */
export function findSampleDrift(root = projectRoot): string[] {
  const problems: string[] = [];
  for (const { file, operationIds } of operationsByDocument(root)) {
    const document = parse(readFileSync(`${root}/${file}`, 'utf8'));
    for (const operationId of operationIds) {
      const path = sampleFile(operationId, root);
      if (!existsSync(path)) {
        problems.push(`${operationId}: no sample file docs/samples/${operationId}.ts`);
        continue;
      }
      const samples: { lang?: string; source?: unknown }[] =
        findOperation(document, operationId)?.['x-codeSamples'] ?? [];
      const sample = samples.find((candidate) => candidate.lang === sampleLang);
      if (!sample) problems.push(`${operationId}: ${file} has no ${sampleLang} x-codeSamples entry`);
      else if (sample.source !== readFileSync(path, 'utf8')) {
        problems.push(
          `${operationId}: the x-codeSamples source in ${file} differs from docs/samples/${operationId}.ts`,
        );
      }
    }
  }
  return problems;
}

/** Rewrites the x-codeSamples copies in the documents from the sample files. */
export function writeSamples(root = projectRoot): string[] {
  const written: string[] = [];
  for (const { file, operationIds } of operationsByDocument(root)) {
    const before = readFileSync(`${root}/${file}`, 'utf8');
    let text = before;
    for (const operationId of operationIds) {
      text = withCodeSample(text, operationId, readFileSync(sampleFile(operationId, root), 'utf8'));
    }
    if (text !== before) {
      writeFileSync(`${root}/${file}`, text);
      written.push(file);
    }
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    const written = writeSamples();
    console.log(written.length > 0 ? `wrote x-codeSamples in ${written.join(', ')}` : 'samples up to date');
  }
  const problems = findSampleDrift();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error('run `npx tsx docs/samples.ts --write`, then `npm run generate`');
    process.exit(1);
  }
  console.log('every operation has its sample, in step with docs/samples/');
}
