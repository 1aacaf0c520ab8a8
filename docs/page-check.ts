// Checks a built docs page in a real browser: every expected operation is listed and shows its
// request fields, its responses and its TypeScript sample; nothing is fetched from outside
// 127.0.0.1; nothing is logged as an error. Returns the problems found (none when all is well).
import { readFileSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page, type Request } from 'playwright-core';
import { operations } from '../generated/operations.ts';
import { chromiumPath as findChromiumPath } from '../scripts/prerequisites.ts';
import { readerSource, sampleFile } from './samples.ts';

/** CHROMIUM_PATH, else the usual names and places (scripts/prerequisites.ts, checked first by npm test). */
export const chromiumPath = findChromiumPath();

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      ...extraArgs,
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ExpectedOperation {
  operationId: string;
  statuses: readonly number[];
  fields: string[];
  sample: string;
}

/** The operations of one API (its name in redocly.yaml), as generated/operations.ts lists them. */
export function expectedOperations(api: string): ExpectedOperation[] {
  return Object.values(operations)
    .filter((operation) => operation.api === api)
    .map((operation) => ({
      operationId: operation.operationId,
      statuses: operation.statuses,
      fields: 'body' in operation ? Object.keys(operation.body.properties) : [],
      sample: readerSource(readFileSync(sampleFile(operation.operationId), 'utf8')),
    }));
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

export interface PageCheck {
  problems: string[];
  blocked: string[];
  consoleErrors: string[];
  /** The route on the page of each expected operation it lists (by operationId), each visited. */
  routes: Map<string, string>;
}

/** What a page did that the checks look at, from its first request on. */
export interface PageWatch {
  /** Requests that would have left 127.0.0.1, blocked. */
  blocked: string[];
  /** Errors logged in its console and errors it did not catch. */
  consoleErrors: string[];
  /** Answers of 400 or more it got, as `status url`. */
  failed: string[];
}

const isLocal = (url: URL): boolean =>
  url.hostname === '127.0.0.1' ||
  url.protocol === 'data:' ||
  url.protocol === 'blob:' ||
  url.href === 'about:blank';

/**
 * Watches every page of `context`, a page opened by a link included, from its first request: each
 * request that would leave 127.0.0.1 is blocked, and it, each console error and each answer of 400
 * or more are listed for the page that made it. Returns the lists of a page.
 */
export async function watchPages(context: BrowserContext): Promise<(page: Page) => PageWatch> {
  const watches = new Map<Page, PageWatch>();
  /** Outside any page (a worker of the context): listed here, and shown with every page's. */
  const outside: PageWatch = { blocked: [], consoleErrors: [], failed: [] };
  const of = (page: Page | null | undefined): PageWatch => {
    if (!page) return outside;
    let watch = watches.get(page);
    if (!watch) {
      watch = { blocked: [], consoleErrors: [], failed: [] };
      watches.set(page, watch);
    }
    return watch;
  };
  const pageOf = (request: Request): Page | undefined => {
    try {
      return request.frame().page();
    } catch {
      return undefined;
    }
  };
  context.on('console', (message) => {
    // Where it comes from: for a resource that failed ("Failed to load resource"), its URL.
    const { url } = message.location();
    if (message.type() === 'error')
      of(message.page()).consoleErrors.push(url ? `${message.text()} (at ${url})` : message.text());
  });
  context.on('weberror', (error) => of(error.page()).consoleErrors.push(error.error().message));
  context.on('response', (response) => {
    if (response.status() >= 400)
      of(pageOf(response.request())).failed.push(`${response.status()} ${response.url()}`);
  });
  await context.route(
    (target) => !isLocal(target),
    (route) => {
      of(pageOf(route.request())).blocked.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  return (page) => {
    const watch = of(page);
    return {
      blocked: [...outside.blocked, ...watch.blocked],
      consoleErrors: [...outside.consoleErrors, ...watch.consoleErrors],
      failed: [...outside.failed, ...watch.failed],
    };
  };
}

/**
 * `watch` without the answers of `origin` (`http://127.0.0.1:port`) and the console's notes of
 * them: a test that sends there judges them itself (Try it's calls to the sandbox, a documented
 * refusal among them).
 */
export function withoutAnswersFrom(watch: PageWatch, origin: string): PageWatch {
  const from = (url: string | undefined) => url?.startsWith(`${origin}/`) === true;
  return {
    blocked: watch.blocked,
    consoleErrors: watch.consoleErrors.filter((text) => !from(/ \(at (\S+)\)$/.exec(text)?.[1])),
    failed: watch.failed.filter((answer) => !from(answer.split(' ')[1])),
  };
}

/** The viewport the reference pages are checked in. */
export const checkViewport = { width: 1400, height: 1000 };

/**
 * Opens `url` in a page of its own in `browser`, with every request that would leave 127.0.0.1
 * blocked, and checks it against `expected` (checkPage). With `screenshot`, saves a picture of the
 * page there.
 */
export async function checkDocsPage(
  browser: Browser,
  url: string,
  expected: ExpectedOperation[],
  screenshot?: string,
): Promise<PageCheck> {
  const context = await browser.newContext({ viewport: checkViewport });
  try {
    const watch = await watchPages(context);
    const page = await context.newPage();
    return await checkPage(page, () => watch(page), url, expected, { load: true, screenshot });
  } finally {
    await context.close();
  }
}

/**
 * What to do with each operation while its section is shown, after its check: the Try it panel
 * of a reference page is driven here, so that Redoc renders each section once for both.
 */
export type WhileShown = (operation: ExpectedOperation, route: string) => Promise<void>;

/**
 * Checks the page at `url` (loading it first with `load`, else as it is, loaded already, at any
 * address within it) against `expected`: every operation listed, each shown with its request
 * fields, responses and sample; nothing blocked, nothing logged as an error (`watch`). Returns the
 * problems found (none when all is well) and the route of each operation, each visited.
 * The operations are visited group by group, as the sidebar lists them, not in `expected`'s order:
 * Redoc renders the sections of one tag only, and leaving a tag and coming back renders all of its
 * visited sections again.
 * `whileShown` runs for each listed operation once its section is checked, before the next is opened.
 */
export async function checkPage(
  page: Page,
  watch: () => PageWatch,
  url: string,
  expected: ExpectedOperation[],
  options: { load?: boolean; screenshot?: string | undefined; whileShown?: WhileShown } = {},
): Promise<PageCheck> {
  // A page that never comes alive should fail the check soon, not after the default 30 s per step.
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  const checked = new Map<string, string>();
  try {
    if (options.load) await page.goto(url, { waitUntil: 'networkidle' });
    await page.locator('#redoc [data-section-id]').first().waitFor();
    if (options.screenshot) await page.screenshot({ path: options.screenshot });
    // A page that needs what was blocked cannot come alive offline (Redoc from a CDN renders no
    // section after a click): waiting out a limit per step would only delay the same verdict.
    if (watch().blocked.length > 0) throw new Error('it needs requests that were blocked, listed below');
    const pending = new Map(expected.map((operation) => [operation.operationId.toLowerCase(), operation]));
    // Each group of the sidebar opened in turn, and the expected operations it lists checked
    // before the next: each tag's sections rendered once.
    for await (const routes of operationRoutes(page)) {
      for (const [key, route] of routes) {
        const operation = pending.get(key);
        if (!operation) continue;
        pending.delete(key);
        checked.set(operation.operationId, route);
        problems.push(...(await checkShownOperation(page, url, route, operation)));
        await options.whileShown?.(operation, route);
      }
    }
    for (const operation of pending.values()) problems.push(`${operation.operationId} is not listed`);
    await page.waitForLoadState('networkidle');
  } catch (error) {
    problems.push(`the page could not be checked: ${(error as Error).message}`);
  }
  const { blocked, consoleErrors } = watch();
  problems.push(...blocked.map((target) => `request blocked: ${target}`));
  problems.push(...consoleErrors.map((text) => `console error: ${text}`));
  return { problems, blocked, consoleErrors, routes: checked };
}

/**
 * Opens every group in the sidebar in turn and yields, each time, the operation routes the sidebar
 * lists, by last segment, in its order (first those it lists before any group is opened).
 */
async function* operationRoutes(page: Page): AsyncGenerator<Map<string, string>> {
  const collect = async (): Promise<Map<string, string>> => {
    const routes = new Map<string, string>();
    const hrefs = await page
      .locator('#redoc a[href]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    for (const href of hrefs) {
      const route = href.replace(/^#/, '').split('#')[0] as string;
      const segments = route.split('/').filter(Boolean);
      if (route.startsWith('/') && segments.length === 2 && segments[0] !== 'section') {
        routes.set(segments[1] as string, route);
      }
    }
    return routes;
  };
  yield await collect();
  const groups = await page
    .locator('#redoc a[href]')
    .evaluateAll((links) =>
      links
        .map((link) => (link.getAttribute('href') ?? '').replace(/^#/, ''))
        .filter((href) => /^\/[^/#]+$/.test(href) && !href.startsWith('/section')),
    );
  for (const group of new Set(groups)) {
    await page.locator(`#redoc a[href="${group}"], #redoc a[href="#${group}"]`).first().click();
    await page.locator(`[data-section-id="${group}"]`).first().waitFor();
    yield await collect();
  }
}

/** What an operation's section shows, read in one pass over its elements. */
interface ShownOperation {
  /** Whether the section is there at all. */
  section: boolean;
  /** The ids, of those asked about, that some element has. */
  ids: string[];
  /** The text of each element of the section without child elements, trimmed. */
  leafTexts: string[];
  /** The rendered text of each sample panel. */
  samples: string[];
  /** Code blocks of the sample panels wider than the panel shows. */
  cutOff: number;
}

/**
 * Goes to `route` on the page at `url` (loaded already) and checks the operation's section there:
 * its request fields, its responses and its TypeScript sample, shown whole. Returns the problems.
 */
export async function checkShownOperation(
  page: Page,
  url: string,
  route: string,
  operation: ExpectedOperation,
): Promise<string[]> {
  const problems: string[] = [];
  const id = operation.operationId;
  const anchor = route.slice(1);
  const fieldIds = operation.fields.map((field) => `${anchor}/t=request&path=${field.toLowerCase()}`);
  const responsesId = `${anchor}/responses`;
  // A navigation within the page, loaded already: Redoc scrolls to the section and renders it,
  // its sample panel last (Redoc fills the panel of a section in view only). That panel's text,
  // not a pause in the network, says the section is ready; none within the page's limit is
  // reported below as no sample shown.
  await page.goto(`${url.split('#')[0]}#${route}`, { waitUntil: 'commit' });
  const selector = `[data-section-id="${route}"]`;
  await page.locator(selector).first().waitFor();
  await page
    .waitForFunction(
      (sectionSelector) =>
        [...(document.querySelector(sectionSelector)?.querySelectorAll('.panel-request-samples') ?? [])].some(
          (panel) => /\S/.test(panel.textContent ?? ''),
        ),
      selector,
    )
    .catch(() => undefined);
  // Everything the checks below look at, read at once: one round trip, not one per field.
  const shown: ShownOperation = await page.evaluate(
    ({ sectionSelector, ids }) => {
      const section = document.querySelector(sectionSelector);
      if (!section) return { section: false, ids: [], leafTexts: [], samples: [], cutOff: 0 };
      const panels = [...section.querySelectorAll('.panel-request-samples')];
      return {
        section: true,
        ids: ids.filter((wanted) => document.getElementById(wanted) !== null),
        leafTexts: [...section.querySelectorAll('*')]
          .filter((node) => node.children.length === 0)
          .map((node) => (node.textContent ?? '').trim()),
        samples: panels.map((panel) => (panel as HTMLElement).innerText),
        cutOff: [...section.querySelectorAll('.panel-request-samples pre')].filter(
          (block) => block.scrollWidth > block.clientWidth + 1,
        ).length,
      };
    },
    { sectionSelector: selector, ids: [...fieldIds, responsesId] },
  );
  if (!shown.section) return [`${id} has no section at ${route}`];
  const ids = new Set(shown.ids);
  for (const [index, field] of operation.fields.entries()) {
    if (!ids.has(fieldIds[index] as string)) problems.push(`${id} does not show the request field ${field}`);
  }
  if (!ids.has(responsesId)) problems.push(`${id} shows no responses`);
  else {
    const texts = new Set(shown.leafTexts);
    for (const status of operation.statuses) {
      if (!texts.has(String(status))) problems.push(`${id} does not show the response ${status}`);
    }
  }
  if (!shown.samples.some((text) => squash(text).includes(squash(operation.sample)))) {
    problems.push(`${id} does not show its TypeScript sample`);
  }
  // Every line of the sample is in view: wrapped, not cut off at the panel's right edge.
  if (shown.cutOff > 0) problems.push(`${id}: its sample runs past the panel's right edge`);
  return problems;
}
