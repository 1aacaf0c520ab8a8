// The signing recipes of docs/recipes/: a signed private call without the package, in the tools
// most readers of an exchange's docs start with. The site shows each file as it is
// (docs/site.ts), and `npm test` runs each against the sandbox (test/docs/recipes.test.ts).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { operations, signedBodyFields } from '../generated/operations.ts';
import { documentModel } from '../model/model.ts';
import { projectRoot } from './samples.ts';

export interface SigningRecipe {
  /** The anchor of its section on the signing page. */
  id: string;
  title: string;
  /** Relative to the project root. */
  file: string;
  /** The program that runs it. */
  command: 'sh' | 'python3' | 'node';
}

export const recipes: readonly SigningRecipe[] = [
  {
    id: 'curl',
    title: 'curl and openssl',
    file: 'docs/recipes/sign.sh',
    command: 'sh',
  },
  {
    id: 'python',
    title: "Python's hmac",
    file: 'docs/recipes/sign.py',
    command: 'python3',
  },
  {
    id: 'javascript',
    title: 'Plain JavaScript (Web Crypto and fetch)',
    file: 'docs/recipes/sign.mjs',
    command: 'node',
  },
];

/** How a reader runs a recipe: the first signed operation that changes nothing, with its example's fields. */
export function recipeUsage(recipe: SigningRecipe): string {
  const facts = Object.values(operations).find(
    (operation) => operation.auth === 'signed' && !operation.writes,
  );
  if (!facts) return `${recipe.command} ${basename(recipe.file)} PATH '{}'`;
  const [example] = documentModel().operation(facts.operationId).requestExamples;
  const signed = new Set<string>(signedBodyFields);
  const fields = Object.fromEntries(
    Object.entries((example?.value ?? {}) as Record<string, unknown>).filter(([field]) => !signed.has(field)),
  );
  return `${recipe.command} ${basename(recipe.file)} ${facts.path} '${JSON.stringify(fields)}'`;
}

export const recipeSource = (recipe: SigningRecipe, root = projectRoot): string =>
  readFileSync(join(root, recipe.file), 'utf8');
