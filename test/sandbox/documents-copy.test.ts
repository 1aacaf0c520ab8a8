// An operation costs its YAML: a copy of the documents with two stateless operations more (a
// signed one and a public one), served by an unchanged sandbox, answers each from its document
// after the same pipeline as every call: signature, rate limit, nonce, key, request validation.
// A third, another way to place a limit order, names an existing state change in its
// x-sandbox-state and changes the sandbox's state with no sandbox code either.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../model/document.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { call, callPath, defaultFixture, disabledKey, documentOf, partnerKey, refusalOf } from './helpers.ts';

const fixture = defaultFixture();
const partner = partnerKey(fixture);
const signedPath = '/api/v4/sandbox-proof/clock';
const publicPath = '/api/v4/public/sandbox-proof';
const orderPath = '/api/v4/sandbox-proof/order';
/** The limit order's own file under another operationId and path: its x-sandbox-state included. */
const orderOperation = () =>
  readFileSync(join(projectRoot, 'openapi/paths/createLimitOrder.yaml'), 'utf8')
    .replace('operationId: createLimitOrder', 'operationId: placeProofOrder')
    .replaceAll('/api/v4/order/new', orderPath);

const signedOperation = `post:
  operationId: readProofClock
  summary: Read a clock that only this test's documents know
  description: A stateless operation added to a copy of the documents.
  tags: [Main account]
  x-validation-example: zoneInvalid
  x-rate-limit:
    requests: 3
    windowSeconds: 10
    source: observed-upstream
    description: Three calls per 10 seconds.
  x-retry-safe: true
  x-writes: false
  x-partner-only: false
  x-no-cache: true
  requestBody:
    required: true
    content:
      application/json:
        schema:
          type: object
          required: [request, nonce, zone]
          properties:
            request:
              type: string
              const: ${signedPath}
            nonce:
              $ref: ../components/schemas/Nonce.yaml
            nonceWindow:
              $ref: ../components/schemas/NonceWindow.yaml
            zone:
              type: string
              enum: [UTC, CET]
        examples:
          utc:
            value:
              request: ${signedPath}
              nonce: '1'
              zone: UTC
  responses:
    '200':
      description: The clock.
      content:
        application/json:
          schema:
            type: object
            required: [zone, time]
            properties:
              zone:
                type: string
              time:
                type: integer
          examples:
            utcNoon:
              value: { zone: UTC, time: 1700049600 }
            cetNoon:
              value: { zone: CET, time: 1700046000 }
    '422':
      description: Refused.
      content:
        application/json:
          schema:
            $ref: ../components/schemas/PrivateError.yaml
          examples:
            zoneInvalid:
              value:
                code: 30
                message: Validation failed
                errors:
                  zone: [The zone is not one this clock knows.]
    '401':
      $ref: ../components/responses/Unauthorized.yaml
    '403':
      $ref: ../components/responses/Forbidden.yaml
    '429':
      $ref: ../components/responses/TooManyRequests.yaml
`;

const publicOperation = `get:
  operationId: readProofBanner
  summary: Read a banner that only this test's documents know
  description: A public stateless operation added to a copy of the documents.
  tags: [Health]
  security: []
  x-rate-limit:
    requests: 2000
    windowSeconds: 10
    source: specification
    description: Public limit.
  x-retry-safe: true
  x-writes: false
  x-partner-only: false
  x-no-cache: false
  responses:
    '200':
      description: The banner.
      content:
        application/json:
          schema:
            type: object
            required: [banner]
            properties:
              banner:
                type: string
          examples:
            welcome:
              value: { banner: welcome }
`;

const root = mkdtempSync(join(tmpdir(), 'sandbox-documents-'));
let sandbox: Sandbox;
let now = Date.UTC(2031, 0, 1);

beforeAll(async () => {
  cpSync(join(projectRoot, 'redocly.yaml'), join(root, 'redocly.yaml'));
  cpSync(join(projectRoot, 'openapi'), join(root, 'openapi'), { recursive: true });
  writeFileSync(join(root, 'openapi/paths/readProofClock.yaml'), signedOperation);
  writeFileSync(join(root, 'openapi/paths/readProofBanner.yaml'), publicOperation);
  writeFileSync(join(root, 'openapi/paths/placeProofOrder.yaml'), orderOperation());
  const addPath = (document: string, path: string, file: string) => {
    const text = readFileSync(join(root, document), 'utf8');
    writeFileSync(
      join(root, document),
      text.replace(/^paths:\n/m, `paths:\n  ${path}:\n    $ref: ${file}\n`),
    );
  };
  addPath('openapi/private-v4.yaml', signedPath, 'paths/readProofClock.yaml');
  addPath('openapi/public-v4.yaml', publicPath, 'paths/readProofBanner.yaml');
  addPath('openapi/private-v4.yaml', orderPath, 'paths/placeProofOrder.yaml');
  sandbox = await startSandbox({ port: 0, strict: true, documents: root, clock: () => now });
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
  expect(sandbox?.violations).toEqual([]);
});

describe('a stateless operation added to a copy of the documents', () => {
  it('is answered with its first named success example', async () => {
    const reply = await callPath(sandbox.url, partner, signedPath, { fields: { zone: 'CET' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ zone: 'UTC', time: 1700049600 });
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('goes through the signature check', async () => {
    const reply = await callPath(sandbox.url, { ...partner, secret: 'not-the-secret' }, signedPath, {
      fields: { zone: 'UTC' },
    });
    expect(reply).toMatchObject({ status: 401, body: { code: 10 } });
  });

  it("goes through request validation, answered in its document's x-validation-example", async () => {
    const reply = await callPath(sandbox.url, partner, signedPath, { fields: { zone: 'Mars' } });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ code: 30, message: 'Validation failed' });
    expect(Object.keys(refusalOf(reply).errors)).toEqual(['zone']);
  });

  it('goes through the key check', async () => {
    const reply = await callPath(sandbox.url, disabledKey(fixture), signedPath, { fields: { zone: 'UTC' } });
    expect(reply.status).toBe(403);
  });

  it('goes through its own rate limit, counting only calls carried out', async () => {
    now += 60_000;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await callPath(sandbox.url, partner, signedPath, { fields: { zone: 'UTC' } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    now += 10_000;
    expect((await callPath(sandbox.url, partner, signedPath, { fields: { zone: 'UTC' } })).status).toBe(200);
  });

  it('goes through the nonce check', async () => {
    now += 60_000;
    const reused = { nonce: '5', zone: 'UTC' };
    expect((await callPath(sandbox.url, partner, signedPath, { fields: reused })).status).toBe(429);
  });

  it('a public one is answered without signing, from its example', async () => {
    const response = await fetch(`${sandbox.url}${publicPath}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ banner: 'welcome' });
  });

  it('the operations of the project keep their state transitions', async () => {
    const reply = await call(sandbox.url, partner, 'getMainBalance', { fields: { ticker: 'USDT' } });
    expect(reply.body).toEqual({
      main_balance: fixture.accounts.find((a) => a.id === partner.account)?.mainBalances?.USDT,
    });
  });

  it('one that names an existing state change in x-sandbox-state carries it out', async () => {
    expect(orderOperation()).toContain('x-sandbox-state: placeOrder');
    const before = [...sandbox.state.account(partner.account).orders.keys()];
    // The limit order's own first example, signed afresh.
    const {
      request: _,
      nonce: __,
      ...fields
    } = documentOf('createLimitOrder').requestExamples()[0]?.value ?? {};
    const reply = await callPath(sandbox.url, partner, orderPath, { fields });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const orderId = (reply.body as { orderId: number }).orderId;
    expect(before).not.toContain(orderId);
    expect([...sandbox.state.account(partner.account).orders.keys()]).toContain(orderId);
  });
});
