// The docs site in a real browser, offline: every request that would leave 127.0.0.1 is blocked
// and counted as a failure. The expected operations come from generated/operations.ts, the stream
// pages' channels from generated/streams.ts. Each page of the site is loaded once, and the checks
// of a page share it, in order: the index, and each page its links lead to, opened from it in a
// tab of the same browser context. Each guide is opened once, from the index, and the pages its
// links lead to are fetched once for all of them, not loaded. The reference pages have a file of
// their own (reference-site.test.ts), which runs beside this one.
import { copyFileSync, cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operations, signedBodyFields, signingHeaders } from '../../generated/operations.ts';
import { streamChannels, streamKeepalive, streamRateLimits, streamServers } from '../../generated/streams.ts';
import { arrayAt, at, stringAt } from '../../model/json.ts';
import { documentModel } from '../../model/model.ts';
import { loadStreamDocuments, streamDocumentFiles, streamMessages } from '../../model/streams.ts';
import { streamSamplePath } from '../../scripts/stream-samples.ts';
import { cliOperations } from '../../src/cli/operations.ts';
import { loadGuides } from '../guides.ts';
import { operationGroups, operationHref, rateLimitText } from '../landing.ts';
import { streamPageName } from '../layout.ts';
import { checkViewport } from '../page-check.ts';
import { recipeSource, recipes, recipeUsage } from '../recipes.ts';
import { findMissingSamples, projectRoot, sampleFile, sampleLineWidth } from '../samples.ts';
import { channelHref, messageAnchor } from '../stream-page.ts';
import {
  apis,
  expectNothingMissing,
  index,
  indexViewport,
  openFromIndex,
  reports,
  tempDir,
  useSiteInBrowser,
  watchOf,
} from './site-in-browser.ts';

useSiteInBrowser();

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
