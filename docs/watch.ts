// The spec-change loop of `npm start`, on a project root (the project, or a test's copy of it):
// serve the docs, a Prism mock per document, the stream mock and the sandbox, watch `openapi/` and
// `asyncapi/` (the code samples derive from them), and on every save lint (Redocly for the OpenAPI
// documents, the AsyncAPI parser for the stream documents), render `generated/` and draft the docs
// pages the save touched (side by side; the stream pages with any save of theirs), then write
// `generated/`, swap the pages in (open pages reload themselves), bring the mocks of changed
// documents up to date (Prism reloads a last-good copy in place, scripts/dev-mock.ts) and restart
// the stream mock and the sandbox when what they read changed. It watches the guides
// (docs/guides/*.md) too: a guide's save rebuilds the guides' pages and nothing else. Every step hashes its inputs and is
// skipped when they are as when it last succeeded (scripts/input-hashes.ts). A save that breaks
// lint or codegen changes nothing that is served: the last good docs and mocks stay up, and the
// log says so, with each problem's file and line, once (the same problems again are not repeated).
//
// node:fs.watch, recursive, on the directory (not its files: editors save by renaming a
// new file over the old one) with a short debounce, since one save fires several events; a save
// during a rebuild queues one more rebuild after it.
import { copyFileSync, existsSync, type FSWatcher, mkdtempSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadApiDocuments, projectRoot } from '../model/document.ts';
import { loadStreamDocuments } from '../model/streams.ts';
import { mockService } from '../scripts/dev-mock.ts';
import { type DevService, startDevProcess } from '../scripts/dev-process.ts';
import { renderGeneratedFiles, writeGeneratedFiles } from '../scripts/generated-files.ts';
import { documentInputs, filesUnder, InputHashes } from '../scripts/input-hashes.ts';
import { PortInUseError } from '../scripts/port-in-use.ts';
import { streamMockPort, streamMockUrl } from '../scripts/stream-mock.ts';
import { discardDocs, draftDocs, lint, lintStreams, streamDocumentsInputs, swapDocs } from './dev-build.ts';
import { guideInputs, guidesDirectory } from './guides.ts';
import { serveStatic } from './serve.ts';
import { cliPage, writeCliPage } from './site.ts';

export interface DevServerOptions {
  /** The project whose documents are watched and built (the project itself, or a copy). */
  root: string;
  docsPort: number;
  /** Port of each document's Prism mock, by the document's name in redocly.yaml. */
  mockPorts: Record<string, number>;
  /** Port of the stream mock (scripts/stream-mock.ts); without it none is run. */
  streamMockPort?: number;
  /** Port of the sandbox; without it no sandbox is run. */
  sandboxPort?: number;
  /** Where the docs are built and served from (default: a temporary directory, removed on close). */
  siteDir?: string;
  debounceMs?: number;
  log?: (line: string) => void;
  /**
   * The variable that sets each server's port, by service name (`docs`, `mock <api>`,
   * `stream mock`, `sandbox`): a port in use is reported as one line naming it.
   */
  portVariables?: Record<string, string>;
  /** Log every line the mocks and the sandbox print (each request); otherwise only their stderr. */
  verbose?: boolean;
}

export interface BuildOutcome {
  ok: boolean;
  /** The lint or codegen problems, one line each (file:line:col where known). */
  problems: string[];
  /** Milliseconds from the first change seen to the docs reloaded and every server answering. */
  ms: number;
  /**
   * The steps that ran, each with the milliseconds from the change to its result being served:
   * `lint`, `lint streams`, `codegen`, `page <document>`, `page streams` (the stream documents'
   * pages, rendered together), `page guides` (every guide's page), `page cli`, `mock <document>`, `stream mock`, `sandbox`.
   */
  done: Record<string, number>;
  /** The steps skipped because their inputs were as when they last succeeded. */
  skipped: string[];
}

export interface DevServer {
  docsUrl: string;
  mockUrls: Record<string, string>;
  /** The stream mock's WebSocket URL (`ws://127.0.0.1:<port>/ws`), when one is run. */
  streamMockUrl?: string;
  sandboxUrl?: string;
  /** The outcome of the next rebuild to finish (the first build's, right after start). */
  nextBuild(): Promise<BuildOutcome>;
  close(): Promise<void>;
}

/** A source file's name (not an editor's swap or backup file), tested on the last segment of a path. */
const watchedSource = /(^|\/)[^./~#][^/~#]*\.(ya?ml|json|ts|md)$/;

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const { root } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  // A directory of its own by default: two npm starts (or one beside `npm run docs` and the browser
  // tests, which build site/) never swap pages under each other.
  const ownSite = options.siteDir === undefined;
  const siteDir = options.siteDir ?? join(mkdtempSync(join(tmpdir(), 'txc-docs-')), 'site');
  const portVariables = options.portVariables ?? {};
  const docs = await serveStatic(siteDir, options.docsPort, {
    liveReload: true,
    ...(portVariables.docs ? { portVariable: portVariables.docs } : {}),
  });
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

  const apis = loadApiDocuments(root);
  const documentFiles = new Set(apis.map((api) => api.file));
  const isSpec = (file: string) => /\.(ya?ml|json)$/.test(file);
  /** Every file a document reads, samples included, and redocly.yaml (its rules and codegen outputs). */
  const documentsInputs = () => [...apis.flatMap((api) => documentInputs(root, api.file)), 'redocly.yaml'];
  /** What codegen, the mocks and the sandbox read of those: not the code samples. */
  const specInputs = () => documentsInputs().filter(isSpec);
  /** What the stream documents' lint, their pages and their part of generated/ are made from. */
  const streamInputs = () => streamDocumentsInputs(root);
  const generatedFiles = () => filesUnder(root, 'generated');
  /** What `txc --help` prints: the client's command line and the operation table it reads. */
  const cliInputs = () => ['generated/operations.ts', ...filesUnder(projectRoot, 'src/cli')];
  const hashes = new InputHashes();
  const snapshot = mkdtempSync(join(tmpdir(), 'txc-dev-documents-'));
  const servers: DevService[] = apis.map((api) => {
    const port = options.mockPorts[api.name];
    if (port === undefined) throw new Error(`no port for the mock of ${api.name}`);
    return mockService({
      root,
      file: api.file,
      otherDocuments: new Set([...documentFiles].filter((file) => file !== api.file)),
      name: `mock ${api.name}`,
      port,
      portVariable: portVariables[`mock ${api.name}`],
      verbose: options.verbose ?? false,
      snapshot,
      env,
      log,
    });
  });
  if (options.streamMockPort !== undefined) {
    const port = options.streamMockPort;
    servers.push({
      name: 'stream mock',
      url: streamMockUrl(port),
      // It reads the stream documents (and the HTTP API's schemas they share) and generated/'s
      // channel facts; while the documents do not load, the folder stands for them.
      inputs: () => {
        try {
          return [
            ...new Set(loadStreamDocuments(root).flatMap((stream) => stream.files)),
            'generated/streams.ts',
          ];
        } catch {
          return [...filesUnder(root, 'asyncapi'), 'generated/streams.ts'];
        }
      },
      start: () =>
        startDevProcess({
          name: 'stream mock',
          args: ['--import', 'tsx', 'scripts/stream-mock-main.ts'],
          cwd: projectRoot,
          env: { ...env, [streamMockPort.variable]: String(port) },
          // Any HTTP answer will do: it answers a request that is not an upgrade with 426.
          readyUrl: `http://127.0.0.1:${port}/`,
          log,
          port: { number: port, variable: portVariables['stream mock'] },
          quiet: !options.verbose,
        }),
    });
  }
  if (options.sandboxPort !== undefined) {
    const url = `http://127.0.0.1:${options.sandboxPort}`;
    servers.push({
      name: 'sandbox',
      url,
      // It reads the documents and generated/, not the code samples.
      inputs: () => [...specInputs(), ...generatedFiles()],
      start: () =>
        startDevProcess({
          name: 'sandbox',
          args: ['--import', 'tsx', 'sandbox/main.ts'],
          cwd: projectRoot,
          env: {
            ...env,
            SANDBOX_PORT: String(options.sandboxPort),
            // The root's documents, which a save changes: not those of the project it runs from.
            SANDBOX_DOCUMENTS: root,
            // The reference pages' Try it panel calls it from the docs' origin.
            SANDBOX_CORS_ORIGINS: `http://127.0.0.1:${options.docsPort},http://localhost:${options.docsPort}`,
            ...(options.verbose ? {} : { SANDBOX_QUIET: '1' }),
          },
          readyUrl: url,
          log,
          port: { number: options.sandboxPort as number, variable: portVariables.sandbox },
          quiet: !options.verbose,
        }),
    });
  }

  let closed = false;
  /** Brings a server up to date: in place when it can, else by a restart. */
  const update = async (server: DevService): Promise<void> => {
    if (server.process && server.refresh) {
      try {
        return await server.refresh(server.process);
      } catch (error) {
        log(`${server.name}: ${(error as Error).message}; restarting it`);
      }
    }
    await restart(server);
  };
  /** Stops a server and starts it again from the documents as they are now. */
  const restart = async (server: DevService): Promise<void> => {
    const previous = server.process;
    delete server.process;
    await previous?.stop();
    if (closed) return;
    server.process = await server.start();
    const started = server.process;
    void started.exited.then((how) => {
      if (server.process === started && !closed)
        log(`${server.name} ended (${how}); it restarts on the next save`);
    });
  };

  let lastProblems = '';
  let builtOnce = false;
  const waiting: ((outcome: BuildOutcome) => void)[] = [];

  /**
   * One rebuild. Each step runs only when the hash of its inputs differs from the one it last
   * succeeded with. Lint, codegen and the changed docs pages run side by side; nothing is served
   * until lint and codegen are clean. Then generated/ is written, the docs swapped in, and the
   * servers whose inputs changed brought up to date.
   */
  async function build(since: number): Promise<BuildOutcome> {
    const elapsed = () => Date.now() - since;
    const seconds = () => (elapsed() / 1000).toFixed(1);
    const done: Record<string, number> = {};
    const skipped: string[] = [];
    const due = (step: string, inputRoot: string, files: string[]) => {
      const hash = hashes.changed(step, inputRoot, files);
      if (hash === undefined) skipped.push(step);
      return hash;
    };
    const lintHash = due('lint', root, documentsInputs());
    const streamLintHash = due('lint streams', root, streamInputs());
    const codegenHash = due('codegen', root, [...specInputs(), ...streamInputs()]);
    const pageHashes = apis.map((api) => ({
      name: api.name,
      hash: due(`page ${api.name}`, root, [...documentInputs(root, api.file), 'redocly.yaml']),
    }));
    // The stream pages are rendered in a moment, in this thread, with every draft: never reused.
    const streamPagesHash = due('page streams', root, streamInputs());
    // So are the guides' pages: Markdown rendered in this thread.
    const guidesHash = due('page guides', root, guideInputs(root));
    const reuse = pageHashes.filter((page) => page.hash === undefined).map((page) => page.name);
    const docsDue = reuse.length < apis.length || streamPagesHash !== undefined || guidesHash !== undefined;
    // Started in this order on purpose: lint and build-docs are processes of their own, spawned
    // before codegen, which runs in this thread, holds it; started after it, build-docs would wait.
    // The cli page is made after codegen has written the operation table it reads.
    const linting = lintHash ? lint(root) : { ok: true, problems: [] };
    const drafting = docsDue
      ? draftDocs(root, siteDir, reuse).then(
          (next) => ({ next }),
          (error: Error) => ({ error }),
        )
      : undefined;
    // The stream documents' lint is the AsyncAPI parser, in this thread too.
    const streamLinting = streamLintHash ? lintStreams(root) : { ok: true, problems: [] };
    const rendering = codegenHash
      ? renderGeneratedFiles(root).then(
          (files) => ({ files }),
          (error: Error) => ({ error }),
        )
      : { files: undefined };
    const [apiLinted, streamLinted, rendered, draft] = await Promise.all([
      linting,
      streamLinting,
      rendering,
      drafting,
    ]);
    const linted = {
      ok: apiLinted.ok && streamLinted.ok,
      problems: [...apiLinted.problems, ...streamLinted.problems],
    };
    const problems = [...linted.problems];
    if ('error' in rendered && linted.ok) problems.push(`codegen: ${rendered.error.message}`);
    if (!linted.ok || 'error' in rendered) {
      if (draft && 'next' in draft) discardDocs(siteDir);
      const text = problems.join('\n');
      if (text === lastProblems) log(`still ${problems.length} problem(s), as above`);
      else for (const problem of problems) log(problem);
      lastProblems = text;
      log(
        builtOnce
          ? `${linted.ok ? 'codegen' : 'lint'} failed: the last good docs and mocks keep serving`
          : `${linted.ok ? 'codegen' : 'lint'} failed: nothing to serve yet; fix the documents and save`,
      );
      return { ok: false, problems, ms: elapsed(), done, skipped };
    }
    if (lastProblems !== '') log('the documents are clean again');
    lastProblems = '';
    if (lintHash) {
      hashes.succeeded('lint', lintHash);
      done.lint = elapsed();
    }
    if (streamLintHash) {
      hashes.succeeded('lint streams', streamLintHash);
      done['lint streams'] = elapsed();
    }
    if (codegenHash && rendered.files) {
      const { written, removed } = await writeGeneratedFiles(root, rendered.files);
      hashes.succeeded('codegen', codegenHash);
      done.codegen = elapsed();
      log(
        `lint and codegen passed in ${seconds()} s${written.length > 0 ? `; wrote ${written.join(', ')}` : ''}${removed.length > 0 ? `; removed ${removed.join(', ')}` : ''}`,
      );
    } else log(`lint passed in ${seconds()} s; codegen skipped, the documents' types are unchanged`);

    if (draft && 'error' in draft) {
      problems.push(`docs: ${draft.error.message}`);
      log(`docs build failed, the last good docs keep serving: ${draft.error.message}`);
    }
    const cliHash = due('page cli', projectRoot, cliInputs());
    if ((draft && 'next' in draft) || (!draft && cliHash)) {
      try {
        if (!draft)
          await draftDocs(
            root,
            siteDir,
            apis.map((api) => api.name),
          );
        // The draft has no cli page: txc's help is asked once, here, after codegen.
        const servedCli = join(siteDir, `${cliPage}.html`);
        if (cliHash || !existsSync(servedCli)) await writeCliPage(`${siteDir}.next`);
        else copyFileSync(servedCli, join(`${siteDir}.next`, `${cliPage}.html`));
        swapDocs(siteDir);
        for (const page of [
          ...pageHashes,
          { name: 'streams', hash: streamPagesHash },
          { name: 'guides', hash: guidesHash },
        ]) {
          if (!page.hash) continue;
          hashes.succeeded(`page ${page.name}`, page.hash);
          done[`page ${page.name}`] = elapsed();
        }
        if (cliHash) {
          hashes.succeeded('page cli', cliHash);
          done['page cli'] = elapsed();
        }
        const pages = docs.reload();
        log(`docs rebuilt in ${seconds()} s${pages > 0 ? `; ${pages} open page(s) reloading` : ''}`);
      } catch (error) {
        discardDocs(siteDir);
        problems.push(`docs: ${(error as Error).message}`);
        log(`docs build failed, the last good docs keep serving: ${(error as Error).message}`);
      }
    }
    const docsRebuilt = Object.keys(done).some((step) => step.startsWith('page '));

    const updating = servers
      .map((server) => ({ server, hash: due(server.name, root, server.inputs()) }))
      .filter(({ server, hash }) => hash !== undefined || server.process === undefined);
    const step = ({ server, hash }: { server: DevService; hash: string | undefined }) =>
      update(server).then(
        () => {
          if (hash) hashes.succeeded(server.name, hash);
          done[server.name] = elapsed();
          log(`${server.name} up to date in ${seconds()} s`);
        },
        (error: Error) =>
          log(
            error instanceof PortInUseError
              ? error.message
              : `${server.name} did not start: ${error.message}`,
          ),
      );
    // What updates in place goes first; a restart (a new process to load) after it.
    const inPlace = updating.filter(({ server }) => server.process !== undefined && server.refresh);
    await Promise.all(inPlace.map(step));
    await Promise.all(updating.filter((entry) => !inPlace.includes(entry)).map(step));
    builtOnce = true;
    const parts = [...(docsRebuilt ? ['docs'] : []), ...updating.map(({ server }) => server.name)];
    log(`up to date in ${seconds()} s: ${parts.length > 0 ? parts.join(', ') : 'nothing served changed'}`);
    return { ok: problems.length === 0, problems, ms: elapsed(), done, skipped };
  }

  const debounceMs = options.debounceMs ?? 100;
  let running: Promise<void> | undefined;
  let pendingSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;

  const runBuilds = async () => {
    while (pendingSince !== undefined && !closed) {
      const since = pendingSince;
      pendingSince = undefined;
      let outcome: BuildOutcome;
      try {
        outcome = await build(since);
      } catch (error) {
        log(`rebuild failed: ${(error as Error).message}`);
        outcome = {
          ok: false,
          problems: [(error as Error).message],
          ms: Date.now() - since,
          done: {},
          skipped: [],
        };
      }
      for (const resolve of waiting.splice(0)) resolve(outcome);
      // A save during the build: let its burst of events settle before building again.
      if (pendingSince !== undefined) await new Promise((resolve) => setTimeout(resolve, debounceMs));
    }
    running = undefined;
  };
  const schedule = (since: number) => {
    pendingSince ??= since;
    if (running) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running ??= runBuilds();
    }, debounceMs);
  };

  // Recursive: a split document keeps its paths and components in directories under openapi/, a
  // stream document its channels under asyncapi/. The code samples derive from the documents:
  // watching the two follows them too. The guides are Markdown files under docs/guides/.
  const watchers: FSWatcher[] = ['openapi', 'asyncapi', guidesDirectory]
    .filter((directory) => existsSync(join(root, directory)))
    .map((directory) =>
      watch(join(root, directory), { recursive: true }, (_event, file) => {
        // Editors' swap and backup files come and go beside the documents: only sources count.
        if (closed || (file !== null && !watchedSource.test(basename(file)))) return;
        if (pendingSince === undefined && builtOnce) log(`\n${directory}/${file ?? ''} changed: rebuilding`);
        schedule(Date.now());
      }),
    );

  schedule(Date.now());

  return {
    docsUrl: docs.url,
    mockUrls: Object.fromEntries(
      servers
        .filter((server) => server.name.startsWith('mock '))
        .map((server) => [server.name.slice(5), server.url]),
    ),
    ...(options.streamMockPort !== undefined && { streamMockUrl: streamMockUrl(options.streamMockPort) }),
    ...(options.sandboxPort !== undefined && { sandboxUrl: `http://127.0.0.1:${options.sandboxPort}` }),
    nextBuild: () => new Promise((resolve) => waiting.push(resolve)),
    async close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      await running;
      await Promise.allSettled(servers.map((server) => server.process?.stop()));
      await docs.close();
      rmSync(snapshot, { recursive: true, force: true });
      if (ownSite) rmSync(join(siteDir, '..'), { recursive: true, force: true });
    },
  };
}
