// The reference pages in a real browser, offline, beside the rest of the site (site.test.ts): each
// page loaded once from the index and checked where only a browser shows it; a page of a few of
// each document's operations, one of each request shape (request-shapes.ts), on which every
// section is checked and every operation sent from the Try it panel; and the page check itself,
// shown failing when it should. What every operation of the whole pages holds, and every
// operation's Try it request, are checked without a browser (reference-pages.test.ts).
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { documentModel } from '../../model/model.ts';
import { credentialKey, loadFixture } from '../../sandbox/fixture.ts';
import { type Sandbox, startSandbox } from '../../sandbox/server.ts';
import { timeLimits } from '../../scripts/time-limits.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { operationGroups, operationHref } from '../landing.ts';
import {
  checkDocsPage,
  checkPage,
  checkShownOperation,
  expectedOperations,
  type PageCheck,
  withoutAnswersFrom,
} from '../page-check.ts';
import type { TryItOperation } from '../try-it.ts';
import type { FewOperationsPage } from './few-operations-pages.ts';
import {
  apis,
  browser,
  expectNothingMissing,
  fewOperationsPages,
  index,
  openFromIndex,
  reports,
  site,
  tempDir,
  useSiteInBrowser,
  visitRoute,
  watchOf,
  withServer,
} from './site-in-browser.ts';
import { expectSandboxTook, readyFor, type TryItOutcome } from './try-it-calls.ts';

useSiteInBrowser();

const groups = operationGroups(apis);

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
