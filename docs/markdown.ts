// The markdown of the stream documents' descriptions as HTML, for the stream pages (docs/stream-page.ts),
// which are rendered by our own code rather than by a markdown library (none is a dependency, and
// none may be added). It covers what the documents write: paragraphs, `-` and `1.` lists (a list
// may follow a paragraph's line directly, an item may run over several lines), `#` headings,
// fenced code, and inline `code`, **strong**, *emphasis* and [links](./page.html#anchor). Every
// other character is text, escaped: a description can add no markup of its own.
import { escapeHtml } from './landing.ts';

const listMarker = /^\s*(?:([-*+])|(\d+)[.)])\s+/;
const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const fence = /^\s*(```|~~~)/;
/** A link's target: a page of the site, an anchor, or a web address; nothing a browser would run. */
const safeHref = /^(?:https?:\/\/|\.{0,2}\/|#)[^\s"<>]*$/;

/** One line's inline markdown as HTML; code spans are taken as they are. */
export function renderInline(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, index) => {
      if (index % 2 === 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?![*\w])/g, '$1<em>$2</em>')
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, href: string) =>
          // The href is escaped already; an unsafe one stays as the text it was written as.
          safeHref.test(href.replaceAll('&amp;', '&')) ? `<a href="${href}">${label}</a>` : whole,
        );
    })
    .join('');
}

type Block =
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'list'; ordered: boolean; items: string[][] }
  | { kind: 'code'; lines: string[] }
  | { kind: 'heading'; level: number; text: string };

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  const close = () => {
    if (open) blocks.push(open);
    open = undefined;
  };
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (open?.kind === 'code') {
      if (fence.test(line)) close();
      else open.lines.push(line);
      continue;
    }
    if (fence.test(line)) {
      close();
      open = { kind: 'code', lines: [] };
      continue;
    }
    if (line.trim() === '') {
      close();
      continue;
    }
    const title = heading.exec(line);
    if (title) {
      close();
      blocks.push({ kind: 'heading', level: (title[1] as string).length, text: title[2] as string });
      continue;
    }
    const marker = listMarker.exec(line);
    if (marker) {
      const ordered = marker[2] !== undefined;
      if (open?.kind !== 'list' || open.ordered !== ordered) {
        close();
        open = { kind: 'list', ordered, items: [] };
      }
      open.items.push([line.slice(marker[0].length)]);
      continue;
    }
    // A line that is none of the above continues the list item or paragraph before it.
    if (open?.kind === 'list') open.items.at(-1)?.push(line.trim());
    else if (open?.kind === 'paragraph') open.lines.push(line.trim());
    else {
      close();
      open = { kind: 'paragraph', lines: [line.trim()] };
    }
  }
  close();
  return blocks;
}

/**
 * A description as HTML. `headingLevel` is the level a `#` heading gets (a description's own
 * headings sit below the page's: `##` in a document's description under the page's h1 is h3).
 */
export function renderMarkdown(markdown: string, headingLevel = 2): string {
  return blocksOf(markdown)
    .map((block) => renderBlock(block, headingLevel))
    .join('\n');
}

function renderBlock(block: Block, headingLevel: number): string {
  if (block.kind === 'paragraph') return `<p>${renderInline(block.lines.join(' '))}</p>`;
  if (block.kind === 'code') return `<pre><code>${escapeHtml(block.lines.join('\n'))}</code></pre>`;
  if (block.kind === 'heading') {
    const level = Math.min(6, headingLevel + block.level - 1);
    return `<h${level}>${renderInline(block.text)}</h${level}>`;
  }
  const tag = block.ordered ? 'ol' : 'ul';
  return `<${tag}>${block.items.map((lines) => `<li>${renderInline(lines.join(' '))}</li>`).join('')}</${tag}>`;
}
