import { describe, expect, it } from 'vitest';
import { guideHref } from '../../docs/guides.ts';
import { renderMarkdown } from '../../docs/markdown.ts';

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
