// Builds the browsable docs: one Redoc page per document named in redocly.yaml (`redocly
// build-docs`), and an index page linking them. The pages work offline: build-docs makes its page
// load Redoc from Redocly's CDN, so the build copies the Redoc bundle that @redocly/cli itself
// ships (the exact version its prerendered markup is made for) into the site, points the pages
// at that copy, and gives the bundle local copies of the images it would fetch from the CDN.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { loadApiDocuments } from '../model/document.ts';
import { stringAt } from '../model/json.ts';
import { documentsWithSamples } from '../scripts/code-samples.ts';
import { collectCliHelp, renderCliPage } from './cli-help.ts';
import { escapeHtml, operationGroups, renderOperationGroups } from './landing.ts';
import { faviconFile, faviconSvg, ownPageHead, readablePage } from './readable-page.ts';
import { findMissingSamples, projectRoot, sampleLabel, sampleLang } from './samples.ts';

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

/** Builds one page from one document with `redocly build-docs`, loading Redoc from the local copy. */
export async function buildPage(documentPath: string, outFile: string, redoc: RedocAssets): Promise<void> {
  // cwd is the project, so build-docs reads redocly.yaml (its lint config and API aliases).
  await run(
    redoclyBin,
    ['build-docs', documentPath, '-o', outFile, '--openapi', JSON.stringify(redocOptions)],
    { cwd: projectRoot, env: redoclyEnv },
  );
  writeFileSync(outFile, readablePage(localizePage(readFileSync(outFile, 'utf8'), redoc)));
}

export interface SitePage {
  name: string;
  file: string;
  title: string;
  version: string;
  summary: string;
  document: string;
}

export function renderIndex(pages: SitePage[], gettingStarted: string, operationList = ''): string {
  const versions = [...new Set(pages.map((page) => page.version))].join(', ');
  const items = pages
    .map(
      (page) =>
        `      <li><a href="./${page.file}">${escapeHtml(page.title)}</a> <span class="version">v${escapeHtml(page.version)}</span>` +
        `<br><span class="summary">${escapeHtml(page.summary)}</span> <code>${escapeHtml(page.document)}</code></li>`,
    )
    .join('\n');
  return `${ownPageHead(
    `HTTP API v${escapeHtml(versions)} docs`,
    `    pre { background: #f6f8fa; padding: 1rem; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
    li { margin-bottom: 0.75rem; }
    .version { color: #59636e; }
    ul.operations { list-style: none; padding: 0; }
    ul.operations li { margin-bottom: 0.5rem; }
    ul.operations a { text-decoration: none; color: inherit; }
    ul.operations a:hover .summary { text-decoration: underline; }
    .method { font: 600 0.75rem ui-monospace, monospace; color: #0044d4; }
    .summary { display: block; color: #0044d4; }
    .badge { display: inline-block; font-size: 0.75rem; padding: 0 0.5rem; border-radius: 999px; border: 1px solid; margin-right: 0.25rem; }
    .rate-limit { color: #59636e; border-color: #d0d7de; }
    .partner-only { color: #8250df; border-color: #c297ff; }
    .writes { color: #bc4c00; border-color: #fb8f44; }`,
  )}
<body>
  <main>
    <h1>HTTP API v<span id="api-version">${escapeHtml(versions)}</span></h1>
    <p>Reference documentation, built from the OpenAPI documents in <code>openapi/</code>.</p>
    <ul id="documents">
${items}
    </ul>
    <h2>Operations</h2>
    <div id="operations">
${operationList}
    </div>
    <h2>Getting started with the client</h2>
    <p>The package <code>txc-api-v4</code> exports a typed client for each document. It signs private
    calls and fills in <code>request</code> and <code>nonce</code> for you; every call answers with
    <code>{ data, error }</code>. <code>npm start</code> serves these docs and a mock server for each
    document; the README lists their ports.</p>
    <pre id="getting-started"><code>${escapeHtml(gettingStarted)}</code></pre>
    <p>Every operation in the reference shows its own sample, made from its first request
    example by <code>npm run generate</code> (<code>generated/samples/</code>) and type-checked with
    the rest of the code.</p>
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
 * Builds the whole site into `outDir` (emptied first) from the documents named in redocly.yaml.
 * `reusePages` names pages (documents by name, or `cli`) to copy from an earlier build instead,
 * their inputs being unchanged: the watch loop of `npm start` rebuilds only what a save touched.
 */
export async function buildSite(
  outDir: string,
  root = projectRoot,
  options: { reusePages?: { from: string; names: string[] } } = {},
): Promise<SitePage[]> {
  const missing = findMissingSamples(root);
  if (missing.length > 0) throw new Error(`code samples missing:\n${missing.join('\n')}`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const redoc = writeRedocAssets(join(outDir, 'assets'));
  // build-docs reads a copy of the documents given each operation's derived sample.
  const withSamples = documentsWithSamples(root);
  // The pages build side by side: each is a build-docs process of its own.
  const pages: SitePage[] = await Promise.all(
    loadApiDocuments(root).map(async (api) => {
      const file = `${api.name}.html`;
      const earlier = options.reusePages?.names.includes(api.name)
        ? join(options.reusePages.from, file)
        : undefined;
      if (earlier && existsSync(earlier)) copyFileSync(earlier, join(outDir, file));
      else await buildPage(withSamples.file(api), join(outDir, file), redoc);
      return {
        name: api.name,
        file,
        title: stringAt(api.document, 'info', 'title') ?? '',
        version: stringAt(api.document, 'info', 'version') ?? '',
        summary: stringAt(api.document, 'info', 'summary') ?? '',
        document: api.file,
      };
    }),
  ).finally(withSamples.remove);
  const gettingStarted = readFileSync(join(root, 'docs/getting-started.ts'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('// Shown on the docs index page'))
    .join('\n');
  writeFileSync(
    join(outDir, 'index.html'),
    renderIndex(pages, gettingStarted, renderOperationGroups(operationGroups(loadApiDocuments(root)))),
  );
  const earlierCli = options.reusePages?.names.includes(cliPage)
    ? join(options.reusePages.from, `${cliPage}.html`)
    : undefined;
  if (earlierCli && existsSync(earlierCli)) copyFileSync(earlierCli, join(outDir, `${cliPage}.html`));
  else await writeCliPage(outDir);
  return pages;
}
