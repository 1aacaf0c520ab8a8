// The documents as plain objects with every local $ref replaced by its target, and an ajv
// instance that understands their schemas (OpenAPI 3.1 schemas are JSON Schema 2020-12). This is
// the bottom of the document model: it imports nothing of the project, so the generator
// (scripts/) can use it before generated/ exists.
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { isRecord, type JsonRecord, recordAt, stringAt } from './json.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Parses a YAML or JSON file, from a path relative to `root` (the project's by default) or absolute. */
export function readDocument(path: string, root: string = projectRoot): unknown {
  return parse(readFileSync(isAbsolute(path) ? path : `${root}/${path}`, 'utf8'));
}

/** One API as redocly.yaml names it, with its document parsed (not dereferenced). */
export interface ApiDocument {
  name: string;
  /** Relative to the project root. */
  file: string;
  document: JsonRecord;
}

/** The documents named in redocly.yaml, parsed. */
export function loadApiDocuments(root: string = projectRoot): ApiDocument[] {
  const apis = recordAt(readDocument('redocly.yaml', root), 'apis');
  return Object.entries(apis).map(([name, api]) => {
    const file = stringAt(api, 'root');
    if (!file) throw new Error(`redocly.yaml: api ${name} has no root`);
    const document = readDocument(file, root);
    if (!isRecord(document)) throw new Error(`${file} is not an object`);
    return { name, file, document };
  });
}

/**
 * Replaces every local `{ $ref: '#/…' }` with a copy of its target; sibling keywords of a $ref
 * (an OpenAPI 3.1 description beside it) win over the target's own.
 */
export function dereference(document: unknown): unknown {
  const seen: string[] = [];
  const resolvePointer = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>(
        (node, part) => (isRecord(node) || Array.isArray(node) ? Reflect.get(node, part) : undefined),
        document,
      );
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isRecord(node)) return node;
    const { $ref, ...siblings } = node;
    const copy = Object.fromEntries(Object.entries(siblings).map(([key, value]) => [key, walk(value)]));
    if (typeof $ref !== 'string') return copy;
    // A reference to another file (a code sample's source) is left for the docs to resolve.
    if (!$ref.startsWith('#/')) return { $ref, ...copy };
    if (seen.includes($ref)) throw new Error(`circular reference: ${[...seen, $ref].join(' -> ')}`);
    seen.push($ref);
    const target = walk(resolvePointer($ref));
    seen.pop();
    if (!isRecord(target)) throw new Error(`unresolved reference: ${$ref}`);
    return { ...target, ...copy };
  };
  return walk(document);
}

/** A document dereferenced; it stays an object. */
export function dereferenceDocument(document: JsonRecord): JsonRecord {
  const result = dereference(document);
  if (!isRecord(result)) throw new Error('a dereferenced document is not an object');
  return result;
}

/** An ajv that validates document schemas, formats included, and knows our vendor keywords. */
export function createSchemaValidator(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTuples: false });
  addFormats.default(ajv);
  ajv.addVocabulary([
    'example',
    'x-enum-varnames',
    'x-enum-descriptions',
    'x-window-seconds',
    'x-minimum-amount',
  ]);
  return ajv;
}
