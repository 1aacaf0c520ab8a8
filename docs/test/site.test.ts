// The docs site in a real browser, offline: every request that would leave 127.0.0.1 is blocked
// and counted as a failure. The expected operations come from generated/operations.ts, the stream
// pages' channels from generated/streams.ts. Each page of the site is loaded once, and the checks
// of a page share it, in order: the index, and each page its links lead to, opened from it in a
// tab of the same browser context. Each guide is opened once, from the index, and the pages its
// links lead to are fetched once for all of them, not loaded.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { operations, signedBodyFields, signingHeaders } from '../../generated/operations.ts';
import { streamChannels, streamKeepalive, streamRateLimits, streamServers } from '../../generated/streams.ts';
import { loadApiDocuments, loadApiDocumentsFrom, workingTreeReader } from '../../model/document.ts';
import { arrayAt, at, stringAt } from '../../model/json.ts';
import { documentModel, placedBy } from '../../model/model.ts';
import { loadStreamDocuments, streamDocumentFiles, streamMessages } from '../../model/streams.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { documentsWithSamples } from '../../scripts/code-samples.ts';
import { streamSamplePath } from '../../scripts/stream-samples.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { createPrivateClient } from '../../src/index.ts';
import { loadGuides } from '../guides.ts';
import { operationGroups, operationHref, rateLimitText } from '../landing.ts';
import { streamPageName } from '../layout.ts';
import {
  checkDocsPage,
  checkPage,
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
import { buildDocsOutput, buildPage, writeRedocAssets } from '../site.ts';
import { channelHref, messageAnchor } from '../stream-page.ts';
import { type TryItOperation, tryItData } from '../try-it.ts';

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

afterAll(async () => {
  await browser?.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Follows a link of the index as a reader does, clicked, but into a tab of its own (Ctrl-click),
 * so that the index stays loaded for the next link; resolves once the page is loaded and quiet,
 * and in front: a tab left behind the index is drawn seldom, and Redoc fills a section's sample
 * panel only once it is drawn in view (left behind, the page check missed samples).
 */
async function openFromIndex(link: Locator): Promise<Page> {
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
  | {
      /** The panel was open. */
      panelVisible: boolean;
      /** The operation the panel named. */
      shown: string;
      /** The body the panel started from. */
      body: unknown;
      /** The operation that placed the order the example names first, and its error if any. */
      placed: { operationId: string; error: unknown } | undefined;
      /** The sandbox's log lines for the call. */
      answered: string[];
      status: number;
      answer: string;
      request: string;
      secretOnPage: boolean | undefined;
    }
  | { error: string };

/** The example the operation documents as its refusal while the account is in some state, of this status. */
function refusedWhile(operationId: string, status: number): unknown {
  const response = documentModel().operation(operationId).responses.get(status);
  const examples = (documentModel().operation(operationId).object.responses as Record<string, unknown>)?.[
    String(status)
  ] as
    | { content?: { 'application/json'?: { examples?: Record<string, Record<string, unknown>> } } }
    | undefined;
  const named = Object.entries(examples?.content?.['application/json']?.examples ?? {}).find(
    ([, example]) => example['x-refused-while'] !== undefined,
  );
  return named && response ? named[1].value : undefined;
}

describe('docs site: the reference pages', () => {
  const key = credentialKey(loadFixture());
  const answered: string[] = [];
  let sandbox: Sandbox;

  beforeAll(async () => {
    const docsOrigin = new URL(inject('docsUrl')).origin;
    sandbox = await startSandbox({ port: 0, corsOrigins: [docsOrigin], log: (line) => answered.push(line) });
  });
  afterAll(() => sandbox?.close());

  // The page the search and the refusal of another origin are tried on.
  const tried = (apis.find((candidate) => candidate.name === 'private-v4') ?? apis[0])?.name;

  for (const api of apis) {
    describe(api.name, () => {
      const pageName = `${api.name}.html`;
      const own = groups.filter((group) => group.page === pageName);
      const first = own[0]?.operations[0];
      const pageUrl = () => `${inject('docsUrl')}${pageName}`;

      // The page is loaded once, from the index's first link to it, at that operation's address,
      // and its checks share it: the page check from the page's top, then the Try it panel.
      let tab: Page;
      let check: PageCheck | undefined;
      const tryIt = tryItData(api);
      /** Each operation's Try it call, by operationId. */
      const tries = new Map<string, TryItCall>();
      /**
       * One pass over the page's operations for the page check and Try it both: each section is
       * checked, then its operation sent from the panel while Redoc shows it. Redoc renders a
       * section as it is opened, the most of the page's time; a second pass would render each again.
       */
      let pass: Promise<PageCheck> | undefined;
      const checkAndTry = (): Promise<PageCheck> => {
        pass ??= (async () => {
          // From the page's top, as its own address opens it: the link opened it at an operation.
          await tab.evaluate(() => {
            location.hash = '';
          });
          const watch = () => withoutAnswersFrom(watchOf(tab), sandbox.url);
          return checkPage(tab, watch, pageUrl(), expectedOperations(api.name), {
            screenshot: join(reports, `docs-${api.name}.png`),
            whileShown: async (shown) => {
              const operation = tryIt.operations.find((entry) => entry.operationId === shown.operationId);
              if (!operation) return;
              try {
                tries.set(operation.operationId, await sendFromPanel(operation, tries.size === 0));
              } catch (error) {
                tries.set(operation.operationId, { error: (error as Error).message });
              }
            },
          });
        })();
        return pass;
      };

      /** Whether the key and secret are typed into the panel (once: it keeps them). */
      let keyTyped = false;
      /**
       * Sends `operation` from the panel, as a reader does: on its route (where the page check
       * is), the panel opened by its button the first time, the sandbox's origin and the key
       * typed in once (the panel keeps them), the body as the panel fills it in.
       */
      async function sendFromPanel(operation: TryItOperation, first: boolean): Promise<TryItCall> {
        await visitRoute(tab, operation.route);
        if (first) {
          // The panel opens on the operation the address shows.
          await tab.locator('#try-it-toggle').click();
          await tab.locator('#try-it-target').fill(sandbox.url);
        }
        // Another operation of the same page only changes the address: the panel stays open.
        const panelVisible = await tab.locator('#try-it').isVisible();
        const shown = await tab.locator('#try-it-operation').innerText();
        const body = JSON.parse(await tab.locator('#try-it-body').inputValue());
        if (operation.signed && !keyTyped) {
          await tab.locator('#try-it-key').fill(key.apiKey);
          await tab.locator('#try-it-secret').fill(key.secret);
          keyTyped = true;
        }
        // From the fixture's state each time (nonces kept): an example names the order it
        // cancels or changes, which an earlier operation's example may have spent.
        sandbox.reset();
        const placing = placedBy(documentModel(), operation.operationId, operation.examples[0]?.fields ?? {});
        let placed: { operationId: string; error: unknown } | undefined;
        if (placing) {
          const client = createPrivateClient({
            apiKey: key.apiKey,
            apiSecret: key.secret,
            baseUrl: sandbox.url,
          });
          const { error } = await client.POST(placing.path as never, {
            body: (placing.requestExamples[0]?.value ?? {}) as never,
          });
          await client.close();
          placed = { operationId: placing.operationId, error };
        }
        const before = answered.length;
        await tab.locator('#try-it-send').click();
        await tab.locator('#try-it-answer').waitFor({ timeout: timeLimits.runMs });
        return {
          panelVisible,
          shown,
          body,
          placed,
          answered: answered.slice(before),
          status: Number(await tab.locator('#try-it-answer').getAttribute('data-status')),
          answer: await tab.locator('#try-it-answer').innerText(),
          request: await tab.locator('#try-it-request').innerText(),
          // The secret is never on the page, in any text it shows or hides: its text as written
          // (textContent, a superset of the rendered innerText that needs no layout of the page).
          secretOnPage: await tab.evaluate(
            (secret) => document.body.textContent?.includes(secret),
            key.secret,
          ),
        };
      }

      beforeAll(async () => {
        if (!first) throw new Error(`the index lists no operation of ${api.name}`);
        tab = await openFromIndex(index.locator(`li[data-operation-id="${first.operationId}"] a`));
      });
      afterAll(() => tab?.close());

      it("the index's first link to it opens it at that operation's section", async () => {
        const group = own[0] as (typeof own)[number];
        const href = operationHref(group.page, group.tag, first?.operationId as string);
        const route = href.split('#')[1];
        await tab.locator(`[data-section-id="${route}"]`).first().waitFor({ timeout: timeLimits.runMs });
        expect(tab.url()).toContain(group.page);
      });

      it('lists every operation with its fields, responses and sample, offline and without errors', async () => {
        expect(expectedOperations(api.name).length).toBeGreaterThan(0);
        check = await checkAndTry();
        expect(check.blocked).toEqual([]);
        expect(check.consoleErrors).toEqual([]);
        expect(check.problems).toEqual([]);
      });

      it("each other link of the index to it opens its operation's section", () => {
        // The page check went to each operation's route within the page, as following a link of
        // the index to the page loaded already does, and found its section there.
        expect(check?.problems).toEqual([]);
        for (const group of own) {
          for (const operation of group.operations) {
            const href = operationHref(group.page, group.tag, operation.operationId);
            expect(new URL(href, inject('docsUrl')).href).toBe(
              `${pageUrl()}#${check?.routes.get(operation.operationId)}`,
            );
          }
        }
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
        // The sandbox's answers to Try it (a documented refusal among them) are the next test's.
        await expectNothingMissing(tab, pageName, withoutAnswersFrom(watchOf(tab), sandbox.url));
      });

      it('Try it: every operation is sent from its page, signed in the browser, and the sandbox accepts it', async () => {
        expect(tryIt.operations.map((operation) => operation.operationId).sort()).toEqual(
          expectedOperations(api.name)
            .map((operation) => operation.operationId)
            .sort(),
        );
        await checkAndTry();
        // Every operation was sent, each while the page showed it.
        expect([...tries.keys()].sort()).toEqual(
          tryIt.operations.map((operation) => operation.operationId).sort(),
        );
        for (const operation of tryIt.operations) {
          const call = tries.get(operation.operationId);
          const id = operation.operationId;
          if (!call || 'error' in call) throw new Error(`${id}: Try it failed: ${call?.error}`);
          expect(call.panelVisible, id).toBe(true);
          expect(call.shown, id).toBe(`${operation.method.toUpperCase()} ${operation.path}`);
          // The body starts from the first named example.
          expect(call.body, id).toEqual(operation.examples[0]?.fields ?? {});
          // An order the example names was placed first, and the sandbox took it.
          if (call.placed) expect(call.placed.error, call.placed.operationId).toBeUndefined();
          // The default account holds positions: an operation the service refuses while it does
          // (x-refused-while) must get exactly that documented refusal; every other is accepted.
          const refusal = refusedWhile(operation.operationId, call.status);
          if (refusal) {
            expect(JSON.parse(call.answer.slice(call.answer.indexOf('\n') + 1)), id).toEqual(refusal);
          } else {
            // A fiat-gateway call is sent after the signed call that issues its token.
            const issuing = operation.token
              ? [expect.stringMatching(new RegExp(`^${operation.token.sourceOperationId} 2\\d\\d$`))]
              : [];
            expect(call.answered, id).toEqual([
              ...issuing,
              expect.stringMatching(new RegExp(`^${id} 2\\d\\d$`)),
            ]);
            expect(call.status, id).toBeGreaterThanOrEqual(200);
            expect(call.status, id).toBeLessThan(300);
          }
          // A path parameter is filled in from the example's fields.
          const fields = operation.examples[0]?.fields ?? {};
          const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => String(fields[name]));
          expect(call.request, id).toContain(`${operation.method.toUpperCase()} ${sandbox.url}${path}`);
          if (operation.signed) {
            for (const name of Object.values(signingHeaders)) expect(call.request, id).toContain(name);
          }
          // A token call shows its token's header, never the token itself.
          if (operation.token) {
            expect(call.request, id).toContain(
              `${operation.token.header}: (the token ${operation.token.sourcePath}`,
            );
            for (const name of Object.values(signingHeaders)) expect(call.request, id).not.toContain(name);
          }
          expect(call.secretOnPage, id).toBe(false);
        }
        // The secret was typed into a password field.
        if (tryIt.operations.some((operation) => operation.signed))
          expect(await tab.locator('#try-it-secret').getAttribute('type')).toBe('password');
        // The page as the last operation's call left it: its request and answer shown.
        await tab.screenshot({ path: join(reports, `docs-try-it-${api.name}.png`) });
        expect(watchOf(tab).blocked).toEqual([]);
      });

      const [searched] = cliOperations
        .filter((candidate) => candidate.facts.api === api.name)
        .sort((a, b) => unsaid(b) - unsaid(a));
      // On the page loaded already (a page load of its own cost more than the search).
      it(`search at this size finds ${searched?.facts.operationId} by its path, its summary and its txc name`, async () => {
        if (!searched) throw new Error(`${api.name} has no operation`);
        await tab.locator('[data-testid="search-trigger"]').first().click();
        for (const query of [searched.facts.path, searched.facts.summary, searched.name]) {
          // The search box keeps the focus: each query replaces the one before.
          await tab.keyboard.press('Control+A');
          await tab.keyboard.type(query);
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

      // Tried on one page: the panel's script and Redoc's search are the same on every page.
      if (api.name !== tried) return;

      it('Try it never sends to an origin that is not this machine', async () => {
        const [operation] = tryItData(api).operations;
        if (!operation) throw new Error('no operation');
        // The panel is open (the test above): it shows the operation the address shows.
        await visitRoute(tab, operation.route);
        expect(await tab.locator('#try-it').isVisible()).toBe(true);
        await tab.locator('#try-it-target').fill('https://api.example.com');
        await tab.locator('#try-it-send').click();
        expect(await tab.locator('#try-it-result').innerText()).toMatch(
          /^Not sent: api\.example\.com is not this machine/,
        );
        expect(watchOf(tab).blocked).toEqual([]);
      });

      it('search snippets keep the spaces between words', async () => {
        await tab.locator('[data-testid="search-trigger"]').first().click();
        await tab.keyboard.type('cached');
        // The words are on the page too, its sections shown by the checks above: the results' own.
        const results = tab.locator('[data-component-name="Search/SearchItem"]');
        await results.getByText('The response is not cached').first().waitFor({ timeout: timeLimits.runMs });
        const snippets = await results.allInnerTexts();
        await tab.screenshot({ path: join(reports, 'docs-search.png') });
        expect(snippets.length).toBeGreaterThan(1);
        // Words of two lines of a description ("is" / "not cached") or of two list items.
        for (const snippet of snippets)
          expect(snippet).not.toMatch(/isnot|thespecification|[a-z]\.[A-Z][a-z]/);
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
  it('reports an operation that disappeared from a document', async () => {
    const api = apis.find((candidate) => expectedOperations(candidate.name).length > 1);
    if (!api) throw new Error('no document with two operations to remove one from');
    const all = expectedOperations(api.name);
    const kept = all[0] as (typeof all)[number];
    const removed = all.at(-1) as (typeof all)[number];
    const pathOf = (operation: (typeof all)[number]) =>
      operations[operation.operationId as keyof typeof operations].path;
    // The root document with two operations (one operation per path item, each in its own file),
    // then without one of them: a page of one operation, which the check expecting both must
    // find whole but for the other.
    const document = parse(readFileSync(join(projectRoot, api.file), 'utf8'));
    expect(document.paths[pathOf(removed)]).toEqual({ $ref: expect.any(String) });
    expect(document.paths[pathOf(kept)]).toEqual({ $ref: expect.any(String) });
    document.paths = { [pathOf(kept)]: document.paths[pathOf(kept)] };
    const expected = [kept, removed];
    // The documents as build-docs reads them (every operation given its sample), laid out like
    // the project, so the parts' $refs resolve.
    const dir = tempDir();
    const copy = documentsWithSamples(projectRoot);
    cpSync(join(copy.dir, 'openapi'), join(dir, 'openapi'), { recursive: true });
    copy.remove();
    writeFileSync(join(dir, 'openapi/document.yaml'), stringify(document));
    await buildPage(
      join(dir, 'openapi/document.yaml'),
      join(dir, 'page.html'),
      writeRedocAssets(join(dir, 'assets')),
    );
    const result = await withServer(dir, (url) => checkDocsPage(browser, `${url}page.html`, expected));
    expect(result.problems).toEqual([`${removed.operationId} is not listed`]);
  });

  it('reports requests that leave 127.0.0.1 (a page as build-docs writes it, loading Redoc from a CDN)', async () => {
    const api = apis[0];
    if (!api) throw new Error('no document');
    const dir = tempDir();
    // The page build-docs wrote for the site, from the documents with their samples (the global
    // setup's build, kept, scripts/output-cache.ts): as build-docs writes it, before the site
    // points it at its own copy of Redoc.
    const copy = documentsWithSamples(projectRoot);
    try {
      copyFileSync(await buildDocsOutput(copy.file(api)), join(dir, 'page.html'));
    } finally {
      copy.remove();
    }
    const result = await withServer(dir, (url) =>
      checkDocsPage(browser, `${url}page.html`, expectedOperations(api.name)),
    );
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

  it('the documents build-docs reads give every operation its sample as x-codeSamples', () => {
    const copy = documentsWithSamples(projectRoot);
    try {
      const copied = loadApiDocumentsFrom(workingTreeReader(copy.dir));
      for (const operation of Object.values(operations)) {
        const api = copied.find((candidate) => candidate.name === operation.api);
        const paths = api?.dereferenced.paths as Record<
          string,
          Record<string, { 'x-codeSamples'?: unknown }>
        >;
        expect(paths[operation.path]?.[operation.method]?.['x-codeSamples'], operation.operationId).toEqual([
          {
            lang: 'TypeScript',
            label: 'TypeScript client',
            source: readersSample(operation.operationId),
          },
        ]);
      }
    } finally {
      copy.remove();
    }
  });

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
