// Markdown as HTML, for the stream pages' descriptions (docs/stream-page.ts) and the guides
// (docs/guides.ts), rendered by our own code rather than by a markdown library (none is a
// dependency). It covers what the documents and the guides write: paragraphs, `-` and `1.` lists (a
// list may follow a paragraph's line directly, an item may run over several lines), `#` headings,
// fenced code (its language kept as a class), tables (`| a | b |` with a `|---|` line under the
// header; `\|` is a bar inside a cell), and inline `code`, **strong**, *emphasis* and
// [links](./page.html#anchor). Every other character is text, escaped: a text can add no markup of
// its own.
import { escapeHtml } from './landing.ts';

const listMarker = /^\s*(?:([-*+])|(\d+)[.)])\s+/;
const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const fence = /^\s*(```|~~~)/;
/** A link's target: a page of the site, an anchor, or a web address; nothing a browser would run. */
const safeHref = /^(?:https?:\/\/|\.{0,2}\/|#)[^\s"<>]*$/;

/** How a link's target is written into the page: as it is, unless the caller maps it. */
export type HrefMap = (href: string) => string;

/** One line's inline markdown as HTML; code spans are taken as they are. */
export function renderInline(text: string, mapHref: HrefMap = (href) => href): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, index) => {
      if (index % 2 === 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?![*\w])/g, '$1<em>$2</em>')
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, href: string) => {
          // The href is escaped already; an unsafe one stays as the text it was written as.
          const target = href.replaceAll('&amp;', '&');
          return safeHref.test(target) ? `<a href="${escapeHtml(mapHref(target))}">${label}</a>` : whole;
        });
    })
    .join('');
}

type Block =
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'list'; ordered: boolean; items: string[][] }
  | { kind: 'code'; language: string; lines: string[] }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'table'; rows: string[][] };

const tableRow = /^\s*\|.*\|\s*$/;
const tableRule = /^\s*\|(?:\s*:?-+:?\s*\|)+\s*$/;

/** A table row's cells: split at each bar that is not escaped, `\|` read as a bar. */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll('\\|', '|'));
}

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
      open = { kind: 'code', language: line.trim().slice(3).trim().split(/\s/)[0] ?? '', lines: [] };
      continue;
    }
    if (tableRow.test(line)) {
      // A table is a header row, the rule under it, and its rows; the rule carries no cell.
      if (open?.kind === 'table') {
        if (!tableRule.test(line)) open.rows.push(cellsOf(line));
        continue;
      }
      close();
      open = { kind: 'table', rows: [cellsOf(line)] };
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

export interface MarkdownOptions {
  /** Give each heading an id from its text (`Failure behaviour` is `failure-behaviour`), for links. */
  anchors?: boolean;
  /** How a link's target is written (a guide's `./hooks.md` is the page `./guide-hooks.html`). */
  mapHref?: HrefMap;
}

/** A heading's id: its words, lowercase, joined by dashes (the slug GitHub gives it too, for plain words). */
export const headingId = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/ /g, '-');

/**
 * Markdown as HTML. `headingLevel` is the level a `#` heading gets (a description's own
 * headings sit below the page's: `##` in a document's description under the page's h1 is h3).
 */
export function renderMarkdown(markdown: string, headingLevel = 2, options: MarkdownOptions = {}): string {
  return blocksOf(markdown)
    .map((block) => renderBlock(block, headingLevel, options))
    .join('\n');
}

function renderBlock(block: Block, headingLevel: number, options: MarkdownOptions): string {
  const inline = (text: string) => renderInline(text, options.mapHref);
  if (block.kind === 'paragraph') return `<p>${inline(block.lines.join(' '))}</p>`;
  if (block.kind === 'code') {
    const language = /^[\w-]+$/.test(block.language) ? ` class="language-${block.language}"` : '';
    return `<pre><code${language}>${escapeHtml(block.lines.join('\n'))}</code></pre>`;
  }
  if (block.kind === 'heading') {
    const level = Math.min(6, headingLevel + block.level - 1);
    const id = options.anchors ? ` id="${headingId(block.text)}"` : '';
    return `<h${level}${id}>${inline(block.text)}</h${level}>`;
  }
  if (block.kind === 'table') {
    const [header = [], ...rows] = block.rows;
    const cells = (row: string[], tag: string) =>
      row.map((cell) => `<${tag}>${inline(cell)}</${tag}>`).join('');
    return `<table><thead><tr>${cells(header, 'th')}</tr></thead><tbody>${rows
      .map((row) => `<tr>${cells(row, 'td')}</tr>`)
      .join('')}</tbody></table>`;
  }
  const tag = block.ordered ? 'ol' : 'ul';
  return `<${tag}>${block.items.map((lines) => `<li>${inline(lines.join(' '))}</li>`).join('')}</${tag}>`;
}
