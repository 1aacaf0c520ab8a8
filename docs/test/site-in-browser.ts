// What the browser tests of the site share: Chromium with the index loaded in a watched context
// (docs/page-check.ts), following the index's links as a reader does, the pages of a few
// operations of each request shape (request-shapes.ts), and temporary directories. A test file
// calls useSiteInBrowser() once; the bindings below are set by its hooks.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { loadApiDocuments } from '../../model/document.ts';
import { checkViewport, launchChromium, type PageWatch, watchPages } from '../page-check.ts';
import { projectRoot } from '../samples.ts';
import { serveStatic } from '../serve.ts';
import { tryItData } from '../try-it.ts';
import { buildFewOperationsPages, type FewOperationsPage } from './few-operations-pages.ts';
import { oneOfEachShape } from './request-shapes.ts';

export const reports = join(projectRoot, 'reports');
export const apis = loadApiDocuments(projectRoot);
const tempDirs: string[] = [];
export const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-test-'));
  tempDirs.push(dir);
  return dir;
};

export let browser: Browser;
/** The site's own pages, each a tab of one context (docs/page-check.ts watches them all). */
export let site: BrowserContext;
export let watchOf: (page: Page) => PageWatch;
/** The index, loaded once: its checks share it, and the other pages are opened from its links. */
export let index: Page;
export const indexViewport = { width: 1200, height: 900 };

/**
 * The pages of an operation of each request shape (request-shapes.ts), one per document, built
 * and served once for the tests that load them.
 */
let fewPages: Promise<{
  pages: Map<string, FewOperationsPage>;
  server: { url: string; close(): Promise<void> };
}>;
export function fewOperationsPages(): typeof fewPages {
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

/**
 * Follows a link of the index as a reader does, clicked, but into a tab of its own (Ctrl-click),
 * so that the index stays loaded for the next link; resolves once the page is loaded and quiet,
 * and in front: a tab left behind the index is drawn seldom, and Redoc fills a section's sample
 * panel only once it is drawn in view (left behind, the page check missed samples).
 */
export async function openFromIndex(link: Locator): Promise<Page> {
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
export function followRoute(page: Page, route: string): Promise<void> {
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
export async function visitRoute(page: Page, route: string): Promise<void> {
  if (decodeURIComponent(new URL(page.url()).hash) !== `#${route}`) await followRoute(page, route);
}

/** Serves `dir` for the duration of `use`. */
export async function withServer<T>(dir: string, use: (url: string) => Promise<T>): Promise<T> {
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
export async function expectNothingMissing(page: Page, name: string, watch = watchOf(page)): Promise<void> {
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(icon, name).toBeTruthy();
  const response = await page.request.get(new URL(icon ?? '', page.url()).href);
  expect(response.status(), `${name}: ${icon}`).toBe(200);
  expect(watch.failed, name).toEqual([]);
}

/**
 * Opens the site in Chromium for the test file that calls it (once, at its top): the index in a
 * tab of one watched context, before its tests; and closes the browser, the pages of a few
 * operations' server and the temporary directories after them. Each test file has a browser of
 * its own, so that two files run side by side.
 */
export function useSiteInBrowser(): void {
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
    if (fewPages) await (await fewPages.catch(() => undefined))?.server.close();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
}
