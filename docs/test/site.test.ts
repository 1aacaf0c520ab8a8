// The docs site in a real browser, offline: every request that would leave 127.0.0.1 is blocked
// and counted as a failure. The expected operations come from generated/operations.ts, the stream
// pages' channels from generated/streams.ts. Each page of the site is loaded once, and the checks
// of a page share it, in order: the index, and each page its links lead to, opened from it in a
// tab of the same browser context. Each guide is opened once, from the index, and the pages its
// links lead to are fetched once for all of them, not loaded. Every section of a reference page
// and its Try it panel are checked on pages of a few operations, one of each request shape
// (request-shapes.ts); what every operation of the whole pages holds, and every operation's Try
// it request, are checked without a browser (reference-pages.test.ts).
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operations, signedBodyFields, signingHeaders } from '../../generated/operations.ts';
import { streamChannels, streamKeepalive, streamRateLimits, streamServers } from '../../generated/streams.ts';
import { loadApiDocuments } from '../../model/document.ts';
import { arrayAt, at, stringAt } from '../../model/json.ts';
import { documentModel } from '../../model/model.ts';
import { loadStreamDocuments, streamDocumentFiles, streamMessages } from '../../model/streams.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { streamSamplePath } from '../../scripts/stream-samples.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { loadGuides } from '../guides.ts';
import { operationGroups, operationHref, rateLimitText } from '../landing.ts';
import { streamPageName } from '../layout.ts';
import {
  checkDocsPage,
  checkPage,
  checkShownOperation,
  checkViewport,
  expectedOperations,
  launchChromium,
  type PageCheck,
  type PageWatch,
  watchPages,
  withoutAnswersFrom,
} from '../page-check.ts';
import { recipeSource, recipes, recipeUsage } from '../recipes.ts';
import { findMissingSamples, projectRoot, sampleFile, sampleLineWidth } from '../samples.ts';
import { serveStatic } from '../serve.ts';
import { channelHref, messageAnchor } from '../stream-page.ts';
import { type TryItOperation, tryItData } from '../try-it.ts';
import { buildFewOperationsPages, type FewOperationsPage } from './few-operations-pages.ts';
import { oneOfEachShape } from './request-shapes.ts';
import { expectSandboxTook, readyFor, type TryItOutcome } from './try-it-calls.ts';

const reports = join(projectRoot, 'reports');
const apis = loadApiDocuments(projectRoot);
const tempDirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-test-'));
  tempDirs.push(dir);
  return dir;
};

let browser: Browser;
/** The site's own pages, each a tab of one context (docs/page-check.ts watches them all). */
let site: BrowserContext;
let watchOf: (page: Page) => PageWatch;
/** The index, loaded once: its checks share it, and the other pages are opened from its links. */
let index: Page;
const indexViewport = { width: 1200, height: 900 };

beforeAll(async () => {
  mkdirSync(reports, { recursive: true });
  browser = await launchChromium();
  site = await browser.newContext({ viewport: checkViewport });
  watchOf = await watchPages(site);
  index = await site.newPage();
  await index.setViewportSize(indexViewport);
  await index.goto(inject('docsUrl'), { waitUntil: 'networkidle' });
});

/**
 * The pages of an operation of each request shape (request-shapes.ts), one per document, built
 * and served once for the tests that load them.
 */
let fewPages: Promise<{
  pages: Map<string, FewOperationsPage>;
  server: { url: string; close(): Promise<void> };
}>;
function fewOperationsPages(): typeof fewPages {
  fewPages ??= (async () => {
    const dir = tempDir();
    const pages = await buildFewOperationsPages(
      new Map(
        apis.map((api) => [
          api,
          oneOfEachShape(tryItData(api).operations).map((operation) => operation.operationId),
        ]),
      ),
      dir,
    );
    return { pages, server: await serveStatic(dir, 0) };
  })();
  return fewPages;
}

afterAll(async () => {
  await browser?.close();
  if (fewPages) await (await fewPages.catch(() => undefined))?.server.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Follows a link of the index as a reader does, clicked, but into a tab of its own (Ctrl-click),
 * so that the index stays loaded for the next link; resolves once the page is loaded and quiet,
 * and in front: a tab left behind the index is drawn seldom, and Redoc fills a section's sample
 * panel only once it is drawn in view (left behind, the page check missed samples).
 */
async function openFromIndex(link: Locator): Promise<Page> {
  // The reader is on the index when they click: behind the last tab opened, the index is drawn
  // about once a second, and the click waits on its drawing to scroll a link below the fold into
  // view (1.4 s a link, measured).
  await index.bringToFront();
  const [tab] = await Promise.all([site.waitForEvent('page'), link.click({ modifiers: ['ControlOrMeta'] })]);
  await tab.waitForLoadState('networkidle');
  await tab.bringToFront();
  return tab;
}

/**
 * Opens `route` on the page loaded already, as a link within it does, once the page has handled
 * the change: its own listeners (the Try it panel's) were added first, so they have run.
 */
function followRoute(page: Page, route: string): Promise<void> {
  return page.evaluate(
    (hash) =>
      new Promise<void>((resolve) => {
        addEventListener('hashchange', () => resolve(), { once: true });
        location.hash = hash;
      }),
    route,
  );
}

/** Goes to `route` within the page, unless the page is there already. */
async function visitRoute(page: Page, route: string): Promise<void> {
  if (decodeURIComponent(new URL(page.url()).hash) !== `#${route}`) await followRoute(page, route);
}

/** Serves `dir` for the duration of `use`. */
async function withServer<T>(dir: string, use: (url: string) => Promise<T>): Promise<T> {
  const server = await serveStatic(dir, 0);
  try {
    return await use(server.url);
  } finally {
    await server.close();
  }
}

/**
 * The page links its icon, the server has it, and nothing it asked for since it loaded was missing
 * (`watch`: what watchOf says of the page, unless a test judges some of it itself).
 */
async function expectNothingMissing(page: Page, name: string, watch = watchOf(page)): Promise<void> {
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(icon, name).toBeTruthy();
  const response = await page.request.get(new URL(icon ?? '', page.url()).href);
  expect(response.status(), `${name}: ${icon}`).toBe(200);
  expect(watch.failed, name).toEqual([]);
}

const groups = operationGroups(apis);

describe('docs site', () => {
  it('every operation of generated/operations.ts belongs to a document that gets a page', () => {
    const names = apis.map((api) => api.name);
    const pages = inject('docsPages').map((page) => page.name);
    expect(pages).toEqual(names);
    for (const operation of Object.values(operations)) expect(names).toContain(operation.api);
  });
});

describe('docs site: the landing page', () => {
  it('header, navigation, versions told plainly, quick start', async () => {
    const page = index;
    const links = await page
      .locator('#documents a')
      .evaluateAll((anchors) =>
        anchors.map((anchor) => ({ href: anchor.getAttribute('href'), text: anchor.textContent })),
      );
    expect(links).toEqual(
      apis.map((api) => ({ href: `./${api.name}.html`, text: stringAt(api.document, 'info', 'title') })),
    );
    // The API's version is the one in its paths; each document's own version is shown as it is.
    // Older paths the operator still serves (v1) are few, public, and each named on the page.
    // A path served from an origin of its own (the fiat gateway's) is not the API's, and is named too.
    const ownOrigin = Object.values(operations).filter((operation) => !('servers' in operation));
    const older = ownOrigin.filter((operation) => operation.path.split('/')[2] !== 'v4');
    for (const operation of Object.values(operations).filter((candidate) => 'servers' in candidate))
      expect(await page.locator('#versions + p').innerText()).toContain(operation.path);
    expect(older.length).toBeLessThan(Object.keys(operations).length / 10);
    for (const operation of older) {
      expect(operation.auth).toBe('none');
      expect(await page.locator('#versions + p').innerText()).toContain(operation.path);
    }
    expect(await page.locator('h1').innerText()).toBe('HTTP API v4');
    expect(await page.locator('#documents .version').allInnerTexts()).toEqual(
      apis.map((api) => stringAt(api.document, 'info', 'version')),
    );
    // The navigation reaches every page, each of which the server has.
    const nav = await page
      .locator('header.site nav a')
      .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    expect(nav).toEqual([
      './index.html',
      ...apis.map((api) => `./${api.name}.html`),
      ...Object.keys(streamDocumentFiles).map((name) => `./${streamPageName(name)}.html`),
      './index.html#guides',
      './signing.html',
      './cli.html',
    ]);
    expect(await page.locator('h2#guides + p + ul#guide-list').count()).toBe(1);
    for (const href of nav) {
      const response = await page.request.get(new URL(href ?? '', inject('docsUrl')).href);
      expect(response.status(), href ?? '').toBe(200);
    }
    // Quick start: install, sign, first call.
    expect(await page.locator('#quick-start + ol h3').allInnerTexts()).toEqual([
      'Install',
      'Sign',
      'First call',
    ]);
    expect(await page.locator('#install').innerText()).toContain('npm pack');
    const sample = await page.locator('#getting-started').textContent();
    expect(sample).toContain("from 'txc-api-v4'");
    expect(sample).toContain('createPrivateClient');
    // One picture of the page under both of its names.
    await page.screenshot({ path: join(reports, 'docs-landing.png'), fullPage: true });
    copyFileSync(join(reports, 'docs-landing.png'), join(reports, 'docs-index.png'));
    expect(watchOf(page).blocked).toEqual([]);
    expect(watchOf(page).consoleErrors).toEqual([]);
  });

  // Where each link leads is checked on the page it opens (docs site: <document> below).
  it('lists every operation under its tag, with its badges and a link to its section', async () => {
    const shown = await index.locator('#operations section.tag').evaluateAll((sections) =>
      sections.map((section) => ({
        tag: section.querySelector('h3')?.textContent,
        operations: [...section.querySelectorAll('li')].map((item) => ({
          operationId: item.getAttribute('data-operation-id'),
          href: item.querySelector('a')?.getAttribute('href'),
          badges: [...item.querySelectorAll('.badge')].map(
            (badge) => `${badge.className}: ${badge.textContent}`,
          ),
        })),
      })),
    );
    // Grouped by the documents' tags; every operation of generated/operations.ts once.
    expect(shown.map((section) => section.tag)).toEqual(groups.map((group) => group.tag));
    expect(shown.flatMap((section) => section.operations.map((item) => item.operationId)).sort()).toEqual(
      Object.keys(operations).sort(),
    );
    for (const [index, group] of groups.entries()) {
      for (const operation of group.operations) {
        const item = shown[index]?.operations.find((entry) => entry.operationId === operation.operationId);
        expect(item?.href).toBe(operationHref(group.page, group.tag, operation.operationId));
        expect(item?.badges).toEqual([
          `badge rate-limit: ${rateLimitText(operation)}`,
          ...(operation.partnerOnly ? ['badge partner-only: partners only'] : []),
          ...(operation.writes ? ['badge writes: writes'] : []),
        ]);
        expect(rateLimitText(operation)).toContain(
          `${operation.rateLimit.requests} per ${operation.rateLimit.windowSeconds} s`,
        );
      }
    }
  });

  it('fits a phone screen', async () => {
    // The index is laid out by its style sheet alone (no script, no media query): a narrower
    // window lays it out as a load at that width does.
    await index.setViewportSize({ width: 390, height: 844 });
    try {
      const overflow = await index.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      await index.screenshot({ path: join(reports, 'docs-index-narrow.png'), fullPage: true });
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await index.setViewportSize(indexViewport);
    }
  });

  it('asks for nothing the server does not have (the icon included)', async () => {
    await expectNothingMissing(index, 'index');
  });
});

// Search at this size, on each reference page: of each document, the operation whose txc
// subcommand shares the fewest words with its summary, path and description, found by its path,
// its summary and that name, which the built documents add to its description.
const ownText = (operation: (typeof cliOperations)[number]) =>
  `${operation.facts.summary} ${operation.facts.path} ${String(
    documentModel().operation(operation.facts.operationId).object.description,
  )}`.toLowerCase();
const unsaid = (operation: (typeof cliOperations)[number]) =>
  operation.name.split('-').filter((word) => !ownText(operation).includes(word)).length;

/** What one Try it call showed and did, read while the page showed its operation; or what stopped it. */
type TryItCall =
  | (TryItOutcome & {
      /** The panel was open. */
      panelVisible: boolean;
      /** The operation the panel named. */
      shown: string;
      /** The body the panel started from. */
      body: unknown;
      secretOnPage: boolean | undefined;
    })
  | { error: string };

/**
 * The reference pages: each page of the site loaded once, from the index, and checked where only a
 * browser shows it (it renders offline without errors, its servers, search, the section a link
 * opens); and a page of a few of its document's operations, one of each request shape
 * (request-shapes.ts), built the same way, on which every section is checked and every operation
 * sent from the Try it panel. What every operation of the whole pages holds, and every
 * operation's Try it request, are checked without a browser (reference-pages.test.ts).
 */
describe('docs site: the reference pages', () => {
  const key = credentialKey(loadFixture());
  const answered: string[] = [];
  let sandbox: Sandbox;
  let few: Map<string, FewOperationsPage>;
  let fewServer: { url: string };

  beforeAll(async () => {
    ({ pages: few, server: fewServer } = await fewOperationsPages());
    sandbox = await startSandbox({
      port: 0,
      corsOrigins: [new URL(fewServer.url).origin],
      log: (line) => answered.push(line),
    });
  });
  afterAll(() => sandbox?.close());

  // The page the search and the refusal of another origin are tried on.
  const tried = (apis.find((candidate) => candidate.name === 'private-v4') ?? apis[0])?.name;

  for (const api of apis) {
    describe(api.name, () => {
      const pageName = `${api.name}.html`;
      const own = groups.filter((group) => group.page === pageName);
      const first = own[0]?.operations[0];
      const firstRoute = () =>
        operationHref(pageName, own[0]?.tag ?? '', first?.operationId ?? '').split('#')[1] as string;
      const pageUrl = () => `${inject('docsUrl')}${pageName}`;

      // The page is loaded once, from the index's first link to it, at that operation's address.
      let tab: Page;

      beforeAll(async () => {
        if (!first) throw new Error(`the index lists no operation of ${api.name}`);
        tab = await openFromIndex(index.locator(`li[data-operation-id="${first.operationId}"] a`));
      });
      afterAll(() => tab?.close());

      it("the index's first link to it opens it at that operation's section", async () => {
        await tab
          .locator(`[data-section-id="${firstRoute()}"]`)
          .first()
          .waitFor({ timeout: timeLimits.runMs });
        expect(tab.url()).toContain(pageName);
      });

      it('renders offline and without errors, the section it opened whole: fields, responses and sample', async () => {
        const operation = expectedOperations(api.name).find(
          (entry) => entry.operationId === first?.operationId,
        );
        if (!operation) throw new Error(`${first?.operationId} is not an operation of ${api.name}`);
        const problems = await checkShownOperation(tab, pageUrl(), firstRoute(), operation);
        await tab.waitForLoadState('networkidle');
        await tab.screenshot({ path: join(reports, `docs-${api.name}.png`) });
        expect(problems).toEqual([]);
        expect(watchOf(tab).blocked).toEqual([]);
        expect(watchOf(tab).consoleErrors).toEqual([]);
      });

      it("shows each server's origin, not a path under the docs' own origin", async () => {
        const rendered = await tab.locator('#redoc').innerHTML();
        expect(rendered, api.name).not.toMatch(/\{base_url/);
        expect(rendered, api.name).not.toContain(`${inject('docsUrl')}{`);
        const servers = (api.document as { servers?: { variables?: Record<string, { default: string }> }[] })
          .servers;
        for (const server of servers ?? [])
          for (const variable of Object.values(server.variables ?? {}))
            expect(rendered, api.name).toContain(variable.default);
      });

      it('asks for nothing the server does not have (the icon included)', async () => {
        await expectNothingMissing(tab, pageName);
      });

      const [searched] = cliOperations
        .filter((candidate) => candidate.facts.api === api.name)
        .sort((a, b) => unsaid(b) - unsaid(a));
      // On the page loaded already (a page load of its own cost more than the search).
      it(`search at this size finds ${searched?.facts.operationId} by its path, its summary and its txc name`, async () => {
        if (!searched) throw new Error(`${api.name} has no operation`);
        await tab.locator('[data-testid="search-trigger"]').first().click();
        for (const query of [searched.facts.path, searched.facts.summary, searched.name]) {
          // The search box keeps the focus: each query replaces the one before. Pasted whole, as
          // one input: typed a key at a time, the page searched its whole index once per key.
          await tab.keyboard.press('Control+A');
          await tab.keyboard.insertText(query);
          await tab
            .locator('[data-component-name="Search/SearchItem"]', { hasText: searched.facts.summary })
            .first()
            .waitFor({ timeout: timeLimits.runMs });
        }
        // Closed (and emptied) for the tests after it.
        await tab.keyboard.press('Escape');
        await tab.locator('[data-component-name="Search/SearchItem"]').first().waitFor({ state: 'detached' });
        expect(watchOf(tab).blocked).toEqual([]);
      });

      if (api.name === tried)
        it('search snippets keep the spaces between words', async () => {
          await tab.locator('[data-testid="search-trigger"]').first().click();
          await tab.keyboard.type('cached');
          const results = tab.locator('[data-component-name="Search/SearchItem"]');
          await results
            .getByText('The response is not cached')
            .first()
            .waitFor({ timeout: timeLimits.runMs });
          const snippets = await results.allInnerTexts();
          await tab.screenshot({ path: join(reports, 'docs-search.png') });
          expect(snippets.length).toBeGreaterThan(1);
          // Words of two lines of a description ("is" / "not cached") or of two list items.
          for (const snippet of snippets)
            expect(snippet).not.toMatch(/isnot|thespecification|[a-z]\.[A-Z][a-z]/);
        });

      describe('a page of an operation of each request shape', () => {
        let fewPage: FewOperationsPage;
        let fewTab: Page;
        let check: PageCheck | undefined;
        /** Each operation's Try it call, by operationId. */
        const tries = new Map<string, TryItCall>();
        const fewUrl = () => `${fewServer.url}${fewPage.file}`;
        const expected = () =>
          expectedOperations(api.name).filter((operation) =>
            fewPage.tryIt.operations.some((entry) => entry.operationId === operation.operationId),
          );

        /** Whether the key and secret are typed into the panel (once: it keeps them). */
        let keyTyped = false;
        /**
         * Sends `operation` from the panel, as a reader does: on its route (where the page check
         * is), the panel opened by its button the first time, the sandbox's origin and the key
         * typed in once (the panel keeps them), the body as the panel fills it in.
         */
        async function sendFromPanel(operation: TryItOperation, firstCall: boolean): Promise<TryItCall> {
          await visitRoute(fewTab, operation.route);
          if (firstCall) {
            // The panel opens on the operation the address shows.
            await fewTab.locator('#try-it-toggle').click();
            await fewTab.locator('#try-it-target').fill(sandbox.url);
          }
          // Another operation of the same page only changes the address: the panel stays open.
          const panelVisible = await fewTab.locator('#try-it').isVisible();
          const shown = await fewTab.locator('#try-it-operation').innerText();
          const body = JSON.parse(await fewTab.locator('#try-it-body').inputValue());
          if (operation.signed && !keyTyped) {
            await fewTab.locator('#try-it-key').fill(key.apiKey);
            await fewTab.locator('#try-it-secret').fill(key.secret);
            keyTyped = true;
          }
          const placed = await readyFor(sandbox, key, operation);
          const before = answered.length;
          await fewTab.locator('#try-it-send').click();
          await fewTab.locator('#try-it-answer').waitFor({ timeout: timeLimits.runMs });
          const answer = await fewTab.locator('#try-it-answer').innerText();
          return {
            panelVisible,
            shown,
            body,
            placed,
            answered: answered.slice(before),
            status: Number(await fewTab.locator('#try-it-answer').getAttribute('data-status')),
            // Below its first line, `HTTP <status>`.
            answer: answer.slice(answer.indexOf('\n') + 1),
            request: await fewTab.locator('#try-it-request').innerText(),
            // The secret is never on the page, in any text it shows or hides: its text as written
            // (textContent, a superset of the rendered innerText that needs no layout of the page).
            secretOnPage: await fewTab.evaluate(
              (secret) => document.body.textContent?.includes(secret),
              key.secret,
            ),
          };
        }

        beforeAll(async () => {
          fewPage = few.get(api.name) as FewOperationsPage;
          fewTab = await site.newPage();
        });
        afterAll(() => fewTab?.close());

        it('lists each with its fields, responses and sample, at the route the index links it by, offline and without errors', async () => {
          expect(expected().length).toBeGreaterThan(0);
          const watch = () => withoutAnswersFrom(watchOf(fewTab), sandbox.url);
          // One pass over the page's operations for the page check and Try it both: Redoc renders
          // a section as it is opened, the most of the page's time.
          check = await checkPage(fewTab, watch, fewUrl(), expected(), {
            load: true,
            whileShown: async (shown) => {
              const operation = fewPage.tryIt.operations.find(
                (entry) => entry.operationId === shown.operationId,
              );
              if (!operation) return;
              try {
                tries.set(operation.operationId, await sendFromPanel(operation, tries.size === 0));
              } catch (error) {
                tries.set(operation.operationId, { error: (error as Error).message });
              }
            },
          });
          expect(check.blocked).toEqual([]);
          expect(check.consoleErrors).toEqual([]);
          expect(check.problems).toEqual([]);
          // The page check went to each operation's route, as Redoc's sidebar gives it, and found
          // its section there: the route the index's link to it ends with.
          for (const group of own)
            for (const operation of group.operations)
              if (check.routes.has(operation.operationId))
                expect(`#${check.routes.get(operation.operationId)}`, operation.operationId).toBe(
                  `#${operationHref(group.page, group.tag, operation.operationId).split('#')[1]}`,
                );
          expect([...check.routes.keys()].sort()).toEqual(
            expected()
              .map((operation) => operation.operationId)
              .sort(),
          );
        });

        it('Try it: each is sent from the page, signed in the browser, and the sandbox accepts it', async () => {
          // Every operation was sent, each while the page showed it.
          expect([...tries.keys()].sort()).toEqual(
            fewPage.tryIt.operations.map((operation) => operation.operationId).sort(),
          );
          for (const operation of fewPage.tryIt.operations) {
            const call = tries.get(operation.operationId);
            const id = operation.operationId;
            if (!call || 'error' in call) throw new Error(`${id}: Try it failed: ${call?.error}`);
            expect(call.panelVisible, id).toBe(true);
            expect(call.shown, id).toBe(`${operation.method.toUpperCase()} ${operation.path}`);
            // The body starts from the first named example.
            expect(call.body, id).toEqual(operation.examples[0]?.fields ?? {});
            expectSandboxTook(operation, call, sandbox.url);
            expect(call.secretOnPage, id).toBe(false);
          }
          // The secret was typed into a password field.
          if (fewPage.tryIt.operations.some((operation) => operation.signed))
            expect(await fewTab.locator('#try-it-secret').getAttribute('type')).toBe('password');
          // The page as the last operation's call left it: its request and answer shown.
          await fewTab.screenshot({ path: join(reports, `docs-try-it-${api.name}.png`) });
          expect(watchOf(fewTab).blocked).toEqual([]);
        });

        // Tried on one page: the panel's script is the same on every page.
        if (api.name === tried)
          it('Try it never sends to an origin that is not this machine', async () => {
            const [operation] = fewPage.tryIt.operations;
            if (!operation) throw new Error('no operation');
            // The panel is open (the tests above): it shows the operation the address shows.
            await visitRoute(fewTab, operation.route);
            expect(await fewTab.locator('#try-it').isVisible()).toBe(true);
            await fewTab.locator('#try-it-target').fill('https://api.example.com');
            await fewTab.locator('#try-it-send').click();
            expect(await fewTab.locator('#try-it-result').innerText()).toMatch(
              /^Not sent: api\.example\.com is not this machine/,
            );
            expect(watchOf(fewTab).blocked).toEqual([]);
          });
      });
    });
  }
});

describe('docs site: the txc page', () => {
  let tab: Page;

  it("is linked from the index and shows txc --help and every subcommand's, as the CLI prints them", async () => {
    const link = index.locator('#command-line a');
    expect(await link.getAttribute('href')).toBe('./cli.html');
    tab = await openFromIndex(link);
    expect(tab.url()).toBe(`${inject('docsUrl')}cli.html`);
    const text = await tab.locator('main').innerText();
    expect(text).toContain('Usage: txc [options] [command]');
    for (const operation of cliOperations) {
      expect(text).toContain(`Usage: txc ${operation.name}|${operation.facts.operationId} [options]`);
      expect(text).toContain(`${operation.facts.rateLimit.requests} requests per`);
    }
  });

  it('asks for nothing the server does not have (the icon included)', async () => {
    await expectNothingMissing(tab, 'cli.html');
  });
});

describe('docs site: the signing recipes', () => {
  it('the index links the signing page, which shows each recipe file as it is', async () => {
    const page = await openFromIndex(index.locator('#signing a'));
    for (const recipe of recipes) {
      const section = page.locator(`section.recipe#${recipe.id}`);
      expect(await section.locator('pre.source').textContent()).toBe(recipeSource(recipe));
      expect(await section.locator('pre.usage').innerText()).toBe(recipeUsage(recipe));
    }
    const headers = await page.locator('#signing-headers').innerText();
    for (const name of Object.values(signingHeaders)) expect(headers).toContain(name);
    await page.screenshot({ path: join(reports, 'docs-signing.png') });
  });
});

describe('docs site: the guides', () => {
  const guides = loadGuides(projectRoot);
  /** Each page a guide links to, fetched once for all the guides (not loaded in a tab). */
  const fetched = new Map<string, string>();

  it('the index links every guide of docs/guides/, by its title, beside the references', async () => {
    const listed = await index
      .locator('#guide-list a')
      .evaluateAll((anchors) =>
        anchors.map((anchor) => ({ href: anchor.getAttribute('href'), text: anchor.textContent })),
      );
    expect(listed).toEqual(guides.map((guide) => ({ href: `./${guide.file}`, text: guide.title })));
    expect(guides.length).toBeGreaterThanOrEqual(11);
  });

  for (const guide of guides) {
    // One tab per guide, opened from the index once; every check of the guide reads that tab.
    it(`${guide.name}: renders its Markdown, no link is broken, it fits a phone, and it asks for nothing outside 127.0.0.1`, async () => {
      const tab = await openFromIndex(index.locator(`#guide-list a[href="./${guide.file}"]`));
      try {
        expect(tab.url()).toBe(`${inject('docsUrl')}${guide.file}`);
        expect(await tab.locator('main h1').innerText()).toBe(guide.title.replace(/`/g, ''));
        const fences = (guide.markdown.match(/^```/gm)?.length ?? 0) / 2;
        expect(await tab.locator('main pre > code').count()).toBe(fences);
        // A table's rule row, at the margin or indented under a list item.
        const tables = guide.markdown.match(/^ *\|[-|: ]+\|$/gm)?.length ?? 0;
        expect(await tab.locator('main table').count()).toBe(tables);
        // No Markdown left unrendered: no fence, table rule or link syntax in the text.
        const text = await tab.locator('main').innerText();
        expect(text).not.toMatch(/^```|^\|---|\]\(\.\//m);

        const links = await tab
          .locator('a[href]')
          .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
        for (const href of new Set(links)) {
          const target = new URL(href);
          expect(target.origin, `${guide.file}: ${href}`).toBe(new URL(inject('docsUrl')).origin);
          const path = `${target.origin}${target.pathname}`;
          if (!fetched.has(path)) {
            const response = await tab.request.get(path);
            expect(response.status(), `${guide.file}: ${href}`).toBe(200);
            fetched.set(path, await response.text());
          }
          // A reference page's hash is a Redoc route (`#/tag/…`), not an element's id.
          const id = decodeURIComponent(target.hash.slice(1));
          if (id && !id.startsWith('/'))
            expect(fetched.get(path), `${guide.file}: ${href}`).toContain(`id="${id}"`);
        }

        await tab.setViewportSize({ width: 390, height: 844 });
        const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, guide.file).toBeLessThanOrEqual(0);
        await expectNothingMissing(tab, guide.file);
        expect(watchOf(tab).blocked).toEqual([]);
        expect(watchOf(tab).consoleErrors).toEqual([]);
      } finally {
        await tab.close();
      }
    });
  }
});

/** Every x-field-name written in a schema, at any depth: the names a positional field is shown by. */
function fieldNames(schema: unknown, into: string[] = []): string[] {
  if (Array.isArray(schema)) for (const item of schema) fieldNames(item, into);
  else if (schema !== null && typeof schema === 'object')
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'x-field-name' && typeof value === 'string') into.push(value);
      else if (key !== 'examples') fieldNames(value, into);
    }
  return into;
}

describe('docs site: the stream pages', () => {
  const streamDocuments = loadStreamDocuments(projectRoot);

  it("the index links each stream document's page, and every channel of generated/streams.ts to its section", async () => {
    const documents = await index
      .locator('#stream-documents a')
      .evaluateAll((anchors) =>
        anchors.map((anchor) => ({ href: anchor.getAttribute('href'), text: anchor.textContent })),
      );
    expect(documents).toEqual(
      streamDocuments.map((document) => ({
        href: `./${streamPageName(document.name)}.html`,
        text: stringAt(document.document, 'info', 'title'),
      })),
    );
    const listed = await index.locator('#streams li[data-channel]').evaluateAll((items) =>
      items.map((item) => ({
        channel: item.getAttribute('data-channel'),
        href: item.querySelector('a')?.getAttribute('href'),
      })),
    );
    expect(listed).toEqual(
      Object.entries(streamChannels).map(([channel, facts]) => ({
        channel,
        href: channelHref(facts.document, channel),
      })),
    );
    // Each link's section is on its page (one request per page, not a page load per link).
    for (const document of streamDocuments) {
      const response = await index.request.get(
        new URL(`${streamPageName(document.name)}.html`, inject('docsUrl')).href,
      );
      expect(response.status()).toBe(200);
      const html = await response.text();
      for (const { href } of listed.filter((entry) =>
        entry.href?.startsWith(`./${streamPageName(document.name)}.`),
      ))
        expect(html, href ?? '').toContain(`id="${href?.split('#')[1]}"`);
    }
  });

  for (const stream of streamDocuments) {
    describe(stream.name, () => {
      const pageName = `${streamPageName(stream.name)}.html`;
      const channels = Object.entries(streamChannels).filter(([, facts]) => facts.document === stream.name);
      let tab: Page;

      beforeAll(async () => {
        tab = await openFromIndex(index.locator(`#stream-documents a[href="./${pageName}"]`));
      });
      afterAll(() => tab?.close());

      it('shows every channel of generated/streams.ts with its requests, updates, messages and sample', async () => {
        expect(channels.length).toBeGreaterThan(0);
        const shown = await tab.locator('section.channel').evaluateAll((sections) =>
          sections.map((section) => ({
            channel: section.getAttribute('data-channel'),
            summary: section.querySelector('.summary')?.textContent,
            requests: [...section.querySelectorAll('table.requests tbody tr')].map((row) => ({
              method: row.getAttribute('data-method'),
              message: row.querySelector('td:nth-child(2) a')?.getAttribute('href'),
              answer:
                row.querySelector('td:nth-child(3) a')?.getAttribute('href') ??
                row.lastElementChild?.textContent,
            })),
            updates: [...section.querySelectorAll('table.updates tbody tr')].map((row) => ({
              method: row.getAttribute('data-method'),
              message: row.querySelector('td:nth-child(2) a')?.getAttribute('href'),
              interval: row.lastElementChild?.textContent,
            })),
            messages: [...section.querySelectorAll('section.message')].map((message) => ({
              name: message.getAttribute('data-message'),
              id: message.id,
              fields: [...message.querySelectorAll('table.fields code.field')].map(
                (field) => field.textContent,
              ),
              examples: [...message.querySelectorAll('figure.example pre')].map(
                (example) => example.textContent,
              ),
            })),
            sample: section.querySelector('pre.sample')?.textContent,
          })),
        );
        expect(shown.map((section) => section.channel)).toEqual(channels.map(([channel]) => channel));
        const written = streamMessages(stream);
        for (const [channel, facts] of channels) {
          const section = shown.find((entry) => entry.channel === channel);
          const link = (message: string) => `#${messageAnchor(channel, message)}`;
          expect(section?.summary, channel).toBe(facts.summary);
          const requests: readonly { method: string | null; message: string; reply: string | null }[] =
            facts.requests;
          expect(section?.requests, channel).toEqual(
            requests.map((request) => ({
              method: request.method ?? '',
              message: link(request.message),
              answer: request.reply === null ? 'not shown' : link(request.reply),
            })),
          );
          const updates: readonly {
            method: string | null;
            message: string;
            intervalSeconds: number | null;
          }[] = facts.updates;
          expect(section?.updates, channel).toEqual(
            updates.map((update) => ({
              method: update.method ?? '',
              message: link(update.message),
              interval:
                update.intervalSeconds === null
                  ? 'as things happen'
                  : `about every ${update.intervalSeconds} s`,
            })),
          );
          // Every message of the channel once, each with its fields and the document's examples.
          const own = written.filter((entry) => entry.channel === channel);
          const names = [...new Set(own.map((entry) => stringAt(entry.message, 'name')))];
          expect(
            section?.messages.map((message) => message.name),
            channel,
          ).toEqual(names);
          for (const name of [
            ...requests.flatMap((request) => [request.message, request.reply]),
            ...updates.map((update) => update.message),
          ])
            if (name !== null) expect(names, channel).toContain(name);
          for (const message of section?.messages ?? []) {
            const model = own.find((entry) => stringAt(entry.message, 'name') === message.name)?.message;
            expect(message.id).toBe(messageAnchor(channel, message.name ?? ''));
            expect(message.fields.length, `${channel} ${message.name}`).toBeGreaterThan(0);
            for (const field of fieldNames(model?.payload))
              expect(message.fields, `${channel} ${message.name}`).toContain(field);
            expect(
              message.examples.map((text) => JSON.parse(text ?? '')),
              `${channel} ${message.name}`,
            ).toEqual(arrayAt(model, 'examples').map((example) => at(example, 'payload')));
          }
          // The generated sample, as a reader sees it: the package's stream client.
          expect(section?.sample, channel).toBe(
            readersSample(channel, join(projectRoot, streamSamplePath(channel))),
          );
          expect(section?.sample, channel).toContain('createStreamClient(');
          if (requests.some((request) => request.method?.endsWith('_subscribe')))
            expect(section?.sample, channel).toContain(`client.subscribe('${channel}'`);
        }
        await tab.screenshot({ path: join(reports, `docs-${streamPageName(stream.name)}.png`) });
      });

      it('shows the servers, the keepalive and the limits the documents give', async () => {
        const servers = await tab.locator('#servers').innerText();
        for (const origin of Object.values(streamServers[stream.name as keyof typeof streamServers]))
          expect(servers).toContain(origin);
        const keepalive = await tab.locator('#keepalive').innerText();
        expect(keepalive).toContain(streamKeepalive.method);
        expect(keepalive).toContain(`${streamKeepalive.idleCloseSeconds} s`);
        const limit = streamRateLimits[stream.name as keyof typeof streamRateLimits];
        expect(await tab.locator('#limits').innerText()).toContain(
          `${limit.connections} connections and ${limit.requests} requests per ${limit.windowSeconds} s`,
        );
      });

      it('no link is broken, and the page fits a phone screen', async () => {
        const links = await tab
          .locator('a[href]')
          .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
        const pages = new Map<string, string>();
        for (const href of new Set(links)) {
          const target = new URL(href);
          expect(target.origin, href).toBe(new URL(inject('docsUrl')).origin);
          const path = `${target.origin}${target.pathname}`;
          if (!pages.has(path)) {
            const response = await tab.request.get(path);
            expect(response.status(), href).toBe(200);
            pages.set(path, await response.text());
          }
          const anchor = decodeURIComponent(target.hash.slice(1));
          if (anchor) expect(pages.get(path), href).toContain(`id="${anchor}"`);
        }
        await tab.setViewportSize({ width: 390, height: 844 });
        try {
          const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow).toBeLessThanOrEqual(0);
        } finally {
          await tab.setViewportSize(checkViewport);
        }
      });

      it('asks for nothing the server does not have, and nothing outside 127.0.0.1', async () => {
        await expectNothingMissing(tab, pageName);
        expect(watchOf(tab).blocked).toEqual([]);
        expect(watchOf(tab).consoleErrors).toEqual([]);
      });
    });
  }
});

describe('the page check fails when it should', () => {
  // On the page of a few operations of a document (the fewest): its document without the others.
  const smallest = async () => {
    const { pages, server } = await fewOperationsPages();
    const [name, page] =
      [...pages].sort(([, a], [, b]) => a.tryIt.operations.length - b.tryIt.operations.length)[0] ?? [];
    if (!name || !page) throw new Error('no page of a few operations');
    return { name, page, server };
  };

  it('reports an operation that disappeared from a document', async () => {
    const { name, page, server } = await smallest();
    const onPage = (operationId: string) =>
      page.tryIt.operations.some((operation) => operation.operationId === operationId);
    const all = expectedOperations(name);
    const kept = all.find((operation) => onPage(operation.operationId));
    const removed = all.find((operation) => !onPage(operation.operationId));
    if (!kept || !removed) throw new Error(`${name}: no operation left out of its page of a few`);
    // A page the check expecting both must find whole but for the one its document left out.
    const result = await checkDocsPage(browser, `${server.url}${page.file}`, [kept, removed]);
    expect(result.problems).toEqual([`${removed.operationId} is not listed`]);
  });

  it('reports requests that leave 127.0.0.1 (a page as build-docs writes it, loading Redoc from a CDN)', async () => {
    const { name, page } = await smallest();
    const dir = tempDir();
    // The page build-docs wrote for it (kept, scripts/output-cache.ts), before the build points
    // it at the site's own copy of Redoc.
    copyFileSync(page.buildDocsPage, join(dir, 'page.html'));
    const expected = expectedOperations(name).filter((operation) =>
      page.tryIt.operations.some((entry) => entry.operationId === operation.operationId),
    );
    const result = await withServer(dir, (url) => checkDocsPage(browser, `${url}page.html`, expected));
    expect(result.blocked.length).toBeGreaterThan(0);
    expect(result.blocked.every((url) => !url.startsWith('http://127.0.0.1'))).toBe(true);
    expect(result.problems).toContain(`request blocked: ${result.blocked[0]}`);
  });
});

// What a sample should be, computed here from the generated file and the documents, not by the
// build's helpers: a broken helper would otherwise build the expectation it is checked against.

/** A sample as a reader sees it: the generated file without its first line, which says so. */
function readersSample(operationId: string, file = sampleFile(operationId)): string {
  const [header, ...lines] = readFileSync(file, 'utf8').split('\n');
  expect(header, operationId).toMatch(/^\/\/ Generated by /);
  return lines.join('\n');
}

/** A value as a sample writes it: a string in single quotes, a number or a boolean as it is. */
const literal = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : String(value));

/** Each field of an example with its value, as the sample must hold it (`market: 'BTC_USDT'`). */
function exampleFields(value: unknown, name?: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => exampleFields(item));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([field, item]) => exampleFields(item, field));
  return [name === undefined ? literal(value) : `${name}: ${literal(value)}`];
}

/**
 * What the documents say a sample is made from: a GET's parameter examples, else its first named
 * request example without the fields the client signs for the caller.
 */
function sampleExample(operationId: keyof typeof operations): { name?: string; fields: unknown } {
  const view = documentModel().operation(operationId);
  if (operations[operationId].method === 'get') return { fields: view.parametersExample ?? {} };
  const first = view.requestExamples[0];
  const fields = Object.entries((first?.value ?? {}) as Record<string, unknown>).filter(
    ([field]) => !(signedBodyFields as readonly string[]).includes(field),
  );
  return { ...(first && { name: first.name }), fields: Object.fromEntries(fields) };
}

describe('code samples', () => {
  it('every operation has its sample, derived from its request example, that fits its panel', () => {
    expect(findMissingSamples()).toEqual([]);
    for (const operation of Object.values(operations)) {
      const sample = readersSample(operation.operationId);
      expect(sample).toContain(`client.${operation.method.toUpperCase()}('${operation.path}'`);
      const { name, fields } = sampleExample(operation.operationId);
      if (name) {
        expect(readFileSync(sampleFile(operation.operationId), 'utf8')).toContain(
          `from the request example \`${name}\` of ${operation.operationId}`,
        );
      }
      for (const field of exampleFields(fields)) expect(sample, operation.operationId).toContain(field);
      const wide = sample.split('\n').filter((line) => line.length > sampleLineWidth);
      expect(wide, operation.operationId).toEqual([]);
    }
  });

  // That the documents build-docs reads give every operation its sample as x-codeSamples is
  // checked on what it wrote: the document each built page gives Redoc (reference-pages.test.ts).

  it('an operation without its sample is reported', () => {
    const root = tempDir();
    cpSync(join(projectRoot, 'redocly.yaml'), join(root, 'redocly.yaml'));
    cpSync(join(projectRoot, 'openapi'), join(root, 'openapi'), { recursive: true });
    cpSync(join(projectRoot, 'generated/samples'), join(root, 'generated/samples'), { recursive: true });
    const [operation] = Object.values(operations);
    if (!operation) throw new Error('no operation');
    rmSync(sampleFile(operation.operationId, root));
    expect(findMissingSamples(root)).toEqual([
      `${operation.operationId}: no sample generated/samples/${operation.operationId}.ts (run npm run generate)`,
    ]);
  });
});
