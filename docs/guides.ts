// The guides: Markdown files under docs/guides/, each a page of the site of its own
// (`guide-<name>.html`), rendered at build time by docs/markdown.ts in the site's layout. A guide's
// links to another guide are written as the Markdown file (`./hooks.md#hooks`), so they work
// where the files are read as they are too; on the site they point at the guide's page.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from './landing.ts';
import { headerStyle, siteHeader } from './layout.ts';
import { renderMarkdown } from './markdown.ts';
import { ownPageHead } from './readable-page.ts';

/** Where the guides are written, under a project root. */
export const guidesDirectory = 'docs/guides';

/**
 * The order a reader takes them in: using the client first, then the tools around it. A guide not
 * named here comes after these, by its file name.
 */
const readingOrder = [
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
];

export interface Guide {
  /** The file's name without `.md`: `hooks`. */
  name: string;
  /** Relative to the project root: `docs/guides/hooks.md`. */
  source: string;
  /** The page's file in the site: `guide-hooks.html`. */
  file: string;
  /** Its first `#` heading. */
  title: string;
  /** Its first paragraph, as plain text, for the landing page. */
  summary: string;
  markdown: string;
}

export const guidePageFile = (name: string): string => `guide-${name}.html`;

/** Every file under docs/guides/ of `root` that the guides are made of (what their pages read). */
export function guideInputs(root: string): string[] {
  const directory = join(root, guidesDirectory);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `${guidesDirectory}/${file}`);
}

/** The guides of `root`, in reading order. */
export function loadGuides(root: string): Guide[] {
  const rank = (name: string) => {
    const index = readingOrder.indexOf(name);
    return index === -1 ? readingOrder.length : index;
  };
  return guideInputs(root)
    .map((source) => {
      const name = source.slice(guidesDirectory.length + 1, -'.md'.length);
      const markdown = readFileSync(join(root, source), 'utf8');
      const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim();
      if (!title) throw new Error(`${source} has no # title on a line of its own`);
      return { name, source, file: guidePageFile(name), title, summary: summaryOf(markdown), markdown };
    })
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/** The first paragraph after the title, its markup taken out. */
function summaryOf(markdown: string): string {
  const afterTitle = markdown.replace(/^[\s\S]*?^# .+$/m, '');
  const paragraph = afterTitle.split(/\n\s*\n/).find((part) => /^[A-Za-z`*[]/.test(part.trim())) ?? '';
  return paragraph
    .replace(/\s+/g, ' ')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim();
}

/** A guide's link as its page has it: another guide's Markdown file becomes that guide's page. */
export function guideHref(href: string): string {
  const guide = /^\.\/([\w-]+)\.md(#.*)?$/.exec(href);
  return guide ? `./${guidePageFile(guide[1] as string)}${guide[2] ?? ''}` : href;
}

export function renderGuidePage(guide: Guide, root?: string): string {
  const body = renderMarkdown(guide.markdown, 1, { anchors: true, mapHref: guideHref });
  return `${ownPageHead(
    escapeHtml(guide.title),
    `${headerStyle}    pre { background: #f6f8fa; padding: 1rem; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
    :not(pre) > code { background: #f6f8fa; padding: 0 0.25rem; border-radius: 4px; overflow-wrap: anywhere; }
    table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
    th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
    th { background: #f6f8fa; }`,
  )}
<body>
${siteHeader(`./${guide.file}`, root)}
  <main class="guide" data-source="${escapeHtml(guide.source)}">
${body}
  </main>
</body>
</html>
`;
}

/** The landing page's list of guides, each with its summary. */
export function renderGuideList(guides: readonly Guide[]): string {
  return guides
    .map(
      (guide) =>
        `      <li data-guide="${escapeHtml(guide.name)}"><a href="./${escapeHtml(guide.file)}">${escapeHtml(guide.title)}</a>` +
        `<br><span class="guide-summary">${escapeHtml(guide.summary)}</span></li>`,
    )
    .join('\n');
}
