// The header every page of our own carries (the landing page, the signing page, the txc page,
// the stream pages): the site's name and a navigation to each document's reference, each stream
// document's page and the other pages. The documents' pages are read from redocly.yaml and
// model/streams.ts, so a new document shows by itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { recordAt, stringAt } from '../model/json.ts';
import { streamDocumentFiles } from '../model/streams.ts';
import { escapeHtml } from './landing.ts';
import { projectRoot } from './samples.ts';

export interface NavItem {
  href: string;
  label: string;
}

/** The page of a stream document (docs/stream-page.ts), by the document's name: `streams-public-v4`. */
export const streamPageName = (document: string) => `streams-${document}`;

/** Each title read, by the text of the root file it is read from. */
const titlesByText = new Map<string, string | undefined>();

/**
 * A document's title, from its root file alone (a broken part elsewhere does not matter here).
 * Every page's header names every document, in every build of the watch loop: a root file is
 * parsed again only when its text changed.
 */
function documentTitle(root: string, file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    return undefined;
  }
  if (!titlesByText.has(text)) {
    let title: string | undefined;
    try {
      title = stringAt(parse(text), 'info', 'title');
    } catch {}
    if (titlesByText.size >= 100) titlesByText.clear();
    titlesByText.set(text, title);
  }
  return titlesByText.get(text);
}

/** Home, each document's reference page, each stream document's page, the guides, the signing recipes and txc. */
export function navItems(root = projectRoot): NavItem[] {
  // The documents as redocly.yaml names them, in its order (loadApiDocuments' order).
  const apis = recordAt(parse(readFileSync(join(root, 'redocly.yaml'), 'utf8')), 'apis');
  return [
    { href: './index.html', label: 'Overview' },
    ...Object.entries(apis).map(([name, api]) => {
      const file = stringAt(api, 'root');
      return { href: `./${name}.html`, label: (file ? documentTitle(root, file) : undefined) ?? name };
    }),
    ...Object.entries(streamDocumentFiles).map(([name, file]) => ({
      href: `./${streamPageName(name)}.html`,
      label: documentTitle(root, file) ?? name,
    })),
    { href: './index.html#guides', label: 'Guides' },
    { href: './signing.html', label: 'Signing without the package' },
    { href: './cli.html', label: 'txc command line' },
  ];
}

export const headerStyle = `    header.site { border-bottom: 1px solid #d0d7de; margin: -2rem -1rem 2rem; padding: 0.75rem 1rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: baseline; }
    header.site .brand { font-weight: 700; color: #1f2328; text-decoration: none; }
    header.site nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
    header.site nav a { color: #0044d4; text-decoration: none; }
    header.site nav a[aria-current="page"] { color: #1f2328; font-weight: 600; }
`;

/** The header, with the page at `current` (its href) marked as the one shown. */
export function siteHeader(current: string, root = projectRoot): string {
  const links = navItems(root)
    .map(
      (item) =>
        `<a href="${escapeHtml(item.href)}"${item.href === current ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}</a>`,
    )
    .join('\n      ');
  return `  <header class="site">
    <a class="brand" href="./index.html">TXC API v4 toolkit</a>
    <nav aria-label="Site">
      ${links}
    </nav>
  </header>`;
}
