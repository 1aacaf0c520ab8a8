// The spec-change loop of `npm start`, on a project root (the project, or a test's copy of it):
// serve the docs, a Prism mock per document and the sandbox, watch `openapi/` and
// `docs/samples/`, and on every save lint and render `generated/` (side by side), then write
// `generated/`, rebuild the pages the save touched (open pages reload themselves), bring the
// mocks of changed documents up to date (Prism reloads a last-good copy in place,
// scripts/dev-mock.ts) and restart the sandbox. A save that breaks lint or codegen changes
// nothing that is served: the last good docs and mocks stay up, and the log says so, with each
// problem's file and line, once (the same problems again are not repeated).
//
// node:fs.watch on the two directories (not their files: editors save by renaming a new file
// over the old one) with a short debounce, since one save fires several events; a save during
// a rebuild queues one more rebuild after it.
import { type FSWatcher, mkdtempSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadApiDocuments, projectRoot } from '../model/document.ts';
import { mockService } from '../scripts/dev-mock.ts';
import { type DevService, startDevProcess } from '../scripts/dev-process.ts';
import { renderGeneratedFiles } from '../scripts/generated-files.ts';
import { PortInUseError } from '../scripts/port-in-use.ts';
import { lint, rebuildDocs, regenerate } from './dev-build.ts';
import { serveStatic } from './serve.ts';

export interface DevServerOptions {
  /** The project whose documents are watched and built (the project itself, or a copy). */
  root: string;
  docsPort: number;
  /** Port of each document's Prism mock, by the document's name in redocly.yaml. */
  mockPorts: Record<string, number>;
  /** Port of the sandbox; without it no sandbox is run. */
  sandboxPort?: number;
  /** Where the docs are built and served from (default `<root>/site`). */
  siteDir?: string;
  debounceMs?: number;
  log?: (line: string) => void;
  /**
   * The variable that sets each server's port, by service name (`docs`, `mock <api>`,
   * `sandbox`): a port in use is reported as one line naming it.
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
}

export interface DevServer {
  docsUrl: string;
  mockUrls: Record<string, string>;
  sandboxUrl?: string;
  /** The outcome of the next rebuild to finish (the first build's, right after start). */
  nextBuild(): Promise<BuildOutcome>;
  close(): Promise<void>;
}

const watchedSource = /^[^.~#][^~#]*\.(ya?ml|json|ts)$/;
const bin = (name: string): string => join(projectRoot, 'node_modules/.bin', name);

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const { root } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const siteDir = options.siteDir ?? join(root, 'site');
  const portVariables = options.portVariables ?? {};
  const docs = await serveStatic(siteDir, options.docsPort, {
    liveReload: true,
    ...(portVariables.docs ? { portVariable: portVariables.docs } : {}),
  });
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

  const apis = loadApiDocuments(root);
  const documentFiles = new Set(apis.map((api) => api.file));
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
  if (options.sandboxPort !== undefined) {
    const url = `http://127.0.0.1:${options.sandboxPort}`;
    servers.push({
      name: 'sandbox',
      url,
      // It reads the documents and generated/, not the code samples.
      follows: (files) => files.some((file) => file.startsWith('openapi/')),
      start: () =>
        startDevProcess({
          name: 'sandbox',
          command: bin('tsx'),
          args: ['sandbox/main.ts'],
          cwd: projectRoot,
          env: {
            ...env,
            SANDBOX_PORT: String(options.sandboxPort),
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

  /** One rebuild, for the files saved since the last (every server restarts when `files` is undefined). */
  async function build(since: number, files: string[] | undefined): Promise<BuildOutcome> {
    const seconds = () => ((Date.now() - since) / 1000).toFixed(1);
    // Lint and render at once; nothing is written until both are clean.
    const [linted, rendered] = await Promise.all([
      lint(root),
      renderGeneratedFiles(root).then(
        (files) => ({ files }),
        (error: Error) => ({ error }),
      ),
    ]);
    const problems = [...linted.problems];
    if ('error' in rendered && linted.ok) problems.push(`codegen: ${rendered.error.message}`);
    if (!linted.ok || 'error' in rendered) {
      const text = problems.join('\n');
      if (text === lastProblems) log(`still ${problems.length} problem(s), as above`);
      else for (const problem of problems) log(problem);
      lastProblems = text;
      log(
        builtOnce
          ? `${linted.ok ? 'codegen' : 'lint'} failed: the last good docs and mocks keep serving`
          : `${linted.ok ? 'codegen' : 'lint'} failed: nothing to serve yet; fix the documents and save`,
      );
      return { ok: false, problems, ms: Date.now() - since };
    }
    if (lastProblems !== '') log('the documents are clean again');
    lastProblems = '';
    const written = await regenerate(root, rendered.files);
    log(
      `lint and codegen passed in ${seconds()} s${written.length > 0 ? `; wrote ${written.join(', ')}` : ''}`,
    );
    const docsStep = rebuildDocs(root, siteDir, files).then(
      () => {
        const pages = docs.reload();
        log(`docs rebuilt in ${seconds()} s${pages > 0 ? `; ${pages} open page(s) reloading` : ''}`);
      },
      (error: Error) => {
        problems.push(`docs: ${error.message}`);
        log(`docs build failed, the last good docs keep serving: ${error.message}`);
      },
    );
    const updating = servers.filter(
      (server) => files === undefined || server.process === undefined || server.follows(files),
    );
    const step = (server: DevService) =>
      update(server).then(
        () => log(`${server.name} up to date in ${seconds()} s`),
        (error: Error) =>
          log(
            error instanceof PortInUseError
              ? error.message
              : `${server.name} did not start: ${error.message}`,
          ),
      );
    // What updates in place goes along with the docs; a restart (a new process to load, which
    // is most of the work) waits until the docs are done, so the open page reloads first.
    const inPlace = updating.filter((server) => server.process !== undefined && server.refresh);
    await Promise.all([docsStep, ...inPlace.map(step)]);
    await Promise.all(updating.filter((server) => !inPlace.includes(server)).map(step));
    builtOnce = true;
    log(`up to date in ${seconds()} s: ${['docs', ...updating.map((server) => server.name)].join(', ')}`);
    return { ok: problems.length === 0, problems, ms: Date.now() - since };
  }

  const debounceMs = options.debounceMs ?? 100;
  let running: Promise<void> | undefined;
  let pendingSince: number | undefined;
  /** The files saved since the last build started; undefined means "rebuild everything". */
  let pendingFiles: Set<string> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const runBuilds = async () => {
    while (pendingSince !== undefined && !closed) {
      const since = pendingSince;
      const files = builtOnce && pendingFiles ? [...pendingFiles] : undefined;
      pendingSince = undefined;
      pendingFiles = new Set();
      let outcome: BuildOutcome;
      try {
        outcome = await build(since, files);
      } catch (error) {
        log(`rebuild failed: ${(error as Error).message}`);
        outcome = { ok: false, problems: [(error as Error).message], ms: Date.now() - since };
      }
      // A failed build served nothing new: its files still wait for the next good one.
      if (!outcome.ok) {
        if (files === undefined) pendingFiles = undefined;
        else for (const file of files) pendingFiles?.add(file);
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

  const watchers: FSWatcher[] = ['openapi', 'docs/samples'].map((directory) =>
    watch(join(root, directory), (_event, file) => {
      // Editors' swap and backup files come and go beside the documents: only sources count.
      if (closed || (file !== null && !watchedSource.test(file))) return;
      if (pendingSince === undefined && builtOnce) log(`\n${directory}/${file ?? ''} changed: rebuilding`);
      // Without a file name (some platforms) nothing can be skipped.
      if (file === null) pendingFiles = undefined;
      else pendingFiles?.add(`${directory}/${file}`);
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
    },
  };
}
