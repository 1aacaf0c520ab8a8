// The documents as plain objects with every local $ref replaced by its target, and an
// ajv instance that understands their schemas (OpenAPI 3.1 schemas are JSON Schema 2020-12).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const projectRoot = new URL('..', import.meta.url).pathname;

/** Parses a document from a path relative to the project root, or from its text. */
export function readDocument(relativePath: string): Record<string, unknown> {
  return parse(readFileSync(`${projectRoot}/${relativePath}`, 'utf8'));
}

/**
 * Replaces every local `{ $ref: '#/…' }` with a copy of its target; sibling keywords of a $ref
 * (an OpenAPI 3.1 description beside it) win over the target's own.
 */
export function dereference<T>(document: T): T {
  const seen: string[] = [];
  const resolvePointer = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      // biome-ignore lint/suspicious/noExplicitAny: walking an arbitrary JSON document
      .reduce<any>((node, part) => node?.[part], document);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...siblings } = node as Record<string, unknown>;
    const copy = Object.fromEntries(Object.entries(siblings).map(([key, value]) => [key, walk(value)]));
    if (typeof $ref !== 'string') return copy;
    // A reference to another file (a code sample's source) is left for the docs to resolve.
    if (!$ref.startsWith('#/')) return { $ref, ...copy };
    if (seen.includes($ref)) throw new Error(`circular reference: ${[...seen, $ref].join(' -> ')}`);
    seen.push($ref);
    const target = walk(resolvePointer($ref));
    seen.pop();
    if (target === undefined) throw new Error(`unresolved reference: ${$ref}`);
    return { ...(target as object), ...copy };
  };
  return walk(document) as T;
}

/** An ajv that validates document schemas, formats included, and knows our vendor keywords. */
export function createSchemaValidator(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTuples: false });
  addFormats.default(ajv);
  ajv.addVocabulary(['example', 'x-enum-varnames', 'x-enum-descriptions', 'x-window-seconds']);
  return ajv;
}
