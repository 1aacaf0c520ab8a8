// Target selection. The suite always talks to Prism: a mock of each document by default, or a
// validating proxy (`prism proxy --errors`) in front of a real deployment, so every request and
// every response is checked against the documents either way.
//
//   CONTRACT_TARGET unset or `mock`  Prism mocks (Prefer-driven checks run)
//   CONTRACT_TARGET=<http(s) url>    a deployment behind Prism proxies; read-only operations only
//                                    unless CONTRACT_ALLOW_WRITES=1; credentials TXC_API_KEY and
//                                    TXC_API_SECRET, the ids it holds in CONTRACT_* (variables.ts)
//   CONTRACT_TARGET=<name>           a named local server from `namedTargets` below
//
// The stream part's target (the stream mock, the sandbox's /ws or CONTRACT_STREAM_TARGET) is
// started beside it: stream-target.ts.

import { contractVariables } from '../../model/environment.ts';
import type { ApiName } from './documents.ts';
import { documentFiles } from './documents.ts';
import { type PrismServer, startPrism } from './prism.ts';
import { type StreamContext, startStreamTarget } from './stream-target.ts';
import {
  credentialsFromEnvironment,
  describeTarget,
  isTargetName,
  knownFromEnvironment,
  type TargetName,
  targetProblem,
} from './variables.ts';

export interface ContractContext {
  /** What CONTRACT_TARGET said, for the report (a URL is shown without credentials). */
  target: string;
  /** True when Prism mocks answer; false when a real server sits behind Prism proxies. */
  mock: boolean;
  /** Whether operations that write (see documents.ts `writeOperations`) may be called. */
  allowWrites: boolean;
  /** Where the suite sends the calls of each API: always a Prism; only the APIs the run started. */
  urls: Partial<Record<ApiName, string>>;
  /** Credentials of a local target that brings its own; never printed. */
  credentials?: { apiKey: string; apiSecret: string };
  /** Field values that exist on the target (a plan it knows), put into valid bodies. */
  known?: Record<string, unknown>;
  /** Calls that make the target answer a named error example (the sandbox knows its state). */
  examples?: ExampleCall[];
  /** The stream part's target (stream-target.ts); none in a run of the suite's checks of itself. */
  stream?: StreamContext;
}

/** A signed call that makes a target answer one named error example of an operation. */
export interface ExampleCall {
  operationId: string;
  example: string;
  fields: Record<string, unknown>;
  credentials: { apiKey: string; apiSecret: string };
}

/** A server the Prism proxies forward to. */
export interface Upstream {
  url: string;
  /** A disposable local server may take writes; a deployment never does by default. */
  allowWrites: boolean;
  /** Test credentials a local server brings along (they win over TXC_API_KEY/TXC_API_SECRET). */
  credentials?: { apiKey: string; apiSecret: string };
  /** Field values that exist on this server, used instead of the documents' example values. */
  known?: Record<string, unknown>;
  examples?: ExampleCall[];
  close(): Promise<void>;
}

/**
 * Local servers selectable by name. `sandbox` is the local exchange of sandbox/ (its own
 * module tree): loaded only when selected, through computed paths, so the suite has no
 * static dependency on it. It brings its own test credentials (the fixture's printed key);
 * The environment's TXC_* credentials and CONTRACT_* ids are not used: they may name a deployment
 * (txc reads the same names), and `npm test` must not send them to a local server.
 */
type SandboxModule = {
  startSandbox(options: {
    port: number;
    log?: (line: string) => void;
  }): Promise<{ url: string; close(): Promise<void> }>;
};
type FixtureModule = {
  credentialKey(fixture: unknown): { apiKey: string; secret: string };
  loadFixture(): { plans?: { id: string; status: string }[] };
};
type RecipesModule = {
  exampleRecipes(fixture: unknown): {
    operationId: string;
    example: string;
    fields: Record<string, unknown>;
    key: { apiKey: string; secret: string };
  }[];
};

const namedTargets: Record<TargetName, () => Promise<Upstream>> = {
  sandbox: async () => {
    // A module that does not load, or lacks what is used of it, stops the run naming it: an empty
    // list of examples would skip sandbox-examples.contract.ts without a word.
    const load = (path: string) =>
      import(path).catch((cause: unknown) => {
        throw new Error(`CONTRACT_TARGET=sandbox: ${path.slice('../../'.length)} does not load`, { cause });
      });
    const [server, fixture, recipes] = (await Promise.all(
      ['../../sandbox/server.ts', '../../sandbox/fixture.ts', '../../sandbox/example-recipes.ts'].map(load),
    )) as [Partial<SandboxModule>, Partial<FixtureModule>, Partial<RecipesModule>];
    if (typeof server.startSandbox !== 'function') {
      throw new Error('CONTRACT_TARGET=sandbox: sandbox/server.ts does not export startSandbox');
    }
    if (typeof fixture.loadFixture !== 'function' || typeof fixture.credentialKey !== 'function') {
      throw new Error(
        'CONTRACT_TARGET=sandbox: sandbox/fixture.ts does not export loadFixture and credentialKey',
      );
    }
    if (typeof recipes.exampleRecipes !== 'function') {
      throw new Error('CONTRACT_TARGET=sandbox: sandbox/example-recipes.ts does not export exampleRecipes');
    }
    const state = fixture.loadFixture();
    const key = fixture.credentialKey(state);
    const examples = recipes.exampleRecipes(state);
    if (examples.length === 0) {
      throw new Error('CONTRACT_TARGET=sandbox: sandbox/example-recipes.ts gives no example to request');
    }
    const sandbox = await server.startSandbox({ port: 0, log: () => {} });
    return {
      url: sandbox.url,
      allowWrites: true,
      close: () => sandbox.close(),
      credentials: { apiKey: key.apiKey, apiSecret: key.secret },
      // No plan of its own in place of the examples': the fixture holds the plans they name,
      // fixed and flex, and one fixed plan in every `plan` field would refuse the flex calls.
      examples: examples.map(({ operationId, example, fields, key: signer }) => ({
        operationId,
        example,
        fields,
        credentials: { apiKey: signer.apiKey, apiSecret: signer.secret },
      })),
    };
  },
};

/**
 * The target the environment names, not started, without a server to call (`urls` is empty): for
 * a run of the suite's checks of itself, which ask only whether it is the mocks.
 */
export function namedTarget(env: NodeJS.ProcessEnv = process.env): ContractContext {
  const target = env[contractVariables.target]?.trim() || 'mock';
  const mock = target === 'mock';
  return {
    target: describeTarget(target),
    mock,
    allowWrites: mock || env[contractVariables.allowWrites] === '1',
    urls: {},
  };
}

/**
 * The documents whose Prisms a run starts: those CONTRACT_APIS names (`--api`), for a run filtered
 * to their operations, or all. A name that is no document stops the run naming the documents.
 */
function startedApis(env: NodeJS.ProcessEnv): [string, string][] {
  const named = env[contractVariables.apis]
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!named?.length) return Object.entries(documentFiles);
  const unknown = named.filter((name) => !(name in documentFiles));
  if (unknown.length > 0) {
    throw new Error(
      `${contractVariables.apis}: no document named ${unknown.join(', ')} (the documents: ${Object.keys(documentFiles).join(', ')})`,
    );
  }
  return Object.entries(documentFiles).filter(([api]) => named.includes(api));
}

export async function startTarget(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ context: ContractContext; close(): Promise<void> }> {
  const target = env[contractVariables.target]?.trim() || 'mock';
  const started: PrismServer[] = [];
  let upstream: Upstream | undefined;
  let streams: { close(): Promise<void> } | undefined;
  const close = async () => {
    await Promise.allSettled([...started.map((server) => server.stop()), streams?.close()]);
    await upstream?.close();
  };
  try {
    if (target !== 'mock') {
      const problem = targetProblem(target, env);
      if (problem) throw new Error(problem);
      const named = isTargetName(target) ? namedTargets[target] : undefined;
      upstream = named
        ? await named()
        : { url: target, allowWrites: false, known: knownFromEnvironment(env), close: async () => {} };
    }
    const fromEnvironment = credentialsFromEnvironment(env);
    const redact = [
      fromEnvironment?.apiKey ?? '',
      fromEnvironment?.apiSecret ?? '',
      upstream?.credentials?.apiSecret ?? '',
    ];
    const entries = await Promise.all(
      startedApis(env).map(async ([api, document]) => {
        const server = await startPrism(
          upstream
            ? { mode: 'proxy', document, upstream: upstream.url, redact }
            : { mode: 'mock', document, redact },
        );
        started.push(server);
        return [api, server.url] as const;
      }),
    );
    const allowWrites = upstream ? upstream.allowWrites || env[contractVariables.allowWrites] === '1' : true;
    const stream = await startStreamTarget(target, upstream?.url, env, upstream?.credentials);
    streams = stream;
    return {
      context: {
        target: describeTarget(target),
        mock: !upstream,
        allowWrites,
        urls: Object.fromEntries(entries),
        ...(upstream?.credentials ? { credentials: upstream.credentials } : {}),
        ...(upstream?.known ? { known: upstream.known } : {}),
        ...(upstream?.examples ? { examples: upstream.examples } : {}),
        stream: stream.context,
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
