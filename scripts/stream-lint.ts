// Validates the stream documents (asyncapi/) with the AsyncAPI parser, its core and recommended
// rules: what `npm run lint` runs (scripts/stream-lint-cli.ts), and what the watch loop of
// `npm start` can call. Each problem is one line, `file:line:col rule message`, in the file where
// it is written: the parser sees one document, each root with its parts written out in place
// (its channels, their messages, the shared components, the HTTP API's schemas they share), so
// that a problem's path runs down into the part; the path is then followed through the files
// and their $refs back to the line it names. A problem in a part two documents share is said once.
//
// Every error and warning fails; the parser's information and hints (a newer AsyncAPI version
// exists: the documents are 3.0 on purpose) do not. Beside the parser's rules, one of the
// project's own: the HTTP operation a channel's x-token-operation names is one of the OpenAPI
// documents', and its success answer has the field the extension names.
import { posix } from 'node:path';
import { type Diagnostic, DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { type Document, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import {
  atPointer,
  type FileReader,
  loadApiDocuments,
  projectRoot,
  workingTreeReader,
} from '../model/document.ts';
import { isRecord, pointerSteps, recordAt, stringAt } from '../model/json.ts';
import { type StreamDocumentName, streamDocumentFiles } from '../model/streams.ts';

export interface StreamLintResult {
  ok: boolean;
  /** One line per problem: `file:line:col rule message`. */
  problems: string[];
}

/** The severities that fail the lint. */
const failing = new Set<number>([DiagnosticSeverity.Error, DiagnosticSeverity.Warning]);

interface Source {
  document: Document.Parsed;
  lines: LineCounter;
  value: unknown;
}

type Step = string | number;

/** A $ref to another file, split: the file it names relative to `from`'s folder, and the pointer. */
function externalRef(ref: unknown, from: string): { file: string; pointer: string } | undefined {
  if (typeof ref !== 'string' || ref.startsWith('#')) return undefined;
  const hash = ref.indexOf('#');
  const path = hash === -1 ? ref : ref.slice(0, hash);
  return {
    file: posix.normalize(posix.join(posix.dirname(from), path)),
    pointer: hash === -1 ? '' : ref.slice(hash + 1),
  };
}

/** The documents of one project, their parts parsed once, and the problems found on the way. */
class Sources {
  readonly problems = new Set<string>();
  private readonly parsed = new Map<string, Source | undefined>();

  private readonly read: FileReader;

  constructor(read: FileReader) {
    this.read = read;
  }

  report(file: string, offset: number | undefined, rule: string, message: string): void {
    const where = offset === undefined ? { line: 1, col: 1 } : this.get(file)?.lines.linePos(offset);
    this.problems.add(`${file}:${where?.line ?? 1}:${where?.col ?? 1} ${rule} ${message}`);
  }

  get(file: string): Source | undefined {
    if (this.parsed.has(file)) return this.parsed.get(file);
    const text = this.read(file);
    if (text === undefined) {
      this.parsed.set(file, undefined);
      return undefined;
    }
    const lines = new LineCounter();
    const document = parseDocument(text, { lineCounter: lines });
    const source = { document, lines, value: document.toJS() as unknown };
    this.parsed.set(file, source);
    for (const error of document.errors)
      this.report(file, error.pos[0], 'yaml-syntax', error.message.split('\n')[0] ?? error.message);
    return source;
  }

  /** The offset of the node at `steps` in `file`'s YAML, or undefined. */
  private offsetOf(file: string, steps: Step[]): number | undefined {
    const node = this.get(file)?.document.getIn(steps, true) as Node | undefined;
    return node?.range?.[0];
  }

  /**
   * `node` (at `steps` in `file`) with every $ref to another file replaced by its target, the
   * $ref's siblings winning. A reference within a part (`#/…` outside a root document) would
   * point elsewhere once written out in place: it is a problem, left as it is.
   */
  inline(node: unknown, file: string, steps: Step[], root: boolean): unknown {
    if (Array.isArray(node))
      return node.map((item, index) => this.inline(item, file, [...steps, index], root));
    if (!isRecord(node)) return node;
    const { $ref, ...siblings } = node;
    const copy = Object.fromEntries(
      Object.entries(siblings).map(([key, value]) => [key, this.inline(value, file, [...steps, key], root)]),
    );
    if (typeof $ref !== 'string') return copy;
    const target = externalRef($ref, file);
    if (!target) {
      if (!root)
        this.report(
          file,
          this.offsetOf(file, [...steps, '$ref']),
          'local-ref-in-part',
          `${$ref} points into this part's own root once written out in place`,
        );
      return { $ref, ...copy };
    }
    const source = this.get(target.file);
    const value = source ? atPointer(source.value, target.pointer) : undefined;
    if (value === undefined) {
      this.report(file, this.offsetOf(file, [...steps, '$ref']), 'unresolved-ref', `${$ref} names nothing`);
      return copy;
    }
    const inlined = this.inline(value, target.file, pointerSteps(target.pointer), false);
    return isRecord(inlined) ? { ...inlined, ...copy } : inlined;
  }

  /**
   * Where a path of the document written out in place is written: down from the root file, into
   * the file a $ref names whenever the next step is not beside the $ref. The deepest node found
   * is the place (a missing field's problem names the object that lacks it).
   */
  locate(rootFile: string, path: readonly Step[]): { file: string; offset: number | undefined } {
    let file = rootFile;
    let node: unknown = this.get(rootFile)?.document.contents;
    let found = { file, offset: (node as Node | undefined)?.range?.[0] };
    for (const step of path) {
      for (let hops = 0; isMap(node) && !node.has(step) && hops < 32; hops++) {
        const target = externalRef(node.get('$ref'), file);
        const source = target && this.get(target.file);
        if (!target || !source) break;
        file = target.file;
        node = pointerSteps(target.pointer).length
          ? source.document.getIn(pointerSteps(target.pointer), true)
          : source.document.contents;
      }
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
        if (!pair) break;
        found = { file, offset: (pair.key as Node).range?.[0] };
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(step)] as Node | undefined;
        if (!item) break;
        found = { file, offset: item.range?.[0] };
        node = item;
      } else break;
    }
    return found;
  }
}

/** Each operation of the OpenAPI documents of `root` by operationId: the fields of its success answer. */
function answerFieldsByOperation(root: string): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  for (const api of loadApiDocuments(root))
    for (const item of Object.values(recordAt(api.dereferenced, 'paths')))
      for (const operation of Object.values(isRecord(item) ? item : {})) {
        const operationId = stringAt(operation, 'operationId');
        if (!operationId) continue;
        const success = Object.entries(recordAt(operation, 'responses')).find(([status]) =>
          /^2/.test(status),
        );
        const properties = recordAt(success?.[1], 'content', 'application/json', 'schema', 'properties');
        fields.set(operationId, new Set(Object.keys(properties)));
      }
  return fields;
}

/** The x-token-operation of each channel of `written` (a document written out in place), checked. */
function checkTokenOperations(
  sources: Sources,
  file: string,
  written: unknown,
  operations: () => Map<string, Set<string>> | string,
): void {
  for (const [channel, item] of Object.entries(recordAt(written, 'channels'))) {
    if (!isRecord(item) || !('x-token-operation' in item)) continue;
    const at = (...steps: Step[]) =>
      sources.locate(file, ['channels', channel, 'x-token-operation', ...steps]);
    const report = (where: { file: string; offset: number | undefined }, message: string) =>
      sources.report(where.file, where.offset, 'token-operation', message);
    const operationId = stringAt(item, 'x-token-operation', 'operationId');
    const field = stringAt(item, 'x-token-operation', 'field');
    if (!operationId || !field) {
      report(at(), 'x-token-operation needs an operationId and a field, both strings');
      continue;
    }
    const known = operations();
    if (typeof known === 'string') {
      report(at('operationId'), `${operationId} cannot be looked up: ${known}`);
      continue;
    }
    const fields = known.get(operationId);
    if (!fields) report(at('operationId'), `${operationId} is no operation of the OpenAPI documents`);
    else if (!fields.has(field))
      report(at('field'), `the success answer of ${operationId} has no field ${field}`);
  }
}

let parser: Parser | undefined;

/**
 * The stream documents of `root` (those named in `names`, by default all), each written out in
 * place and run through the AsyncAPI parser.
 */
export async function lintStreamDocuments(
  root: string = projectRoot,
  names: readonly StreamDocumentName[] = Object.keys(streamDocumentFiles) as StreamDocumentName[],
): Promise<StreamLintResult> {
  parser ??= new Parser();
  const sources = new Sources(workingTreeReader(root));
  // Read once, and only for a document that names a token operation.
  let operations: Map<string, Set<string>> | string | undefined;
  const operationsOnce = () => {
    if (operations === undefined) {
      try {
        operations = answerFieldsByOperation(root);
      } catch (error) {
        operations = error instanceof Error ? error.message : String(error);
      }
    }
    return operations;
  };
  for (const file of names.map((name) => streamDocumentFiles[name])) {
    const source = sources.get(file);
    if (!source) {
      sources.report(file, undefined, 'missing-document', 'the stream document is not there');
      continue;
    }
    const written = sources.inline(source.value, file, [], true);
    checkTokenOperations(sources, file, written, operationsOnce);
    const { diagnostics } = await parser.parse(JSON.stringify(written), { source: file });
    for (const diagnostic of diagnostics as Diagnostic[]) {
      if (!failing.has(diagnostic.severity)) continue;
      const { file: where, offset } = sources.locate(file, diagnostic.path);
      sources.report(where, offset, String(diagnostic.code), diagnostic.message);
    }
  }
  const problems = [...sources.problems];
  return { ok: problems.length === 0, problems };
}
