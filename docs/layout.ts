// The header every page of our own carries (the landing page, the signing page, the txc page):
// the site's name and a navigation to each document's reference and the other pages. The
// documents' pages are read from redocly.yaml, so a new document shows by itself.
import { loadApiDocuments } from '../model/document.ts';
import { stringAt } from '../model/json.ts';
import { escapeHtml } from './landing.ts';
import { projectRoot } from './samples.ts';

export interface NavItem {
  href: string;
  label: string;
}

/** Home, each document's reference page, the signing recipes and txc. */
export function navItems(root = projectRoot): NavItem[] {
  return [
    { href: './index.html', label: 'Overview' },
    ...loadApiDocuments(root).map((api) => ({
      href: `./${api.name}.html`,
      label: stringAt(api.document, 'info', 'title') ?? api.name,
    })),
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
