// The signing recipes of docs/recipes/ (curl with openssl, Python's hmac, plain JavaScript), run
// as a reader runs them: a child process with the three variables set, against a sandbox that
// verifies every signature. Each recipe signs, one process a call, the operations whose first
// named request examples together hold every kind of JSON value (for each kind, a different
// operation per recipe where there are enough): what a recipe can get wrong is how it writes a
// body and a path into what it signs, not which operation it calls; that every operation's
// signature is accepted is the contract suite's, through the client, on the same sandbox. The
// sandbox must have accepted each call. With a wrong secret it refuses. (At 120 signed
// operations, one process for each was the second slowest file of the suite.)
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipes } from '../../docs/recipes.ts';
import { operations, signedBodyFields } from '../../generated/operations.ts';
import { projectRoot } from '../../model/document.ts';
import { environmentVariables } from '../../model/environment.ts';
import { documentModel, placedBy } from '../../model/model.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { runProgram } from '../../scripts/run-node.ts';
import { refusedWhileSeeded, withoutCollateralSeeds } from '../sandbox/helpers.ts';

const key = credentialKey(loadFixture());
const model = documentModel();
let sandbox: Sandbox;
/**
 * A second sandbox whose account holds no seeded positions or conditional orders: an operation the
 * service refuses while it holds them (x-refused-while, a leverage change) is sent there.
 */
let unseeded: Sandbox;
/** The sandboxes' log: one `operationId status` line per request. */
const answered: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, log: (line) => answered.push(line) });
  unseeded = await startSandbox({
    port: 0,
    fixture: withoutCollateralSeeds(loadFixture(), key.account),
    log: (line) => answered.push(line),
  });
});
afterAll(async () => {
  await sandbox?.close();
  await unseeded?.close();
});

const signed = Object.values(operations).filter((facts) => facts.auth === 'signed');
const signedFields = new Set<string>(signedBodyFields);

/** The body fields of an operation's first named example, without the ones a recipe adds. */
function exampleFields(operationId: string): Record<string, unknown> {
  const [example] = model.operation(operationId).requestExamples;
  const value = (example?.value ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(value).filter(([field]) => !signedFields.has(field)));
}

function runRecipe(
  recipe: (typeof recipes)[number],
  path: string,
  fields: object,
  secret = key.secret,
  target: Sandbox = sandbox,
) {
  const command = recipe.command === 'node' ? process.execPath : recipe.command;
  return runProgram(command, [join(projectRoot, recipe.file), path, JSON.stringify(fields)], {
    env: {
      PATH: process.env.PATH ?? '',
      [environmentVariables.baseUrl]: target.url,
      [environmentVariables.apiKey]: key.apiKey,
      [environmentVariables.apiSecret]: secret,
    },
  });
}

describe('signing recipes against the sandbox', () => {
  it('have the three recipes, and signed operations to sign', () => {
    expect(signed.length).toBeGreaterThan(0);
    expect(recipes.map((recipe) => recipe.command)).toEqual(['sh', 'python3', 'node']);
  });

  const kinds = (value: unknown): string[] =>
    Array.isArray(value)
      ? ['array', ...value.flatMap(kinds)]
      : value !== null && typeof value === 'object'
        ? ['object', ...Object.values(value).flatMap(kinds)]
        : [typeof value];
  const allKinds = ['array', 'boolean', 'number', 'object', 'string'];
  /**
   * The operations a recipe signs: for each kind of JSON value, an operation whose example holds
   * one, the recipe's own among those that do (the first, second or third, in turn), without
   * repeats.
   */
  const share = (recipe: (typeof recipes)[number]) => {
    const place = recipes.indexOf(recipe);
    const picked = allKinds.flatMap((kind) => {
      const holding = signed.filter((facts) => kinds(exampleFields(facts.operationId)).includes(kind));
      return holding.length > 0 ? [holding[place % holding.length] as (typeof signed)[number]] : [];
    });
    return [...new Set(picked)];
  };

  it('each recipe signs bodies with every kind of JSON value, each recipe other operations', () => {
    for (const recipe of recipes) {
      const seen = new Set(share(recipe).flatMap((facts) => kinds(exampleFields(facts.operationId))));
      expect([...seen].sort(), recipe.title).toEqual(expect.arrayContaining(allKinds));
    }
    const [first, second] = recipes.map(share);
    expect(first).not.toEqual(second);
  });

  for (const recipe of recipes) {
    it(`${recipe.title}: the sandbox accepts its signature for its share of the signed operations`, async () => {
      for (const facts of share(recipe)) {
        // From the fixture's state each time (nonces kept): an example names the order it
        // cancels or changes, which an earlier operation's example may have spent.
        const target = refusedWhileSeeded(model, facts.operationId, loadFixture()) ? unseeded : sandbox;
        target.reset();
        const fields = exampleFields(facts.operationId);
        const first = placedBy(model, facts.operationId, fields);
        if (first)
          expect(
            (await runRecipe(recipe, first.path, exampleFields(first.operationId), key.secret, target)).code,
          ).toBe(0);
        const before = answered.length;
        const run = await runRecipe(recipe, facts.path, fields, key.secret, target);
        expect(answered.slice(before), facts.operationId).toEqual([
          expect.stringMatching(new RegExp(`^${facts.operationId} 2\\d\\d$`)),
        ]);
        expect(run.code, run.stderr).toBe(0);
        expect(() => JSON.parse(run.stdout)).not.toThrow();
        expect(run.stdout + run.stderr).not.toContain(key.secret);
      }
    });

    it(`${recipe.title}: with a wrong secret the sandbox refuses it (401) and the recipe fails`, async () => {
      const [facts] = signed;
      if (!facts) throw new Error('no signed operation');
      const before = answered.length;
      const run = await runRecipe(recipe, facts.path, exampleFields(facts.operationId), `${key.secret}x`);
      expect(answered.slice(before)).toEqual([`${facts.operationId} 401`]);
      expect(run.code).not.toBe(0);
    });
  }
});
