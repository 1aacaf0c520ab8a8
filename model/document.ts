// The documents as plain objects with every $ref replaced by its target, and an ajv instance that
// understands their schemas (OpenAPI 3.1 schemas are JSON Schema 2020-12). The documents are laid
// out the way Redocly splits them: a root document whose paths and components are $refs to files
// beside it (openapi/paths/, openapi/components/), which refer to each other by relative paths. The
// dereferencer follows those, synchronously, reading each file through a `FileReader` (the working
// tree, or a git ref in scripts/spec-sources.ts). This is the bottom of the document model: it
// imports nothing of the project, so the generator (scripts/) can use it before generated/ exists.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isRecord, type JsonRecord, pointerSteps, recordAt, stringAt } from './json.ts';
import { parseYaml } from './parse-yaml.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Parses a YAML or JSON file, from a path relative to `root` (the project's by default) or absolute. */
export function readDocument(path: string, root: string = projectRoot): unknown {
  return parseYaml(readFileSync(isAbsolute(path) ? path : `${root}/${path}`, 'utf8'));
}

/** The text of a file by its `/`-separated path relative to a project root; undefined when there is none. */
export type FileReader = (path: string) => string | undefined;

/** Reads the files of a project root in the working tree. */
export function workingTreeReader(root: string = projectRoot): FileReader {
  return (path) => {
    try {
      return readFileSync(isAbsolute(path) ? path : join(root, path), 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** Where a document comes from: its file (relative to the project root) and how to read the files it refers to. */
export interface DocumentOrigin {
  file: string;
  read: FileReader;
}

/** One API as redocly.yaml names it: its root document as written, and dereferenced. */
export interface ApiDocument {
  name: string;
  /** The root document, relative to the project root. */
  file: string;
  /** The root document as written (its paths and components are $refs to other files). */
  document: JsonRecord;
  /** The document with every reference to a YAML or JSON part resolved (see `dereference`). */
  dereferenced: JsonRecord;
  /** Every file the document is made of or refers to (code samples too), root first, relative to the project root. */
  files: readonly string[];
}

/** The documents named in a redocly.yaml, parsed and dereferenced, read through `read`. */
export function loadApiDocumentsFrom(read: FileReader): ApiDocument[] {
  const config = read('redocly.yaml');
  if (config === undefined) throw new Error('no redocly.yaml');
  const apis = recordAt(parseYaml(config), 'apis');
  return Object.entries(apis).map(([name, api]) => {
    const file = stringAt(api, 'root');
    if (!file) throw new Error(`redocly.yaml: api ${name} has no root`);
    const text = read(file);
    if (text === undefined) throw new Error(`redocly.yaml: api ${name}: no file ${file}`);
    const document: unknown = parseYaml(text);
    if (!isRecord(document)) throw new Error(`${file} is not an object`);
    const { value, files } = resolveReferences(document, { file, read });
    if (!isRecord(value)) throw new Error(`${file} is not an object once dereferenced`);
    return { name, file, document, dereferenced: value, files };
  });
}

/**
 * The file, relative to the project root, that holds the path item of `path` in a document: the
 * file its `$ref` names (openapi/paths/<operationId>.yaml), or the root document itself.
 */
export function pathItemFile(api: Pick<ApiDocument, 'file' | 'document'>, path: string): string {
  const ref = stringAt(api.document, 'paths', path, '$ref');
  if (ref === undefined || ref.startsWith('#')) return api.file;
  return posix.normalize(posix.join(posix.dirname(api.file), ref.split('#')[0] as string));
}

/** The last load of each project root, with every file it read as it read it. */
const lastLoads = new Map<string, { texts: Map<string, string | undefined>; apis: ApiDocument[] }>();

/**
 * The documents named in redocly.yaml, parsed and dereferenced. Dereferencing is most of the
 * cost and one build asks for the documents many times (the watch loop's codegen and docs
 * draft, each test file): while every file the last load of `root` read is as it was (compared
 * by content, so an edit within one clock tick is seen too), that load is reused. Each caller gets
 * its own copy, free to change.
 */
export function loadApiDocuments(root: string = projectRoot): ApiDocument[] {
  const read = workingTreeReader(root);
  const last = lastLoads.get(root);
  if (last && [...last.texts].every(([file, text]) => read(file) === text)) return structuredClone(last.apis);
  const texts = new Map<string, string | undefined>();
  const apis = loadApiDocumentsFrom((file) => {
    const text = read(file);
    texts.set(file, text);
    return text;
  });
  lastLoads.set(root, { texts, apis: structuredClone(apis) });
  return apis;
}

/** A file the dereferencer parses and follows; any other file (a code sample) is only referred to. */
const partFile = /\.(ya?ml|json)$/i;

/** The node at a JSON pointer (`/a/b`, without the `#`), or undefined. */
export function atPointer(node: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return node;
  return pointerSteps(pointer).reduce<unknown>(
    (current, part) => (isRecord(current) || Array.isArray(current) ? Reflect.get(current, part) : undefined),
    node,
  );
}

/**
 * Replaces every `{ $ref }` with a copy of its target; sibling keywords of a $ref (an OpenAPI 3.1
 * description beside it) win over the target's own. `#/…` points into the file the $ref is
 * written in; a relative path (`../components/schemas/Decimal.yaml`, optionally with `#/…`) is
 * read relative to that file, through `source.read`, each file parsed once. A reference to any
 * other file (a code sample's source) is left as a $ref, its path made relative to the root
 * document's directory, for the docs to resolve. A cycle, a missing file or a pointer to nothing
 * is an error naming the chain of references.
 */
export function resolveReferences(
  document: unknown,
  source?: DocumentOrigin,
): { value: unknown; files: string[] } {
  const rootFile = source?.file ?? '';
  const parsed = new Map<string, unknown>([[rootFile, document]]);
  const files = new Set<string>(source ? [rootFile] : []);
  const chain: string[] = [];
  const fail = (message: string): never => {
    throw new Error(`${message}${chain.length > 0 ? ` (via ${chain.join(' -> ')})` : ''}`);
  };
  const load = (file: string): unknown => {
    if (parsed.has(file)) return parsed.get(file);
    const text = source?.read(file);
    if (text === undefined) fail(`no file ${file}`);
    const value: unknown = parseYaml(text as string);
    parsed.set(file, value);
    files.add(file);
    return value;
  };
  const walk = (node: unknown, file: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, file));
    if (!isRecord(node)) return node;
    const { $ref, ...siblings } = node;
    const copy = Object.fromEntries(Object.entries(siblings).map(([key, value]) => [key, walk(value, file)]));
    if (typeof $ref !== 'string') return copy;
    const hash = $ref.indexOf('#');
    const path = hash === -1 ? $ref : $ref.slice(0, hash);
    const pointer = hash === -1 ? '' : $ref.slice(hash + 1);
    // A URL is not ours to follow.
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return { $ref, ...copy };
    const target =
      path === ''
        ? file
        : posix.isAbsolute(path)
          ? path
          : posix.normalize(posix.join(posix.dirname(file), path));
    if (path !== '' && !partFile.test(path)) {
      if (source) files.add(target);
      const rebased = posix.isAbsolute(target) ? target : posix.relative(posix.dirname(rootFile), target);
      return { $ref: rebased, ...copy };
    }
    if (path !== '' && !source) fail(`${$ref}: a reference to another file needs the document's file`);
    const key = `${target}#${pointer}`;
    if (chain.includes(key)) fail(`circular reference: ${$ref}`);
    chain.push(key);
    const resolved = walk(atPointer(load(target), pointer), target);
    if (!isRecord(resolved)) fail(`unresolved reference: ${$ref} in ${file || 'the document'}`);
    chain.pop();
    return { ...(resolved as JsonRecord), ...copy };
  };
  return { value: walk(document, rootFile), files: [...files] };
}

/** The document with every reference resolved (see `resolveReferences`). */
export function dereference(document: unknown, source?: DocumentOrigin): unknown {
  return resolveReferences(document, source).value;
}

/** A document dereferenced; it stays an object. */
export function dereferenceDocument(document: JsonRecord, source?: DocumentOrigin): JsonRecord {
  const result = dereference(document, source);
  if (!isRecord(result)) throw new Error('a dereferenced document is not an object');
  return result;
}

/** An ajv that validates document schemas, formats included, and knows our vendor keywords. */
export function createSchemaValidator(): Ajv2020 {
  // Its code's source is kept, for the validators kept across processes (model/compiled-schema.ts).
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTuples: false, code: { source: true } });
  addFormats.default(ajv);
  ajv.addVocabulary([
    'example',
    'x-enum-varnames',
    'x-enum-descriptions',
    'x-window-seconds',
    'x-minimum-amount',
    'x-unix-time',
    'x-cli-flag',
    'x-sensitive',
  ]);
  return ajv;
}
