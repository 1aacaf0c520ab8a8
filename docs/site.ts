// Builds the browsable docs: one Redoc page per document named in redocly.yaml (`redocly
// build-docs`), and an index page linking them. The pages work offline: build-docs makes its page
// load Redoc from Redocly's CDN, so the build copies the Redoc bundle that @redocly/cli itself
// ships (the exact version its prerendered markup is made for) into the site, points the pages
// at that copy, and gives the bundle local copies of the images it would fetch from the CDN.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { operations } from '../generated/operations.ts';
import { loadApiDocuments } from '../model/document.ts';
import { environmentVariables } from '../model/environment.ts';
import { stringAt } from '../model/json.ts';
import { documentsWithSamples, firstCallSample } from '../scripts/code-samples.ts';
import { documentInputs } from '../scripts/input-hashes.ts';
import { cachedOutput, keepOutput, outputKey } from '../scripts/output-cache.ts';
import { collectCliHelp, renderCliPage } from './cli-help.ts';
import { type Guide, loadGuides, renderGuideList, renderGuidePage } from './guides.ts';
import { escapeHtml, operationGroups, renderOperationGroups } from './landing.ts';
import { headerStyle, siteHeader } from './layout.ts';
import {
  expandServerUrls,
  faviconFile,
  faviconSvg,
  ownPageHead,
  readablePage,
  type ServerEntry,
} from './readable-page.ts';
import { findMissingSamples, projectRoot, sampleLabel, sampleLang } from './samples.ts';
import { renderSigningPage, signingPage } from './signing-page.ts';
import { renderStreamChannels, type StreamPage, streamPages } from './stream-page.ts';
import { type TryItData, tryItData, withTryIt, writeTryItAssets } from './try-it.ts';

const run = promisify(execFile);

/** Environment for the Redocly CLI: no telemetry from the CLI or from the pages it writes. */
export const redoclyEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
};

export const redoclyBin = join(projectRoot, 'node_modules/.bin/redocly');

const cdnScript =
  /https:\/\/cdn\.redocly\.com\/redoc\/v([0-9][0-9A-Za-z.-]*)\/bundles\/redoc\.standalone\.js/g;
const cdnImage = /https:\/\/cdn\.redoc\.ly\/redoc\/([a-z0-9-]+)\.svg/g;

/** The Redoc bundle shipped inside @redocly/cli, and its version. */
export function localRedocBundle(): { path: string; version: string } {
  const cliPackage = createRequire(import.meta.url).resolve('@redocly/cli/package.json');
  const path = join(dirname(cliPackage), 'lib/chunks/redoc.standalone.js');
  const version = /Version: ([^\s*]+)/.exec(readFileSync(path, 'utf8').slice(0, 400))?.[1];
  if (!version) throw new Error(`no Redoc version in the header of ${path}`);
  return { path, version };
}

export interface RedocAssets {
  bundle: string;
  version: string;
  /** Subresource integrity of the bundle as @redocly/cli ships it, and of our patched copy. */
  originalIntegrity: string;
  integrity: string;
}

const sha384 = (text: string): string => `sha384-${createHash('sha384').update(text).digest('base64')}`;

/**
 * Copies the Redoc bundle into `assetsDir` with its CDN images replaced by local files, and
 * returns the bundle's file name.
 */
export function writeRedocAssets(assetsDir: string): RedocAssets {
  const { path, version } = localRedocBundle();
  mkdirSync(assetsDir, { recursive: true });
  const images = new Set<string>();
  const original = readFileSync(path, 'utf8');
  const code = original.replace(cdnImage, (_url, name: string) => {
    images.add(name);
    return `./assets/${name}.svg`;
  });
  for (const name of images) {
    // A plain wordmark in place of Redocly's logo image, so the attribution still reads.
    writeFileSync(
      join(assetsDir, `${name}.svg`),
      '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="24" viewBox="0 0 96 24">' +
        '<text x="0" y="17" font-family="sans-serif" font-size="16" fill="#0044d4">Redocly</text></svg>\n',
    );
  }
  // The pages' icon (readable-page.ts) lives with the assets every page is built with.
  writeFileSync(join(assetsDir, '..', faviconFile), faviconSvg);
  const bundle = `redoc.standalone-${version}.js`;
  writeFileSync(join(assetsDir, bundle), code);
  return { bundle, version, originalIntegrity: sha384(original), integrity: sha384(code) };
}

/**
 * Points a build-docs page at the local bundle. The page's integrity attribute must be that of
 * the bundle @redocly/cli ships (so the copy is the file build-docs made the page for); it is
 * replaced by that of the patched copy, which the browser then checks.
 */
export function localizePage(html: string, redoc: RedocAssets): string {
  let found = 0;
  const out = html
    .replace(cdnScript, (_url, pageVersion: string) => {
      if (pageVersion !== redoc.version) {
        throw new Error(`the page wants Redoc ${pageVersion}, @redocly/cli ships ${redoc.version}`);
      }
      found++;
      return `./assets/${redoc.bundle}`;
    })
    .replace(/integrity="([^"]*)"/g, (_attribute, integrity: string) => {
      if (integrity !== redoc.originalIntegrity) {
        throw new Error('the page expects a different Redoc bundle from the one @redocly/cli ships');
      }
      return `integrity="${redoc.integrity}"`;
    });
  if (found === 0)
    throw new Error('no Redoc CDN script found in the build-docs page; has its template changed?');
  return out;
}

/**
 * Redoc options (build-docs `--openapi`). Redoc shows an x-codeSamples entry only when its
 * label is one of `codeSamples.languages`; ours comes first, so it is the sample shown.
 */
export const redocOptions = {
  codeSamples: {
    languages: [
      { lang: sampleLang, label: sampleLabel },
      { lang: 'payload', label: 'Payload' },
    ],
  },
};

/**
 * The page `redocly build-docs` writes for the document, as it writes it (Redoc loaded from
 * Redocly's CDN): kept (scripts/output-cache.ts), so the same document and redocly.yaml are built
 * once. Returns the kept file.
 */
export async function buildDocsOutput(documentPath: string): Promise<string> {
  const options = JSON.stringify(redocOptions);
  // What build-docs reads: the document with every file it $refs, and the project's redocly.yaml.
  const key = outputKey(
    [
      { root: dirname(documentPath), files: documentInputs(dirname(documentPath), basename(documentPath)) },
      { root: projectRoot, files: ['redocly.yaml'] },
    ],
    options,
  );
  return (
    cachedOutput('build-docs', key) ??
    (await keepOutput('build-docs', key, (file) =>
      // cwd is the project, so build-docs reads redocly.yaml (its lint config and API aliases).
      run(redoclyBin, ['build-docs', documentPath, '-o', file, '--openapi', options], {
        cwd: projectRoot,
        env: redoclyEnv,
      }).then(() => undefined),
    ))
  );
}

/**
 * Builds one page from one document with `redocly build-docs`, loading Redoc from the local copy.
 * build-docs runs only for inputs it has not built before (scripts/output-cache.ts).
 */
export async function buildPage(
  documentPath: string,
  outFile: string,
  redoc: RedocAssets,
  tryIt?: TryItData,
): Promise<void> {
  const built = await buildDocsOutput(documentPath);
  const { servers = [] } = parse(readFileSync(documentPath, 'utf8')) as { servers?: ServerEntry[] };
  const page = localizePage(readFileSync(built, 'utf8'), redoc);
  const readable = expandServerUrls(readablePage(page), servers);
  writeFileSync(outFile, tryIt ? withTryIt(readable, tryIt) : readable);
}

export interface SitePage {
  name: string;
  file: string;
  title: string;
  version: string;
  summary: string;
  document: string;
}

/** The API's own version, from the operations' paths (`/api/v4/…`): not the documents' versions. */
export function apiVersion(): string {
  const counts = new Map<string, number>();
  for (const { path } of ownOriginOperations()) {
    const version = versionOf(path);
    counts.set(version, (counts.get(version) ?? 0) + 1);
  }
  // The API's version is the one most of its paths carry; a few older paths may remain.
  return [...counts].sort(([, a], [, b]) => b - a)[0]?.[0] ?? '?';
}

const versionOf = (path: string) => /^\/api\/(v\d+)\//.exec(path)?.[1] ?? '?';

/** The operations served from their document's origin: not those with servers of their own. */
const ownOriginOperations = () => Object.values(operations).filter((operation) => !('servers' in operation));

/** The paths of another version than the API's: older ones the operator still serves. */
export function olderPaths(): string[] {
  const version = apiVersion();
  return ownOriginOperations()
    .map((operation) => operation.path as string)
    .filter((path) => versionOf(path) !== version)
    .sort();
}

/** The paths served from an origin of their own (the fiat gateway's), which keep their own form. */
export function otherOriginPaths(): string[] {
  return Object.values(operations)
    .filter((operation) => 'servers' in operation)
    .map((operation) => operation.path as string)
    .sort();
}

/** How a reader installs the package until it is published: the tarball `npm pack` writes. */
function installCommand(): string {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const tarball = `${manifest.name}-${manifest.version}.tgz`;
  return `npm pack                      # in this repository: writes ${tarball}
cd ../your-project && npm pkg set type=module
npm install tsx ../txc-api/${tarball}`;
}

/** What the index shows of the stream pages: the pages, and their channels as a list (renderStreamChannels). */
export interface StreamIndex {
  pages: readonly StreamPage[];
  channelList: string;
}

const documentItem = (
  page: { file: string; title: string; version: string; summary: string },
  source: string,
) =>
  `      <li><a href="./${page.file}">${escapeHtml(page.title)}</a>: document version <span class="version">${escapeHtml(page.version)}</span>` +
  `<br><span class="summary">${escapeHtml(page.summary)}</span> <code>${escapeHtml(source)}</code></li>`;

export function renderIndex(
  pages: SitePage[],
  gettingStarted: string,
  operationList = '',
  streams: StreamIndex = { pages: [], channelList: '' },
  guides: readonly Guide[] = [],
): string {
  const items = pages.map((page) => documentItem(page, page.document)).join('\n');
  const streamItems = streams.pages.map((page) => documentItem(page, page.source)).join('\n');
  // The three a signed call needs (the fiat gateway's token is its calls' alone).
  const variables = [
    environmentVariables.baseUrl,
    environmentVariables.apiKey,
    environmentVariables.apiSecret,
  ]
    .map((name) => `<code>${name}</code>`)
    .join(', ');
  return `${ownPageHead(
    `HTTP API ${escapeHtml(apiVersion())}: docs`,
    `${headerStyle}    pre { background: #f6f8fa; padding: 1rem; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
    li { margin-bottom: 0.75rem; }
    .lead { font-size: 1.15rem; color: #59636e; }
    .version { font-weight: 600; }
    ol.steps > li { margin-bottom: 1.25rem; }
    ol.steps h3 { margin: 0 0 0.25rem; font-size: 1.05rem; }
    .tag-description { color: #59636e; margin-top: -0.5rem; }
    ul.operations { list-style: none; padding: 0; }
    ul.operations li { margin-bottom: 0.5rem; }
    ul.operations a { text-decoration: none; color: inherit; }
    ul.operations code { overflow-wrap: anywhere; }
    ul.operations a:hover .summary { text-decoration: underline; }
    .method { font: 600 0.75rem ui-monospace, monospace; color: #0044d4; }
    .summary { display: block; color: #0044d4; }
    .badge { display: inline-block; font-size: 0.75rem; padding: 0 0.5rem; border-radius: 999px; border: 1px solid; margin-right: 0.25rem; }
    .rate-limit { color: #59636e; border-color: #d0d7de; }
    .partner-only { color: #8250df; border-color: #c297ff; }
    .writes { color: #bc4c00; border-color: #fb8f44; }
    .guide-summary { color: #59636e; }`,
  )}
<body>
${siteHeader('./index.html')}
  <main>
    <h1>HTTP API <span id="api-version">${escapeHtml(apiVersion())}</span></h1>
    <p class="lead">The reference of every operation, a typed TypeScript client that signs each call for
    you, the <code>txc</code> command line and a local sandbox that verifies signatures: all built from
    the OpenAPI documents in <code>openapi/</code>. The WebSocket streams have pages of their own, built
    from the AsyncAPI documents in <code>asyncapi/</code>.</p>
    <h2 id="versions">Versions</h2>
    <p>The API is <strong>${escapeHtml(apiVersion())}</strong>: every path starts with
    <code>/api/${escapeHtml(apiVersion())}/</code>${
      olderPaths().length > 0
        ? `, but for older paths the operator still serves and trading clients call: ${olderPaths()
            .map((path) => `<code>${escapeHtml(path)}</code>`)
            .join(', ')}`
        : ''
    }${
      otherOriginPaths().length > 0
        ? `; a path served from an origin of its own keeps its own form: ${otherOriginPaths()
            .map((path) => `<code>${escapeHtml(path)}</code>`)
            .join(', ')}`
        : ''
    }. The documents that describe it have version numbers of
    their own, raised with every change to a document (<code>CHANGELOG.md</code>):</p>
    <ul id="documents">
${items}
    </ul>
    <p>The WebSocket streams (market data as it changes, and the account's balances, orders and deals)
    are described by AsyncAPI documents of their own, each with its page: channels, messages,
    examples and a sample per channel.</p>
    <ul id="stream-documents">
${streamItems}
    </ul>
    <h2 id="guides">Guides</h2>
    <p>How to use each part, beside the references: a page each, with programs you can run against the
    sandbox (<code>npm test</code> type-checks every one and runs them).</p>
    <ul id="guide-list">
${renderGuideList(guides)}
    </ul>
    <h2 id="quick-start">Quick start</h2>
    <ol class="steps">
      <li><h3>Install</h3>
      <pre id="install"><code>${escapeHtml(installCommand())}</code></pre>
      <p>In this repository, <code>npm start</code> serves these pages, a mock server for each document
      and the sandbox, on 127.0.0.1.</p></li>
      <li><h3>Sign</h3>
      <p>Private calls are signed with an API key and its secret: the client reads ${variables}.
      <code>npm start</code> prints the sandbox's key and secret and writes all three to <code>.env</code>.
      The client adds <code>request</code> and <code>nonce</code> to the body and the three signing
      headers; to sign without the package, see <a href="./signing.html">the signing recipes</a>
      (curl and openssl, Python, plain JavaScript).</p></li>
      <li><h3>First call</h3>
      <pre id="getting-started"><code>${escapeHtml(gettingStarted)}</code></pre>
      <pre><code>npx tsx --env-file=.env example.ts</code></pre>
      <p>Every operation's page shows its own sample, and its <em>Try it</em> button sends it to the sandbox from the page.</p></li>
    </ol>
    <h2>Operations</h2>
    <div id="operations">
${operationList}
    </div>
    <h2 id="streams-heading">Streams</h2>
    <p>Every channel of the WebSocket streams, by document: its section shows its requests, updates,
    messages and a sample with the package's stream client.</p>
    <div id="streams">
${streams.channelList}
    </div>
    <h2>Signing without the package</h2>
    <p id="signing">Recipes that sign a call with curl and openssl, Python's <code>hmac</code> or plain
    JavaScript: <a href="./${signingPage}.html">signing without the package</a>.</p>
    <p>Each operation's sample is made from its first request example by <code>npm run generate</code>
    (<code>generated/samples/</code>) and type-checked with the rest of the code.</p>
    <h2>Command line</h2>
    <p id="command-line">The <code>txc</code> command line calls every operation from a shell:
    <a href="./cli.html">its --help, per subcommand</a>.</p>
  </main>
</body>
</html>
`;
}

/** The page of `txc --help` and each subcommand's, by its name among the pages. */
export const cliPage = 'cli';

/** Writes the `txc` help page into `outDir` (txc runs once for all its help texts). */
export async function writeCliPage(outDir: string): Promise<void> {
  writeFileSync(join(outDir, `${cliPage}.html`), renderCliPage(await collectCliHelp()));
}

/**
 * Builds the whole site into `outDir` (emptied first) from the documents named in redocly.yaml,
 * and a page per stream document (docs/stream-page.ts).
 * `reusePages` names pages (documents by name, or `cli`) to copy from an earlier build instead,
 * their inputs being unchanged: the watch loop of `npm start` rebuilds only what a save touched.
 */
export async function buildSite(
  outDir: string,
  root = projectRoot,
  options: {
    reusePages?: { from: string; names: string[] };
    /** Leave out the cli page: the caller writes it (the watch loop, once codegen has written the operation table it reads). */
    withoutCliPage?: boolean;
  } = {},
): Promise<SitePage[]> {
  const missing = findMissingSamples(root);
  if (missing.length > 0) throw new Error(`code samples missing:\n${missing.join('\n')}`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const redoc = writeRedocAssets(join(outDir, 'assets'));
  writeTryItAssets(join(outDir, 'assets'));
  const apis = loadApiDocuments(root);
  const earlierPage = (name: string) => {
    const earlier = options.reusePages?.names.includes(name)
      ? join(options.reusePages.from, `${name}.html`)
      : undefined;
    return earlier && existsSync(earlier) ? earlier : undefined;
  };
  // build-docs reads a copy of the documents, each operation of a page to build given its derived
  // sample; when every page is reused (a save of a stream document, a guide), there is none to make.
  const toBuild = apis.filter((api) => !earlierPage(api.name)).map((api) => api.name);
  const withSamples = toBuild.length > 0 ? documentsWithSamples(root, toBuild) : undefined;
  // The pages build side by side: each is a build-docs process of its own.
  const pages: SitePage[] = await Promise.all(
    apis.map(async (api) => {
      const file = `${api.name}.html`;
      const earlier = earlierPage(api.name);
      if (earlier) copyFileSync(earlier, join(outDir, file));
      else if (withSamples) await buildPage(withSamples.file(api), join(outDir, file), redoc, tryItData(api));
      return {
        name: api.name,
        file,
        title: stringAt(api.document, 'info', 'title') ?? '',
        version: stringAt(api.document, 'info', 'version') ?? '',
        summary: stringAt(api.document, 'info', 'summary') ?? '',
        document: api.file,
      };
    }),
  ).finally(() => withSamples?.remove());
  const gettingStarted = firstCallSample(root);
  // The stream pages are rendered here, in this process, in a moment: never reused from a build before.
  const streams = streamPages(root);
  for (const page of streams.pages) writeFileSync(join(outDir, page.file), page.html);
  // The guides too (docs/guides/ of the root being built): Markdown rendered in a moment.
  const guides = loadGuides(root);
  for (const guide of guides) writeFileSync(join(outDir, guide.file), renderGuidePage(guide, root));
  writeFileSync(
    join(outDir, 'index.html'),
    renderIndex(
      pages,
      gettingStarted,
      renderOperationGroups(operationGroups(loadApiDocuments(root))),
      {
        pages: streams.pages,
        channelList: renderStreamChannels(streams.pages, streams.channels),
      },
      guides,
    ),
  );
  // The recipes are code, like txc: read from the project wherever the documents being built live.
  writeFileSync(join(outDir, `${signingPage}.html`), renderSigningPage());
  if (options.withoutCliPage) return pages;
  const earlierCli = options.reusePages?.names.includes(cliPage)
    ? join(options.reusePages.from, `${cliPage}.html`)
    : undefined;
  if (earlierCli && existsSync(earlierCli)) copyFileSync(earlierCli, join(outDir, `${cliPage}.html`));
  else await writeCliPage(outDir);
  return pages;
}
