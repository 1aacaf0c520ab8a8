// The guides (docs/guides/*.md) as pages of the site: the Markdown they use rendered (tables,
// anchored headings, fenced code with its language, links between guides), and every guide with a
// title, a summary, and links that land on a guide and a heading that exist. The browser test
// (docs/test/site.test.ts) checks the built pages themselves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guideHref, guidePageFile, loadGuides, renderGuideList, renderGuidePage } from '../../docs/guides.ts';
import { headingId, renderMarkdown } from '../../docs/markdown.ts';
import { projectRoot } from '../../model/document.ts';

describe('renderMarkdown for the guides', () => {
  it('renders a table, its escaped bars and inline code in cells, under an anchored heading', () => {
    const markdown = [
      '## Exit codes: `txc`',
      '',
      '| flag | meaning |',
      '|---|---|',
      '| `--server global\\|eu` | where to **call** |',
      '| `--json` | JSON <always> |',
    ].join('\n');
    expect(renderMarkdown(markdown, 1, { anchors: true }).split('\n')).toEqual([
      '<h2 id="exit-codes-txc">Exit codes: <code>txc</code></h2>',
      '<table><thead><tr><th>flag</th><th>meaning</th></tr></thead><tbody>' +
        '<tr><td><code>--server global|eu</code></td><td>where to <strong>call</strong></td></tr>' +
        '<tr><td><code>--json</code></td><td>JSON &lt;always&gt;</td></tr></tbody></table>',
    ]);
  });

  it('keeps a fence language as a class, escapes the code, and leaves headings unanchored by default', () => {
    const markdown = ['# Title', '```ts', 'const a = 1 < 2;', '```', '```', 'plain', '```'].join('\n');
    expect(renderMarkdown(markdown, 1).split('\n')).toEqual([
      '<h1>Title</h1>',
      '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
      '<pre><code>plain</code></pre>',
    ]);
  });

  it("maps a guide's link to another guide's page, anchors kept, other links as written", () => {
    expect(guideHref('./hooks.md')).toBe('./guide-hooks.html');
    expect(guideHref('./hooks.md#opentelemetry')).toBe('./guide-hooks.html#opentelemetry');
    expect(guideHref('./private-v4.html#/main-account')).toBe('./private-v4.html#/main-account');
    expect(renderMarkdown('See [hooks](./hooks.md#hooks).', 1, { mapHref: guideHref })).toBe(
      '<p>See <a href="./guide-hooks.html#hooks">hooks</a>.</p>',
    );
    // A link a browser would run stays text.
    expect(renderMarkdown('[x](javascript:alert(1))', 1, { mapHref: guideHref })).not.toContain('<a');
  });
});
describe('the guides', () => {
  const guides = loadGuides(projectRoot);

  it('are the eleven of the manual, in reading order, each with a title and a summary', () => {
    expect(guides.map((guide) => guide.name)).toEqual([
      'client',
      'signing',
      'hooks',
      'failures',
      'openapi-fetch',
      'validation',
      'streams',
      'txc',
      'sandbox',
      'contract-tests',
      'changing-the-api',
    ]);
    for (const guide of guides) {
      expect(guide.title, guide.source).toMatch(/^\S/);
      expect(guide.summary.length, guide.source).toBeGreaterThan(40);
      expect(guide.file).toBe(guidePageFile(guide.name));
    }
  });

  it("link only to guides and headings that exist, and to the site's own pages", () => {
    const anchors = new Map(
      guides.map((guide) => [
        guide.name,
        new Set(
          [...guide.markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) => headingId(match[1] as string)),
        ),
      ]),
    );
    for (const guide of guides) {
      for (const [, href] of guide.markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = href as string;
        const toGuide = /^\.\/([\w-]+)\.md(?:#(.*))?$/.exec(target);
        if (toGuide) {
          const [, name, anchor] = toGuide;
          expect(anchors.has(name as string), `${guide.source}: ${target}`).toBe(true);
          if (anchor) expect(anchors.get(name as string), `${guide.source}: ${target}`).toContain(anchor);
          continue;
        }
        if (target.startsWith('#')) {
          expect(anchors.get(guide.name), `${guide.source}: ${target}`).toContain(target.slice(1));
          continue;
        }
        // The references and the other pages of the site, by their file in it.
        expect(target, guide.source).toMatch(
          /^\.\/(index|public-v4|private-v4|streams-public-v4|streams-private-v4|signing|cli)\.html(#.*)?$/,
        );
      }
    }
  });

  it('render as pages of the site: its header, the guide under it, every table and code block', () => {
    const client = guides.find((guide) => guide.name === 'client');
    if (!client) throw new Error('no client guide');
    const page = renderGuidePage(client);
    expect(page).toContain('<header class="site">');
    expect(page).toContain(`<h1 id="${headingId(client.title)}">`);
    const fences = client.markdown.match(/^```/gm)?.length ?? 0;
    expect(page.match(/<pre><code/g)?.length).toBe(fences / 2);
    expect(page.match(/<table>/g)?.length).toBe(client.markdown.match(/^\|[-|]+\|$/gm)?.length);
    expect(renderGuideList(guides)).toContain(`href="./${client.file}"`);
  });

  it('are what the README points a newcomer to, each by its file', () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    for (const guide of guides) expect(readme, guide.source).toContain(`(${guide.source})`);
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });
});
