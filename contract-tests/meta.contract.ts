// The done-when checks, automated: the whole runner (contract-tests/run.ts) is spawned once with
// --target pointing at a tiny local server that carries two faults: it answers every operation
// with its documented success example except one, whose example has a field of the wrong type;
// and it keeps no state (an order placed is never the one listed); and with --stream-target
// pointing at a mutant stream mock whose one update has numbers for strings. The run, writes allowed and
// narrowed by vitest's filters to each operation's accepted call (the check that calls every
// operation) and the stateful run (the rest of the suite runs in the run around this one), must
// fail, and its report must:
// - name the broken operation and its field, and no other operation, for each transport, name
//   the failed check and print the txc and curl reproducers (console and JUnit), the curl one
//   signing exactly what the server received;
// - name a broken link of the stateful run, with its reproducers;
// - in the stream part, name the broken update's channel, check and field, with a websocat line.
// The secret never shows. The run covers every transport itself, so only the first transport's
// project runs it. That a URL target gets no write unless writes are allowed is checked by
// ci-recipe.contract.ts, on the sandbox's own log.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signingHeaders } from '../generated/operations.ts';
import { contractVariables, environmentVariables } from '../model/environment.ts';
import { loadStreamCatalog } from '../model/stream-catalog.ts';
import { type StreamMock, startStreamMock } from '../scripts/stream-mock.ts';
import { cliOperations } from '../src/cli/operations.ts';
import { pickBreakage } from './support/breakage.ts';
import { childEnvironment, type Finished, idsFromExamples, runContract } from './support/child-run.ts';
import { context, model } from './support/context.ts';
import { factsOf, operationIds } from './support/documents.ts';
import { documentLinks } from './support/links.ts';
import { pickUpdateBreakage } from './support/stream-breakage.ts';
import { transportNames } from './support/transport-names.ts';
import { operationsOn } from './support/transport-operations.ts';

/** The operations each transport calls: every one on the first, one of each wire shape on the others. */
const calledOn = Object.fromEntries(
  transportNames.map((transport) => [transport, operationsOn(transport, model)]),
);
// The broken answer is of an operation every transport calls, so each one's report must name it.
const breakage = pickBreakage(
  model,
  operationIds.filter((operationId) =>
    transportNames.every((transport) => calledOn[transport]?.includes(operationId)),
  ),
);
const streamBreakage = pickUpdateBreakage(loadStreamCatalog());

/** Success status and body of every operation, by method and path; the picked one broken. */
const answers = new Map<string, { status: number; body: unknown }>(
  operationIds.map((operationId) => {
    const facts = factsOf(operationId);
    const [status, { examples }] = [...model.model(operationId).responses].find(([code]) => code < 300) ?? [
      200,
      { examples: [] },
    ];
    const body = operationId === breakage.operationId ? breakage.broken : examples[0]?.value;
    return [`${facts.method.toUpperCase()} ${facts.path}`, { status, body }] as const;
  }),
);

/** The failures of the report, each `[transport] name (failed: …)` with its lines below it. */
function failuresOf(output: string): string[] {
  const section = output.slice(output.lastIndexOf('Failed contract checks'));
  return section.split(/\n(?= {2}\[)/).slice(1);
}

describe.skipIf(!context.mock || inject('transport') !== transportNames[0])(
  'a real target that answers one operation wrongly and keeps no state',
  () => {
    let server: Server;
    let url = '';
    const seen: string[] = [];
    /** The signature each body arrived with, by body. */
    const signatures = new Map<string, string>();
    const secret = `meta-secret-${process.pid}`;
    let run: Finished;
    let junit = '';
    let streams: StreamMock | undefined;

    beforeAll(async () => {
      streams = await startStreamMock({ pace: 0.25, outgoing: streamBreakage.outgoing });
      server = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          signatures.set(body, String(request.headers[signingHeaders.Signature.toLowerCase()] ?? ''));
          const key = `${request.method} ${request.url?.split('?')[0]}`;
          seen.push(key);
          // A path with a parameter (`/orderbook/BTC_USDT`) is its operation's template.
          const answer =
            answers.get(key) ??
            [...answers].find(([template]) =>
              new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(key),
            )?.[1];
          response.writeHead(answer?.status ?? 404, { 'content-type': 'application/json' });
          response.end(JSON.stringify(answer?.body ?? { message: 'not found' }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

      // The fake target answers every id alike: the documents' own do. The ids (a market among
      // them, for cancel all) are the documents' examples; writes are allowed for the stateful run.
      const env = childEnvironment({
        [environmentVariables.apiKey]: 'meta-key',
        [environmentVariables.apiSecret]: secret,
        ...idsFromExamples(model),
        [contractVariables.allowWrites]: '1',
        [contractVariables.seed]: '1',
      });
      const junitDirectory = mkdtempSync(join(tmpdir(), 'contract-meta-'));
      const junitFile = join(junitDirectory, 'contract.xml');
      // Each operation's accepted call, on every transport: the one check that calls every
      // operation, and the one the broken answer fails; and the stateful run (the first
      // transport's project holds it), which a target without state fails; and each public
      // channel's subscribe, then an update, which the broken update fails.
      run = await runContract(
        [
          ...['--target', url, '--stream-target', streams.url, '--junit', junitFile],
          ...['contract-tests/operations.contract.ts', 'contract-tests/stateful.contract.ts'],
          'contract-tests/streams.contract.ts',
          ...['-t', 'accepted|stateful links|then an update'],
        ],
        env,
      );
      junit = readFileSync(junitFile, 'utf8');
      rmSync(junitDirectory, { recursive: true, force: true });
    });

    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      await streams?.close();
    });

    it('fails the run, and the report names the operation and the field', () => {
      const { code, output } = run;
      expect(code, output).not.toBe(0);
      const summaries = output.split('Contract summary').slice(1);
      expect(
        summaries.map((summary) => /transport: (\w+)/.exec(summary)?.[1]),
        output,
      ).toEqual([...transportNames]);
      for (const [index, summary] of summaries.entries()) {
        expect(summary, output).toContain(`target: ${url}`);
        const failed = new Map(
          [...summary.matchAll(/^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)/gm)].map((row) => [row[1], Number(row[3])]),
        );
        // The transport's table has a row for each operation it calls, and no other.
        const called = calledOn[transportNames[index] as (typeof transportNames)[number]] ?? [];
        // (The stream part's table, after the last transport's, has rows of channels.)
        const rows = [...failed.keys()].filter((name) =>
          (operationIds as (string | undefined)[]).includes(name),
        );
        expect(rows.sort(), summary).toEqual([...called].sort());
        // Only the broken operation failed; the others passed through the same proxies.
        for (const operationId of called) {
          if (operationId === breakage.operationId)
            expect(failed.get(operationId), summary).toBeGreaterThan(0);
          else expect(failed.get(operationId), summary).toBe(0);
        }
      }
      const failures = failuresOf(output);
      for (const transport of transportNames) {
        const failure = failures.find((entry) =>
          entry.startsWith(`  [${transport}] ${breakage.operationId}`),
        );
        expect(failure, output).toBeDefined();
        expect(failure).toContain(breakage.field);
        // The failure names its check and prints both reproducers, in the console and in JUnit.
        expect(failure).toContain('(failed: response_schema_conformance)');
        const command = cliOperations.find(
          (operation) => operation.facts.operationId === breakage.operationId,
        )?.name;
        expect(failure).toContain(
          `reproduce with txc:\n        ${environmentVariables.baseUrl}='${url}' txc ${command}`,
        );
        expect(failure).toContain('reproduce with curl');
        expect(junit).toContain(`txc ${command}`);
        // The curl form recomputes, from the reader's secret, the very signature the server received.
        const curl = (failure as string)
          .slice((failure as string).indexOf('reproduce with curl'))
          .split('\n')
          .slice(1, 5);
        const script = curl.map((line) => line.trim()).filter((line) => !line.startsWith('curl '));
        expect(script.map((line) => line.split('=')[0])).toEqual(['BODY', 'PAYLOAD', 'SIGNATURE']);
        const recomputed = execFileSync(
          'bash',
          ['-c', `${script.join('\n')}\nprintf '%s' "$BODY"; echo; printf '%s' "$SIGNATURE"`],
          {
            env: { PATH: process.env.PATH, [environmentVariables.apiSecret]: secret },
            encoding: 'utf8',
          },
        ).split('\n');
        expect(signatures.get(recomputed[0] as string)).toBe(recomputed[1]);
        expect(curl.join('\n')).toContain(`"X-TXC-SIGNATURE: $SIGNATURE"`);
      }
      expect(junit).toContain('[response_schema_conformance]');
      expect(junit).toContain('openssl dgst -sha512 -hmac');
      // The secret never appears in the output or the JUnit file.
      expect(output).not.toContain(secret);
      expect(junit).not.toContain(secret);
      // The broken operation reached the server.
      expect(seen).toContain(`POST ${factsOf(breakage.operationId).path}`);
    });

    it('fails the stateful run, naming the broken link, with its reproducers and no secret', () => {
      const { code, output } = run;
      expect(code, output).not.toBe(0);
      const failure = failuresOf(output).find((entry) => entry.includes('[stateful_link]'));
      expect(failure, output).toBeDefined();
      const names = documentLinks(model).map((link) => link.name);
      const broken = /\[stateful_link\] (\w+) -> (\w+) \(link (\w+)\)/.exec(failure as string);
      expect(broken, output).not.toBeNull();
      expect(names).toContain(broken?.[3]);
      expect(failure).toContain('(failed: stateful_link)');
      expect(failure).toContain('reproduce with txc:');
      expect(failure).toContain('reproduce with curl');
      expect(output).not.toContain(secret);
    });

    it('fails the stream part, naming the channel, the check and the field, with a websocat line', () => {
      const { code, output } = run;
      expect(code, output).not.toBe(0);
      const channel = streamBreakage.channel.name;
      const table = output.slice(output.indexOf('Stream summary'));
      expect(table, output).toContain(`Stream summary (target: ${streams?.url})`);
      const failed = new Map(
        [...table.matchAll(/^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)$/gm)].map((row) => [row[1], Number(row[3])]),
      );
      // Only the broken channel failed; the other public channels passed through the same checks.
      expect(failed.get(channel), output).toBeGreaterThan(0);
      expect(
        [...failed].filter(([name, count]) => name !== channel && count > 0),
        output,
      ).toEqual([]);
      const failure = failuresOf(output).find((entry) => entry.startsWith(`  [stream] ${channel}: `));
      expect(failure, output).toBeDefined();
      expect(failure).toContain('(failed: update_matches_schema)');
      expect(failure).toContain(`[update_matches_schema] ${channel} ${streamBreakage.message}: `);
      expect(failure).toContain(streamBreakage.field);
      expect(failure).toContain('reproduce with websocat');
      expect(failure).toMatch(
        new RegExp(
          `printf '%s\\\\n' '\\{"id":\\d+,"method":"\\w+_subscribe".*' \\| websocat -n '${streams?.url}'`,
        ),
      );
      // In the JUnit file too (XML-escaped there).
      expect(junit).toContain(`websocat -n &apos;${streams?.url}&apos;`);
    });
  },
);

describe.skipIf(!context.mock || inject('transport') !== transportNames[0])(
  'a URL target without what it needs',
  () => {
    const bare = (): NodeJS.ProcessEnv => {
      const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
      for (const name of [...Object.values(environmentVariables), ...Object.values(contractVariables)])
        delete env[name];
      delete env[contractVariables.target];
      delete env[contractVariables.allowWrites];
      return env;
    };

    it('stops before vitest with one line naming every missing variable, exit code 2', async () => {
      const { code, output } = await runContract(['--target', 'http://127.0.0.1:9'], bare());
      expect(code).toBe(2);
      const lines = output.trim().split('\n');
      expect(lines, output).toHaveLength(1);
      for (const name of [
        environmentVariables.apiKey,
        environmentVariables.apiSecret,
        contractVariables.planId,
        contractVariables.ticker,
      ])
        expect(lines[0]).toContain(name);
      // Writes are off: no market is needed. Vitest never started: no stack, no empty summary.
      expect(lines[0]).not.toContain(contractVariables.market);
      expect(output).not.toMatch(/No test files|Contract summary|\n\s+at /);
    });

    it('asks for a market too when writes are allowed, and only for what is missing', async () => {
      const env = {
        ...bare(),
        [environmentVariables.apiKey]: 'k',
        [environmentVariables.apiSecret]: 's',
        [contractVariables.planId]: idsFromExamples(model)[contractVariables.planId],
        [contractVariables.allowWrites]: '1',
      };
      const { code, output } = await runContract(['--target', 'http://127.0.0.1:9'], env);
      expect(code).toBe(2);
      expect(output.trim()).toBe(
        'contract: the target http://127.0.0.1:9 needs CONTRACT_TICKER (an asset the key holds), CONTRACT_MARKET (a market it lists) in the environment (see docs/guides/contract-tests.md)',
      );
    });

    it('refuses a stream target that is not a ws(s) URL, in one line', async () => {
      const { code, output } = await runContract(['--stream-target', 'http://127.0.0.1:9/ws'], bare());
      expect(code).toBe(2);
      expect(output.trim()).toBe('contract: --stream-target must be a ws(s) URL; got http://127.0.0.1:9/ws');
    });

    it('refuses a target that is neither mock, a name nor a URL, in one line', async () => {
      const { code, output } = await runContract(['--target', 'staging'], bare());
      expect(code).toBe(2);
      expect(output.trim()).toMatch(
        /^contract: --target must be "mock", an http\(s\) URL or one of: sandbox; got staging$/,
      );
    });
  },
);
