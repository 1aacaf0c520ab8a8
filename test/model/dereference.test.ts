// The model's dereferencer on documents split over files, read from memory: relative file $refs
// from nested directories, pointers into the file a $ref is written in, code samples left as
// references, and the errors that name where a reference leads nowhere.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  type FileReader,
  loadApiDocuments,
  loadApiDocumentsFrom,
  pathItemFile,
  resolveReferences,
} from '../../model/document.ts';
import { isRecord } from '../../model/json.ts';

/** A project in memory: file path to parsed content (written as YAML) or text. */
function project(files: Record<string, unknown>): FileReader {
  return (path) => {
    const content = files[path];
    if (content === undefined) return undefined;
    return typeof content === 'string' ? content : stringify(content);
  };
}

const split = {
  'openapi/api.yaml': {
    openapi: '3.1.0',
    paths: { '/things': { $ref: 'paths/listThings.yaml' } },
    components: { schemas: { Amount: { $ref: 'components/schemas/Amount.yaml' } } },
  },
  'openapi/paths/listThings.yaml': {
    get: {
      operationId: 'listThings',
      'x-codeSamples': [{ lang: 'TypeScript', source: { $ref: '../../docs/samples/listThings.ts' } }],
      responses: {
        '200': {
          description: 'Things.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  total: { $ref: '../components/schemas/Amount.yaml', description: 'The total.' },
                  item: { $ref: '#/get/x-item' },
                },
              },
            },
          },
        },
        '429': { $ref: '../components/responses/Busy.yaml' },
      },
      'x-item': { type: 'string', title: 'Item' },
    },
  },
  'openapi/components/schemas/Amount.yaml': { type: 'string', description: 'An amount.' },
  'openapi/components/responses/Busy.yaml': {
    description: 'Busy.',
    content: { 'application/json': { schema: { $ref: '../schemas/Amount.yaml' } } },
  },
};

const resolve = (files: Record<string, unknown>, file = 'openapi/api.yaml') => {
  const read = project(files);
  return resolveReferences(JSON.parse(JSON.stringify(files[file])), { file, read });
};

describe('dereferencing a split document', () => {
  it('follows relative file references from every directory, and pointers within a file', () => {
    const { value } = resolve(split);
    const operation = (value as { paths: Record<string, { get: Record<string, unknown> }> }).paths['/things']
      ?.get;
    expect(operation?.operationId).toBe('listThings');
    expect(operation?.responses).toMatchObject({
      '200': {
        content: {
          'application/json': {
            schema: {
              properties: {
                // The sibling description wins over the component's own.
                total: { type: 'string', description: 'The total.' },
                item: { type: 'string', title: 'Item' },
              },
            },
          },
        },
      },
      '429': { description: 'Busy.', content: { 'application/json': { schema: { type: 'string' } } } },
    });
    expect(JSON.stringify(value)).not.toMatch(/\.yaml/);
  });

  it('leaves a code sample as a reference, relative to the root document, and lists every file', () => {
    const { value, files } = resolve(split);
    const sample = (value as { paths: Record<string, { get: { 'x-codeSamples': unknown[] } }> }).paths[
      '/things'
    ]?.get['x-codeSamples'][0];
    expect(sample).toEqual({ lang: 'TypeScript', source: { $ref: '../docs/samples/listThings.ts' } });
    expect([...files].sort()).toEqual(
      [
        'openapi/api.yaml',
        'openapi/paths/listThings.yaml',
        'openapi/components/schemas/Amount.yaml',
        'openapi/components/responses/Busy.yaml',
        'docs/samples/listThings.ts',
      ].sort(),
    );
  });

  it('names the missing file and the references that led to it', () => {
    const files = { ...split, 'openapi/components/schemas/Amount.yaml': undefined };
    expect(() => resolve(files)).toThrow(
      /no file openapi\/components\/schemas\/Amount\.yaml \(via openapi\/paths\/listThings\.yaml# -> /,
    );
  });

  it('detects a cycle across files', () => {
    const files = {
      ...split,
      'openapi/components/schemas/Amount.yaml': {
        $ref: '../responses/Busy.yaml#/content/application~1json/schema',
      },
    };
    expect(() => resolve(files)).toThrow(/circular reference: \.\.\/schemas\/Amount\.yaml/);
  });

  it('refuses a reference to another file without the document it is written in', () => {
    expect(() => resolveReferences(split['openapi/api.yaml'])).toThrow(/needs the document's file/);
    // Pointers within one document need no file.
    const single = { a: { $ref: '#/b' }, b: { type: 'string' } };
    expect(resolveReferences(single).value).toEqual({ a: { type: 'string' }, b: { type: 'string' } });
  });

  it('loads the documents a redocly.yaml names through any reader, and finds each path item file', () => {
    const read = project({ ...split, 'redocly.yaml': { apis: { things: { root: 'openapi/api.yaml' } } } });
    const [api] = loadApiDocumentsFrom(read);
    expect(api?.name).toBe('things');
    expect(api && pathItemFile(api, '/things')).toBe('openapi/paths/listThings.yaml');
    expect(api?.files[0]).toBe('openapi/api.yaml');
  });
});

describe("the project's documents", () => {
  it('have each operation in a file of its own, and no reference to a part left once dereferenced', () => {
    for (const api of loadApiDocuments()) {
      const paths = api.dereferenced.paths;
      if (!isRecord(paths)) throw new Error(`${api.file} has no paths`);
      for (const [path, item] of Object.entries(paths)) {
        if (!isRecord(item)) throw new Error(`${path} is not a path item`);
        const [operation] = Object.values(item).filter(isRecord);
        expect(pathItemFile(api, path)).toBe(`openapi/paths/${operation?.operationId}.yaml`);
        expect(api.files).toContain(pathItemFile(api, path));
      }
      expect(JSON.stringify(api.dereferenced)).not.toMatch(/"\$ref":"[^"]*\.ya?ml/);
    }
  });
});
