// One set of names for where to call and as whom: every place a reader copies from (README, the
// guides, docs samples, the sandbox's printout) and every program of ours (txc, the contract suite, the
// bench) uses the names of model/environment.ts, so a .env file written once works everywhere;
// and the contract suite's settings are the ones it names too.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../model/document.ts';
import { contractVariables, environmentVariables } from '../model/environment.ts';
import { manualCodeBlocks, manualFiles } from './manual.ts';

const names = new Set<string>(Object.values(environmentVariables));
const filesUnder = (directory: string): string[] =>
  readdirSync(join(projectRoot, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)));

const sources = [
  ...manualFiles(),
  'sandbox/main.ts',
  ...filesUnder('generated/samples'),
  ...filesUnder('contract-tests'),
  ...filesUnder('bench'),
  ...filesUnder('src/cli'),
];

/** Names of variables for a base URL, a key or a secret; GitHub's `secrets.X`/`vars.X` are not variables. */
const credentialLike = /(?<![\w.])[A-Z][A-Z0-9_]*(?:BASE_URL|API_KEY|API_SECRET)\b/g;

describe('environment names', () => {
  it.each(sources)('%s names the base URL, key and secret only as model/environment.ts does', (file) => {
    const text = readFileSync(join(projectRoot, file), 'utf8');
    const used = [...text.matchAll(credentialLike)].map((match) => match[0]);
    expect(used.filter((name) => !names.has(name))).toEqual([]);
  });

  it.each([...manualFiles(), 'sandbox/main.ts', ...filesUnder('contract-tests')])(
    '%s names only the contract settings model/environment.ts names',
    (file) => {
      const known = new Set<string>(Object.values(contractVariables));
      const text = readFileSync(join(projectRoot, file), 'utf8');
      const used = [...text.matchAll(/\bCONTRACT_[A-Z_]*[A-Z]\b/g)].map((match) => match[0]);
      expect(used.filter((name) => !known.has(name))).toEqual([]);
    },
  );

  it('every sample and README or guide block that makes a private client reads all three', () => {
    const blocks = [
      ...manualCodeBlocks().map((block) => block.code),
      ...filesUnder('generated/samples').map((file) => readFileSync(join(projectRoot, file), 'utf8')),
    ].filter((code) => code.includes('createPrivateClient(') || code.includes('createSigningMiddleware('));
    expect(blocks.length).toBeGreaterThan(5);
    for (const code of blocks) {
      for (const name of [
        environmentVariables.apiKey,
        environmentVariables.apiSecret,
        environmentVariables.baseUrl,
      ])
        expect(code, code).toContain(`process.env.${name}`);
    }
  });
});
