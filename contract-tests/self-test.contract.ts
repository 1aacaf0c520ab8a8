// The suite can fail: the same check functions the suite runs, pointed at a deliberately
// broken client (a transport wrapper that drops the signature header, or re-signs the body with a
// nonce that is neither digits nor an integer) and at a broken temporary copy of a document (an example that breaks its
// schema, checked directly and served by a second Prism). The real client and documents are
// never edited.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingHeaders } from '../generated/operations.ts';
import { projectRoot } from '../model/document.ts';
import { arrayAt } from '../model/json.ts';
import { createSigner } from '../src/signing.ts';
import { reproducibleFailures } from './cases.ts';
import { documentsWithBrokenExample, pickBreakage, withAbsoluteFileRefs } from './support/breakage.ts';
import { checkAccepted, checkStatus } from './support/checks.ts';
import { clientsFor, credentials, mutations, sentHeader, type Tap } from './support/clients.ts';
import { context, model } from './support/context.ts';
import {
  callerBody,
  createModel,
  documentFiles,
  exampleProblems,
  factsOf,
  type OperationId,
  operationIds,
  writeOperations,
} from './support/documents.ts';
import { type PrismServer, startPrism } from './support/prism.ts';
import { sampledOperations } from './support/wire-shapes.ts';

// The client mutants break its signing, one code path for every operation: what can differ between
// operations is the request's shape on the wire, so one signed operation of each shape
// (support/wire-shapes.ts) shows the suite catches them. The accepted check itself runs for every
// operation in operations.contract.ts, whose coverage checks hold it to every operation.
const sample = sampledOperations(model);
const signedOperations = operationIds.filter(
  (operationId) => factsOf(operationId).auth === 'signed' && sample.has(operationId),
);

describe.skipIf(!context.mock)('the suite catches a broken client', () => {
  it.for(signedOperations)(
    `a client that drops ${signingHeaders.Signature} fails %s`,
    async (operationId) => {
      const broken = clientsFor(context, { mutate: mutations.drop('Signature') });
      const { problems } = await checkAccepted(model, broken, operationId);
      expect(problems.join('\n')).toMatch(
        new RegExp(`^\\[positive_data_acceptance\\] ${operationId}: the call was not accepted: unauthorized`),
      );
      // The same check passes for the real client, so it is the breakage that is caught.
      expect((await checkAccepted(model, clientsFor(context), operationId)).problems).toEqual([]);
    },
  );

  // The documents accept a nonce of digits or an integer: a nonce with a letter is neither.
  it.for(signedOperations)('a client that sends a nonce with a letter fails %s', async (operationId) => {
    const { apiSecret } = credentials(context);
    const rewrite = mutations.rewriteBody(apiSecret, (body) => ({ ...body, nonce: `${body.nonce}n` }));
    const tap: Tap = { mutate: rewrite };
    const { problems } = await checkAccepted(model, clientsFor(context, tap), operationId);
    // The named check fails, on the nonce: the mock refuses the body, naming request.body.nonce
    // (the reproducer that ends every failure holds the body, so "nonce" alone proves nothing).
    expect(problems[0]).toMatch(
      new RegExp(
        `^\\[positive_data_acceptance\\] ${operationId}: the call was not accepted: .*\\[Prism: (.*; )?request\\.body\\.nonce: `,
      ),
    );
    // The same check passes for the real client, so it is the breakage that is caught.
    expect((await checkAccepted(model, clientsFor(context), operationId)).problems).toEqual([]);
    // The rewritten request was correctly signed: only the nonce's form is wrong.
    const body = tap.sent?.body ?? '';
    expect(JSON.parse(body).nonce).toMatch(/^[0-9]+n$/);
    expect(sentHeader(tap.sent, signingHeaders.Signature)).toBe(
      (await createSigner(apiSecret)(body)).signature,
    );
  });
});

describe.skipIf(!context.mock)('the suite catches a document whose example breaks its schema', () => {
  const breakage = pickBreakage(model);
  const brokenDocuments = documentsWithBrokenExample(model.documents, model, breakage);
  let directory: string | undefined;
  let prism: PrismServer | undefined;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'contract-broken-'));
    const { facts } = model.model(breakage.operationId);
    const file = join(directory, `${facts.api}.json`);
    const original = resolve(projectRoot, documentFiles[facts.api] as string);
    writeFileSync(file, JSON.stringify(withAbsoluteFileRefs(brokenDocuments[facts.api], dirname(original))));
    prism = await startPrism({ mode: 'mock', document: file });
  });

  afterAll(async () => {
    await prism?.stop();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('every example of the real documents is valid against its schema', () => {
    expect(exampleProblems(model)).toEqual([]);
  });

  it('the example check names the operation and the field of the broken example', () => {
    const problems = exampleProblems(createModel(brokenDocuments));
    expect(problems.length).toBeGreaterThan(0);
    expect(
      problems.every((problem) => problem.startsWith(`${breakage.operationId} ${breakage.status}`)),
    ).toBe(true);
    expect(problems.join('\n')).toContain(breakage.field);
  });

  it('a Prism serving the broken copy fails the status check, naming the field', async () => {
    const { facts } = model.model(breakage.operationId);
    const brokenTarget = { ...context, urls: { ...context.urls, [facts.api]: prism?.url as string } };
    const { problems } = await checkStatus(
      model,
      brokenTarget,
      breakage.operationId,
      breakage.status,
      breakage.example,
    );
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toContain(breakage.field);
    // The real documents pass the same check.
    expect(
      (await checkStatus(model, context, breakage.operationId, breakage.status, breakage.example)).problems,
    ).toEqual([]);
  });
});

// On a target that keeps state, "accepted" takes a refusal that is exactly an error example with
// x-refused-while (the account is in the state it names), and no other refusal.
describe.skipIf(context.mock || !context.allowWrites)(
  'accepted on a stateful target: x-refused-while',
  () => {
    const exampleBody = (operationId: OperationId) =>
      callerBody(model.model(operationId).requestExamples[0]?.value) as Record<string, unknown>;

    /** An operation's error examples that name a state of the account (x-refused-while). */
    const refusedWhileOf = (operationId: OperationId) =>
      [...model.model(operationId).responses.values()]
        .flatMap((response) => response.examples)
        .filter((example) => example.refusedWhile !== undefined);
    const tagOf = (operationId: OperationId) => arrayAt(model.model(operationId).operation, 'tags')[0];

    it('a refusal whose example has x-refused-while passes; without the flag it fails', async () => {
      // Picked by the documents' facts, not by name: a write with an error example that names a
      // state (x-refused-while), after a write of its tag that puts the account in a state (one
      // whose own refusals name none, accepted here: an order placed, a position opened), called
      // with its first example, and answered with exactly that example.
      let found: { operationId: OperationId; body: Record<string, unknown>; opener: OperationId } | undefined;
      for (const operationId of writeOperations.filter((candidate) => refusedWhileOf(candidate).length > 0)) {
        const openers = writeOperations.filter(
          (candidate) => tagOf(candidate) === tagOf(operationId) && refusedWhileOf(candidate).length === 0,
        );
        let opener: OperationId | undefined;
        for (const candidate of openers) {
          const opened = await checkAccepted(model, clientsFor(context), candidate, exampleBody(candidate), {
            context,
          });
          if (opened.problems.length === 0) {
            opener = candidate;
            break;
          }
        }
        if (!opener) continue;
        const body = exampleBody(operationId);
        const refused = await checkAccepted(model, clientsFor(context), operationId, body, {
          context,
          refusedWhile: true,
        });
        if (!refused.refusedWhile) continue;
        expect(refused.problems).toEqual([]);
        expect(refusedWhileOf(operationId).map((example) => example.name)).toContain(
          refused.refusedWhile.name,
        );
        expect(refused.outcome.response?.status).toBe(refused.refusedWhile.status);
        found = { operationId, body, opener };
        break;
      }
      if (!found) throw new Error('no write of the documents is refused as an x-refused-while example says');
      const strict = await checkAccepted(model, clientsFor(context), found.operationId, found.body, {
        context,
      });
      expect(strict.problems.join('\n')).toMatch(
        new RegExp(`^\\[positive_data_acceptance\\] ${found.operationId}`),
      );
    });

    it('a refusal whose example has no x-refused-while still fails', async () => {
      // A write whose request, with the fields an example's x-caused-by names, any server refuses
      // as that example says, and the example names no state of the account.
      const [operationId, failure] =
        writeOperations
          .flatMap((candidate) =>
            reproducibleFailures(model, candidate).map((found) => [candidate, found] as const),
          )
          .find(([candidate, found]) => {
            const examples = [...model.model(candidate).responses.values()].flatMap((r) => r.examples);
            return examples.some(
              (example) => example.name === found.example && example.refusedWhile === undefined,
            );
          }) ?? [];
      if (!operationId || !failure) throw new Error('no write documents a refusal any server gives');
      const { problems, refusedWhile } = await checkAccepted(
        model,
        clientsFor(context),
        operationId,
        failure.body,
        { context, refusedWhile: true },
      );
      expect(refusedWhile).toBeUndefined();
      expect(problems.join('\n')).toMatch(new RegExp(`^\\[positive_data_acceptance\\] ${operationId}`));
    });
  },
);
