// The reference pages as the global setup built them, read in this process, without a browser:
// what each page gives Redoc to render (the document it embeds, the sections Redoc prerendered)
// and the Try it panel's data, for every operation of generated/operations.ts; and every
// operation's Try it request, built by the page's own request builder (the site's
// assets/try-it-request.mjs, which the panel imports) and sent to an in-process sandbox.
// That Redoc renders such a page's operations into sections, and that the panel sends what the
// builder makes, signed in the browser, is checked in Chromium on pages of a few operations, one
// of each request shape (reference-site.test.ts): both are one code path for every operation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operations, signedBodyFields } from '../../generated/operations.ts';
import { atPointer, loadApiDocuments } from '../../model/document.ts';
import { isRecord } from '../../model/json.ts';
import { documentModel } from '../../model/model.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { operationGroups, operationHref } from '../landing.ts';
import { expectedOperations } from '../page-check.ts';
import { sampleFile, sampleLabel, sampleLang } from '../samples.ts';
import { type TryItData, type TryItOperation, tryItRequestAsset } from '../try-it.ts';
import { expectSandboxTook, readyFor, type TryItOutcome } from './try-it-calls.ts';

const apis = loadApiDocuments();
const groups = operationGroups(apis);

/** What a built reference page gives Redoc and the Try it panel, read from its HTML. */
interface BuiltPage {
  /** The document Redoc renders (`__redoc_definition`), its own `#/…` $refs unresolved. */
  definition: Record<string, unknown>;
  /** Redoc's options (`__redoc_options`). */
  options: { codeSamples?: { languages?: { lang: string; label: string }[] } };
  /** The section ids of Redoc's prerendered markup, in its order. */
  sectionIds: string[];
  tryIt: TryItData;
}

function readBuiltPage(file: string): BuiltPage {
  const html = readFileSync(file, 'utf8');
  const script = /\n\s*const __redoc_definition = (.*);\n\s*const __redoc_options = (.*);\n/.exec(html);
  if (!script) throw new Error(`${file}: no __redoc_definition and __redoc_options script`);
  const markup = html.slice(0, script.index);
  const tryIt = /<script type="application\/json" id="try-it-data">(.*?)<\/script>/s.exec(html);
  if (!tryIt) throw new Error(`${file}: no try-it-data`);
  return {
    definition: JSON.parse(script[1] as string),
    options: JSON.parse(script[2] as string),
    sectionIds: [...markup.matchAll(/data-section-id="([^"]*)"/g)].map((match) => match[1] as string),
    tryIt: JSON.parse(tryIt[1] as string),
  };
}

/** `node` with its own `{ $ref: '#/…' }` followed within `definition`, repeatedly. */
function resolved(definition: unknown, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isRecord(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20 || !current.$ref.startsWith('#')) throw new Error(`cannot follow ${current.$ref}`);
    current = atPointer(definition, current.$ref.slice(1));
  }
  return current;
}

/** The properties a schema declares at its top, through $refs and allOf/oneOf/anyOf. */
function topProperties(definition: unknown, schema: unknown): string[] {
  const node = resolved(definition, schema);
  if (!isRecord(node)) return [];
  const own = isRecord(node.properties) ? Object.keys(node.properties) : [];
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((key) => (Array.isArray(node[key]) ? node[key] : []));
  return [...own, ...parts.flatMap((part) => topProperties(definition, part))];
}

/** The page's operation of this id: its path, method and object as Redoc is given it. */
function operationIn(definition: Record<string, unknown>, operationId: string) {
  for (const [path, item] of Object.entries((definition.paths ?? {}) as Record<string, unknown>)) {
    const pathItem = resolved(definition, item);
    if (!isRecord(pathItem)) continue;
    for (const [method, operation] of Object.entries(pathItem))
      if (isRecord(operation) && operation.operationId === operationId) return { path, method, operation };
  }
  return undefined;
}

const pages = () => new Map(inject('docsPages').map((page) => [page.name, page]));
const builtPage = (api: string) => {
  const page = pages().get(api);
  if (!page) throw new Error(`no page of ${api}`);
  return readBuiltPage(join(inject('docsDir'), page.file));
};

describe('the built reference pages, read without a browser', () => {
  for (const api of apis) {
    describe(api.name, () => {
      let page: BuiltPage;
      beforeAll(() => {
        page = builtPage(api.name);
      });

      it('give Redoc every operation with its request fields, responses and TypeScript sample', () => {
        const expected = expectedOperations(api.name);
        expect(expected.length).toBeGreaterThan(0);
        // The sample's label is one Redoc is told to show.
        expect(page.options.codeSamples?.languages).toContainEqual({ lang: sampleLang, label: sampleLabel });
        for (const operation of expected) {
          const id = operation.operationId;
          const found = operationIn(page.definition, id);
          if (!found) throw new Error(`${id} is not in the document the page gives Redoc`);
          const facts = operations[id as keyof typeof operations];
          expect(`${found.method} ${found.path}`, id).toBe(`${facts.method} ${facts.path}`);
          const body = resolved(page.definition, found.operation.requestBody);
          const schema = isRecord(body) ? resolved(page.definition, body.content) : undefined;
          const fields = topProperties(
            page.definition,
            isRecord(schema) && isRecord(schema['application/json']) ? schema['application/json'].schema : {},
          );
          for (const field of operation.fields) expect(fields, `${id}: request field`).toContain(field);
          const statuses = Object.keys((found.operation.responses ?? {}) as Record<string, unknown>);
          for (const status of operation.statuses)
            expect(statuses, `${id}: response`).toContain(String(status));
          // The sample file without its first line, which says it is generated: computed here, not
          // by the build's helpers, which would otherwise make the expectation they are checked by.
          const [header, ...lines] = readFileSync(sampleFile(id), 'utf8').split('\n');
          expect(header, id).toMatch(/^\/\/ Generated by /);
          expect(found.operation['x-codeSamples'] ?? [], `${id}: sample`).toContainEqual({
            lang: sampleLang,
            label: sampleLabel,
            source: lines.join('\n'),
          });
        }
      });

      it("link each operation of the index to the section Redoc gives it: its tag's section, then its operationId", () => {
        // Redoc's own slug of each tag: its prerendered markup has a section per tag, in the
        // document's order (the first ones are the page's top and its description's sections).
        const tagSections = page.sectionIds.filter((id) => id !== '/' && !id.startsWith('/section/'));
        const tags = (page.definition.tags as { name: string }[]).map((tag) => tag.name);
        expect(tagSections.length, api.name).toBe(tags.length);
        const sectionOf = new Map(tags.map((tag, index) => [tag, tagSections[index]]));
        const own = groups.filter((group) => group.page === `${api.name}.html`);
        for (const group of own) {
          for (const operation of group.operations) {
            const route = operationHref(group.page, group.tag, operation.operationId).split('#')[1];
            // Redoc's route of an operation is its tag's section and its lowercased operationId
            // (followed in Chromium on the pages of a few operations, reference-site.test.ts).
            expect(route, operation.operationId).toBe(
              `${sectionOf.get(group.tag)}/${operation.operationId.toLowerCase()}`,
            );
            expect(
              page.tryIt.operations.find((entry) => entry.operationId === operation.operationId)?.route,
              operation.operationId,
            ).toBe(route);
          }
        }
        expect(own.flatMap((group) => group.operations).length).toBe(expectedOperations(api.name).length);
      });

      it("give Try it every operation with its method, path, signing and first example's fields", () => {
        const model = documentModel();
        expect(page.tryIt.operations.map((operation) => operation.operationId).sort()).toEqual(
          expectedOperations(api.name)
            .map((operation) => operation.operationId)
            .sort(),
        );
        for (const operation of page.tryIt.operations) {
          const id = operation.operationId;
          const facts = operations[id as keyof typeof operations];
          const view = model.operation(id);
          expect([operation.method, operation.path, operation.signed], id).toEqual([
            facts.method,
            facts.path,
            facts.auth === 'signed',
          ]);
          // A GET starts from its parameters' examples, anything else from its first named
          // request example, without the fields signing adds.
          const first = view.parametersExample
            ? { ...view.parametersExample.path, ...view.parametersExample.query }
            : Object.fromEntries(
                Object.entries((view.requestExamples[0]?.value ?? {}) as Record<string, unknown>).filter(
                  ([field]) => !(signedBodyFields as readonly string[]).includes(field),
                ),
              );
          expect(operation.examples[0]?.fields ?? {}, id).toEqual(first);
        }
      });
    });
  }
});

describe("every operation's Try it request, as the page builds it, is accepted by the sandbox", () => {
  const key = credentialKey(loadFixture());
  const answered: string[] = [];
  let sandbox: Sandbox;
  /** The page's request builder: the very file the panel imports, from the built site. */
  let tryItRequest: (input: {
    operation: TryItOperation;
    origin: string;
    fields: Record<string, unknown>;
    apiKey: string;
    apiSecret: string;
  }) => Promise<{
    url: string;
    headers: Record<string, string>;
    body?: string;
    hidden?: Record<string, string>;
    error?: string;
  }>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, log: (line) => answered.push(line) });
    ({ tryItRequest } = await import(pathToFileURL(join(inject('docsDir'), tryItRequestAsset)).href));
  });
  afterAll(() => sandbox?.close());

  for (const api of apis) {
    it(api.name, async () => {
      const { tryIt } = builtPage(api.name);
      expect(tryIt.operations.length).toBeGreaterThan(0);
      for (const operation of tryIt.operations) {
        const placed = await readyFor(sandbox, key, operation);
        // From here: a token operation's request asks the sandbox for its token first.
        const before = answered.length;
        const request = await tryItRequest({
          operation,
          origin: sandbox.url,
          fields: operation.examples[0]?.fields ?? {},
          apiKey: key.apiKey,
          apiSecret: key.secret,
        });
        if (request.error) throw new Error(`${operation.operationId}: ${request.error}`);
        const response = await fetch(request.url, {
          method: operation.method.toUpperCase(),
          headers: request.headers,
          body: request.body ?? null,
          redirect: 'error',
        });
        const call: TryItOutcome = {
          placed,
          answered: [],
          status: response.status,
          answer: await response.text(),
          request: [
            `${operation.method.toUpperCase()} ${request.url}`,
            ...Object.entries(request.headers).map(
              ([name, value]) => `${name}: ${request.hidden?.[name] ?? value}`,
            ),
          ].join('\n'),
        };
        call.answered = answered.slice(before);
        expectSandboxTook(operation, call, sandbox.url);
      }
    });
  }
});
