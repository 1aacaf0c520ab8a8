// Schema validators compiled once per schema, not once per process. Compiling is ajv's costliest
// step: each process that checks the documents' messages compiles the same schemas again (the
// sandbox at each start, each test worker, each contract worker). Timed in every process of one
// `npm test`, about 10,000 compiles took 64 s. A validator depends only on the
// schema and on the ajv that compiles it (its options and known keywords), so its code, which ajv
// writes out as a module of its own (standalone code), is kept on disk under the hash of both and
// loaded by any process that meets them again: an edited schema, or another ajv, is a new compile.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { keepWhole, keptFilesDirectory } from './kept-files.ts';

const require = createRequire(import.meta.url);
const versionOf = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

/**
 * Inside node_modules, where the kept modules find the ajv parts they require; new versions of
 * ajv or of its formats start a new directory.
 */
const cacheDir = keptFilesDirectory(`txc-compiled-schemas-${versionOf('ajv')}-${versionOf('ajv-formats')}`);

/** What makes two ajvs compile a schema alike: their options and every keyword they know. */
const configurations = new WeakMap<Ajv, string>();
function configurationOf(ajv: Ajv): string {
  let configuration = configurations.get(ajv);
  if (configuration === undefined) {
    // The URI resolver is a library (a cycle of modules), not a setting; a function, by its name.
    const { uriResolver: _, ...options } = ajv.opts;
    configuration = JSON.stringify(
      {
        options,
        keywords: Object.keys(ajv.RULES.keywords).sort(),
        formats: Object.keys(ajv.formats).sort(),
      },
      (_key, value: unknown) => (typeof value === 'function' ? `function ${value.name}` : value),
    );
    configurations.set(ajv, configuration);
  }
  return configuration;
}

/** Where the validator `ajv` compiles from `schema` is kept. */
export function compiledSchemaFile(ajv: Ajv, schema: object): string {
  const hash = createHash('sha256').update(configurationOf(ajv)).update('\n').update(JSON.stringify(schema));
  return join(cacheDir, `${hash.digest('hex')}.cjs`);
}

/**
 * What `ajv.compile(schema)` gives, the same validation and errors, compiled by this process or
 * loaded as another left it. `ajv` must keep its code's source (`code: { source: true }`). A
 * schema that does not compile throws as `compile` does, and nothing is kept.
 */
export function compileSchema(ajv: Ajv, schema: object): ValidateFunction {
  const file = compiledSchemaFile(ajv, schema);
  try {
    return require(file) as ValidateFunction;
  } catch {
    // Not kept yet: compiled below.
  }
  const validate = ajv.compile(schema);
  try {
    keepWhole(file, standaloneCode.default(ajv, validate));
  } catch {
    // A read-only checkout compiles every time, as before.
  }
  return validate;
}
