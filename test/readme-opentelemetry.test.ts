// The hooks guide's OpenTelemetry recipe (docs/guides/hooks.md), run as it is written there against the sandbox, with an
// in-memory span exporter registered as the global tracer provider: one client span per call, a
// retry and its attempts as span events, a refused call's error status, nothing secret in a span.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import { projectRoot } from '../model/document.ts';
import { environmentVariables } from '../model/environment.ts';
import { credentialKey, loadFixture } from '../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../sandbox/server.ts';
import { createPrivateClient, type Hooks } from '../src/index.ts';
import { blockWith } from './manual.ts';

const recipe = blockWith("from '@opentelemetry/api'").code;
// At the project root, where a reader runs it: `txc-api-v4` resolves to the package itself.
const file = join(projectRoot, '.readme-example-opentelemetry.ts');
const key = credentialKey(loadFixture());
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const saved = Object.values(environmentVariables).map((name) => [name, process.env[name]] as const);
let sandbox: Sandbox;

beforeAll(async () => {
  writeFileSync(file, `${recipe}\nexport {};\n`);
  trace.setGlobalTracerProvider(provider);
  sandbox = await startSandbox({ port: 0 });
  process.env[environmentVariables.baseUrl] = sandbox.url;
  process.env[environmentVariables.apiKey] = key.apiKey;
  process.env[environmentVariables.apiSecret] = key.secret;
});

afterAll(async () => {
  rmSync(file, { force: true });
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await sandbox?.close();
  await provider.shutdown();
  trace.disable();
});

const eventNames = (span: ReadableSpan | undefined) => span?.events.map((event) => event.name);

describe('the hooks guide: OpenTelemetry recipe', () => {
  let tracingHooks: () => Hooks;

  it("traces the recipe's call as one client span", async () => {
    ({ tracingHooks } = (await import(file)) as { tracingHooks: () => Hooks });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([operations.getMainBalance.operationId]);
    const [span] = spans;
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': operations.getMainBalance.path,
      'http.response.status_code': 200,
      'txc.attempts': 1,
    });
    expect(eventNames(span)).toEqual(['request']);
  });

  it('a retried call is one span with both attempts; a refused one is an error span', async () => {
    exporter.reset();
    const client = createPrivateClient({
      apiKey: key.apiKey,
      apiSecret: key.secret,
      baseUrl: sandbox.url,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
      hooks: tracingHooks(),
    });
    sandbox.setFaults({ status5xx: 1, operations: [operations.getMainBalance.operationId] });
    expect((await client.POST(operations.getMainBalance.path)).error).toBeUndefined();
    sandbox.setFaults();
    const refused = await client.POST(operations.createFixedInvestment.path, {
      body: { planId: '00000000-0000-4000-8000-000000000000', amount: '1.00' },
    });
    expect(refused.error?.kind).toBe('private-error');
    await client.close();

    const [retried, failed] = exporter.getFinishedSpans();
    expect(eventNames(retried)).toEqual(['request', 'retry', 'request']);
    expect(retried?.events[1]?.attributes).toMatchObject({ attempt: 1, 'error.type': 'server-error' });
    expect(retried?.attributes).toMatchObject({ 'http.response.status_code': 200, 'txc.attempts': 2 });
    expect(retried?.status.code).toBe(SpanStatusCode.UNSET);
    expect(failed?.name).toBe(operations.createFixedInvestment.operationId);
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'private-error' });
    expect(failed?.attributes).toMatchObject({
      'error.type': 'private-error',
      'http.response.status_code': 400,
    });
    // What a span exporter sends holds nothing that signs a request.
    const exported = JSON.stringify(
      [retried, failed].map((span) => [span?.name, span?.attributes, span?.events, span?.status]),
    );
    expect(exported).not.toContain(key.secret);
    expect(exported).not.toContain(key.apiKey);
  });
});
