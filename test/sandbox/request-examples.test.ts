// The default fixture accepts every request example of every operation with the key it prints,
// so that a contract run's "a schema-valid call is accepted" checks pass against the sandbox.
// Each operation gets a fresh sandbox: cancelling an order and changing it cannot both succeed
// on one. An example that names the client order id another operation's example places (an
// order cancelled or changed by that id) has that example sent first (model/model.ts placedBy). The examples are dated November
// 2023 and the order history refuses a window that starts more than six months back, so the
// sandbox's clock is set to their time, and moved a minute between calls (the flex history
// allows few calls per window).
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import { documentModel, placedBy } from '../../model/model.ts';
import { credentialKey } from '../../sandbox/fixture.ts';
import { startSandbox } from '../../sandbox/server.ts';
import {
  call,
  defaultFixture,
  documentOf,
  get,
  operations,
  refusedWhileSeeded,
  withoutCollateralSeeds,
} from './helpers.ts';

const examplesTime = Date.UTC(2023, 10, 15, 12);
const model = documentModel();

const fieldsOf = (operationId: OperationId, name: string) => {
  const example = documentOf(operationId)
    .requestExamples()
    .find((candidate) => candidate.name === name);
  if (!example) throw new Error(`${operationId} has no request example ${name}`);
  const { request: _, nonce: __, ...fields } = example.value;
  return fields as Record<string, unknown>;
};

/**
 * A fiat-gateway call's token, issued by the sandbox through the operation whose answer links to
 * it with `x-stateful` `gatewayToken` (a pointer into that answer).
 */
async function gatewayTokenFor(
  url: string,
  key: { apiKey: string; secret: string },
  operationId: OperationId,
) {
  for (const source of Object.keys(operations) as OperationId[]) {
    const responses = documentOf(source).object.responses as Record<
      string,
      { links?: Record<string, unknown> }
    >;
    for (const response of Object.values(responses ?? {})) {
      for (const link of Object.values(response.links ?? {}) as Record<string, unknown>[]) {
        const expression = (link['x-stateful'] as { gatewayToken?: string } | undefined)?.gatewayToken;
        if (link.operationId !== operationId || !expression) continue;
        const reply = await call(url, key, source);
        let value: unknown = reply.body;
        for (const part of expression.replace(/^\$response\.body#\//, '').split('/'))
          value = (value as Record<string, unknown> | undefined)?.[part];
        return String(value);
      }
    }
  }
  throw new Error(`${operationId}: no link says where its gateway token comes from`);
}

describe('every request example, sent with the printed key', () => {
  const ids = (Object.keys(operations) as OperationId[]).sort();
  it.each(ids)('%s: each accepted', async (operationId) => {
    let fixture = defaultFixture();
    const key = credentialKey(fixture);
    if (refusedWhileSeeded(model, operationId, fixture))
      fixture = withoutCollateralSeeds(fixture, key.account);
    let now = examplesTime;
    const sandbox = await startSandbox({ port: 0, strict: true, fixture, clock: () => now });
    try {
      if (operations[operationId].auth === 'none') {
        const reply = await get(sandbox.url, operationId);
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return;
      }
      const examples = documentOf(operationId).requestExamples();
      expect(examples.length).toBeGreaterThan(0);
      const placed = new Set<string>();
      for (const { name } of examples) {
        now += 60_000;
        const fields = fieldsOf(operationId, name);
        const first = placedBy(model, operationId, fields);
        if (first && !placed.has(first.operationId)) {
          placed.add(first.operationId);
          const [example] = first.requestExamples;
          const sent = await call(sandbox.url, key, first.operationId as OperationId, {
            fields: fieldsOf(first.operationId as OperationId, example?.name ?? ''),
          });
          expect(sent.status, `${first.operationId} first`).toBe(200);
        }
        // A window-mode nonce is a millisecond timestamp near the sandbox's clock.
        if (fields.nonceWindow === true) fields.nonce = String(now);
        const facts = operations[operationId] as { auth: string; path: string; tokenHeader?: string };
        // A fiat-gateway call goes unsigned, with a token the sandbox issued.
        const reply =
          facts.auth === 'gateway-token'
            ? await fetch(`${sandbox.url}${facts.path}`, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  [facts.tokenHeader ?? 'authorization']: await gatewayTokenFor(
                    sandbox.url,
                    key,
                    operationId,
                  ),
                },
                body: JSON.stringify(fields),
              }).then(async (response) => ({ status: response.status, body: await response.json() }))
            : await call(sandbox.url, key, operationId, { fields });
        expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBeGreaterThanOrEqual(200);
        expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
      }
    } finally {
      await sandbox.close();
      expect(sandbox.violations).toEqual([]);
    }
  });
});
