// What generated/ should hold for the documents of a project root: the types of each API named in
// redocly.yaml (openapi-typescript, to its x-openapi-ts output), operations.ts, the runtime
// table of operation facts, routes.ts, the part of it the client reads on a call,
// responses.ts, what each answer may be (read only when validating traffic), samples/, each
// operation's code sample (scripts/code-samples.ts), and from the stream documents (asyncapi/)
// streams-<name>.ts, the types of their message payloads, streams.ts, the facts of their
// channels, and samples/streams/, each channel's code sample (scripts/stream-types.ts,
// scripts/stream-facts.ts, scripts/stream-samples.ts). Used by
// `npm run generate` and by the watch loop of `npm start`.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { parse } from 'yaml';
import { type ApiDocument, type FileReader, loadApiDocuments, workingTreeReader } from '../model/document.ts';
import { isRecord, type JsonRecord, recordAt } from '../model/json.ts';
import { loadStreamDocumentsFrom, type StreamDocument } from '../model/streams.ts';
import { renderAnswerShapesModule } from './answer-shapes.ts';
import { renderSamples } from './code-samples.ts';
import { renderOperationModules } from './operation-facts.ts';
import { renderResponseContracts } from './response-contracts.ts';
import { renderStreamFactsModule } from './stream-facts.ts';
import { renderStreamSamples } from './stream-samples.ts';
import { streamTypesDocument } from './stream-types.ts';

/**
 * A named enum (a schema with x-enum-varnames) as a const object beside the union type of the same name,
 * so `ActionType.INVEST` reads as it would with a TypeScript enum while the output stays erasable
 * syntax (no `enum`), which Node's type stripping and every bundler accept.
 */
function renderNamedEnums(document: JsonRecord) {
  const blocks: string[] = [];
  for (const [name, schema] of Object.entries(recordAt(document, 'components', 'schemas'))) {
    if (!isRecord(schema)) continue;
    const names = schema['x-enum-varnames'];
    const values = schema.enum;
    if (!Array.isArray(names) || !Array.isArray(values)) continue;
    const descriptions = Array.isArray(schema['x-enum-descriptions']) ? schema['x-enum-descriptions'] : [];
    const members = names.map((member, index) => {
      const description = descriptions[index];
      const doc = typeof description === 'string' ? `    /** ${description} */\n` : '';
      return `${doc}    ${member}: ${JSON.stringify(values[index])},`;
    });
    // The union type of the same name is openapi-typescript's root type alias.
    blocks.push(`export const ${name} = {\n${members.join('\n')}\n} as const;\n`);
  }
  return blocks.join('');
}

/** The last types rendered of each document of each project root, with every file it is made of, as it was read. */
const lastTypes = new Map<string, { texts: Map<string, string | undefined>; types: string }>();

/**
 * The types of one document. openapi-typescript is most of codegen's time, and the watch loop
 * renders generated/ on every save, mostly of files only one document reads (an operation's own
 * file): while every file the document is made of is as it was (by content), its types are reused.
 */
async function renderTypes(root: string, api: ApiDocument): Promise<string> {
  const read = workingTreeReader(root);
  const key = `${root}\u0000${api.file}`;
  const last = lastTypes.get(key);
  if (last && [...last.texts].every(([file, text]) => read(file) === text)) return last.types;
  const texts = new Map(api.files.map((file) => [file, read(file)]));
  const types = await renderTypesOnce(root, api);
  lastTypes.set(key, { texts, types });
  return types;
}

/** openapi-typescript follows the split layout's $refs itself; the named enums come from the dereferenced document. */
async function renderTypesOnce(root: string, api: ApiDocument): Promise<string> {
  const ast = await openapiTS(pathToFileURL(`${root}/${api.file}`), {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    // A default is what the server assumes when a field is left out: it stays optional.
    defaultNonNullable: false,
    silent: true,
  });
  return COMMENT_HEADER + astToString(ast) + renderNamedEnums(api.dereferenced);
}

/**
 * The types of a stream document's message payloads: its payloads and the schemas they share,
 * as the components of an OpenAPI document (scripts/stream-types.ts), typed as the HTTP API's are.
 */
async function renderStreamTypes(read: FileReader, stream: StreamDocument): Promise<string> {
  const document = streamTypesDocument(stream.name, read);
  const ast = await openapiTS(document as unknown as OpenAPI3, {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    defaultNonNullable: false,
    silent: true,
  });
  const header = `// Generated by scripts/generate.ts from ${stream.file}: each message's payload by the message's name, and the schemas they share.\n\n`;
  return COMMENT_HEADER + header + astToString(ast) + renderNamedEnums(document);
}

/** The last stream outputs of each project root, with every file they were made from, as it was read. */
const lastStreamOutputs = new Map<
  string,
  { texts: Map<string, string | undefined>; outputs: [string, string][] }
>();

/**
 * generated/streams-<name>.ts and generated/streams.ts for the stream documents of `root`. The
 * watch loop renders generated/ on every save under openapi/, mostly of files the streams do not
 * read: while every file the last rendering read is as it was (by content), its outputs are reused.
 */
async function renderStreamFiles(root: string): Promise<[string, string][]> {
  const read = workingTreeReader(root);
  const last = lastStreamOutputs.get(root);
  if (last && [...last.texts].every(([file, text]) => read(file) === text)) return last.outputs;
  const texts = new Map<string, string | undefined>();
  const recording: FileReader = (file) => {
    const text = read(file);
    texts.set(file, text);
    return text;
  };
  const streams = loadStreamDocumentsFrom(recording);
  const outputs: [string, string][] = [];
  for (const stream of streams)
    outputs.push([`generated/streams-${stream.name}.ts`, await renderStreamTypes(recording, stream)]);
  outputs.push(['generated/streams.ts', renderStreamFactsModule(streams)]);
  outputs.push(...renderStreamSamples(streams));
  lastStreamOutputs.set(root, { texts, outputs });
  return outputs;
}

/** The content of every generated file, by path relative to `root`. */
export async function renderGeneratedFiles(root: string): Promise<Map<string, string>> {
  const outputs = new Map<string, string>();
  const config = parse(readFileSync(`${root}/redocly.yaml`, 'utf8'));
  for (const api of loadApiDocuments(root)) {
    const output: unknown = config.apis[api.name]?.['x-openapi-ts']?.output;
    if (typeof output !== 'string')
      throw new Error(`redocly.yaml: api ${api.name} has no x-openapi-ts output`);
    outputs.set(output, await renderTypes(root, api));
  }
  const modules = renderOperationModules(root);
  outputs.set('generated/operations.ts', modules.operations);
  outputs.set('generated/routes.ts', modules.routes);
  outputs.set('generated/answers.ts', renderAnswerShapesModule(root));
  outputs.set('generated/responses.ts', renderResponseContracts(root));
  for (const [file, sample] of renderSamples(root)) outputs.set(file, sample);
  for (const [file, content] of await renderStreamFiles(root)) outputs.set(file, content);
  return outputs;
}

/**
 * Files under generated/ that `outputs` does not produce: left by an operation or an API since
 * removed from the documents (a deleted operation's sample, say), which a check of only the files
 * the documents produce would never notice.
 */
export function leftoverGeneratedFiles(root: string, outputs: ReadonlyMap<string, string>): string[] {
  const folder = join(root, 'generated');
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((file) => !outputs.has(file))
    .sort();
}

/**
 * Writes what the documents of `root` produce (or `rendered`, rendered already), leaving a file
 * whose content is the same untouched, and removes leftovers; returns the files written and
 * removed, relative to `root`.
 */
export async function writeGeneratedFiles(
  root: string,
  rendered?: ReadonlyMap<string, string>,
): Promise<{ written: string[]; removed: string[] }> {
  const outputs = rendered ?? (await renderGeneratedFiles(root));
  const written: string[] = [];
  for (const [file, content] of outputs) {
    const path = `${root}/${file}`;
    if (existsSync(path) && readFileSync(path, 'utf8') === content) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    written.push(file);
  }
  const removed = leftoverGeneratedFiles(root, outputs);
  for (const file of removed) rmSync(`${root}/${file}`);
  return { written, removed };
}

/**
 * What `npm run generate` would change in `root`: files that differ from what its documents
 * produce (missing ones included), and leftovers they no longer produce.
 */
export async function staleGeneratedFiles(
  root: string,
): Promise<{ differing: string[]; leftover: string[] }> {
  const outputs = await renderGeneratedFiles(root);
  const differing: string[] = [];
  for (const [file, content] of outputs) {
    let current: string | undefined;
    try {
      current = readFileSync(`${root}/${file}`, 'utf8');
    } catch {}
    if (current !== content) differing.push(file);
  }
  return { differing, leftover: leftoverGeneratedFiles(root, outputs) };
}
