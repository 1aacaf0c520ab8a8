// What the docs pages get on top of what build-docs writes, for a reader: an icon (browsers ask
// for /favicon.ico otherwise, a 404 in the log), code samples that wrap instead of running off
// the panel, descriptions whose search snippets keep their spaces, and links that render without
// a walk through the whole page each.

/** The site's icon, written with the Redoc assets (site/assets/); every page links it. */
export const faviconFile = 'assets/favicon.svg';
export const faviconSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0044d4"/>' +
  '<text x="8" y="12" font-family="sans-serif" font-size="10" fill="#fff" text-anchor="middle">v4</text></svg>\n';
export const faviconLink = `<link rel="icon" type="image/svg+xml" href="./${faviconFile}">`;

/** The head of one of our own pages (the landing page, the txc page): one look, one icon. */
export function ownPageHead(title: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  ${faviconLink}
  <style>
    body { font-family: system-ui, sans-serif; max-width: 56rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1f2328; }
    code, pre { font-family: ui-monospace, monospace; }
${style}
  </style>
</head>`;
}

/** Long sample lines wrap inside the sample panel (Redoc scrolls them sideways, cut off at the edge). */
const sampleStyle = `<style>
  .panel-request-samples pre, .panel-request-samples pre code {
    white-space: pre-wrap !important;
    overflow-wrap: anywhere;
  }
</style>`;

/** A line that starts a markdown block of its own (list item, heading, quote, table row, fence). */
const startsBlock = /^\s*(?:[-*+]\s|\d+[.)]\s|#|>|\||```|~~~)/;
const listItem = /^\s*(?:[-*+]\s|\d+[.)]\s)/;

/**
 * A description with the line breaks inside its paragraphs (markdown's soft breaks, which render
 * as a space) made spaces. Blank lines, list items, headings, tables, quotes, fenced code and
 * hard breaks stay as they are, so the page renders the same.
 */
export function unwrapParagraphs(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fenced = false;
  for (const line of lines) {
    const previous = out.at(-1);
    const joins =
      !fenced &&
      previous !== undefined &&
      previous.trim() !== '' &&
      line.trim() !== '' &&
      !startsBlock.test(line) &&
      !/^\s*(?:#|\||```|~~~)/.test(previous) &&
      !/(?: {2}|\\)$/.test(previous);
    if (/^\s*(?:```|~~~)/.test(line)) fenced = !fenced;
    if (joins) out[out.length - 1] = `${previous} ${line.trimStart()}`;
    else {
      // A list item right after text: the text's block ends with a space (an entity, since
      // markdown trims a trailing space), so "strings.</li><li>The" does not read "strings.The".
      if (!fenced && previous?.trim() && listItem.test(line) && !previous.endsWith('&#32;'))
        out[out.length - 1] = `${previous}&#32;`;
      out.push(line);
    }
  }
  return out.join('\n');
}

/**
 * Redoc's search snippets are a description's rendered text with its line breaks removed, so a
 * document wrapped at 100 columns reads "isnot cached". Every description of the page's embedded
 * document gets its paragraphs unwrapped (see unwrapParagraphs): the page renders as before and
 * the snippets keep their spaces. Only those JSON strings of the page change.
 */
export function unwrapDescriptions(html: string): string {
  return html.replace(/"description":("(?:[^"\\]|\\.)*")/g, (_match, literal: string) => {
    const text = JSON.parse(literal) as string;
    // Escaped as in a script element: no "</script>" or line separators can come out of it.
    const encoded = JSON.stringify(unwrapParagraphs(text))
      .replaceAll('<', '\\u003c')
      .replaceAll('\u2028', '\\u2028')
      .replaceAll('\u2029', '\\u2029');
    return `"description":${encoded}`;
  });
}

/**
 * Redoc's router (react-router's hash history) looks for the page's <base> element for every link
 * it renders; with none, each look walks the whole document: a fifth of the time a large page
 * takes to open an operation. An inert one ends each look in the head: without href the page's
 * URLs resolve as before, and target _self is what its links do anyway.
 */
export const inertBase = '<base target="_self">';

/** A build-docs page with the icon, the sample style, spaced descriptions and an inert <base>. */
export function readablePage(html: string): string {
  const head = html.indexOf('</head>');
  if (head < 0) throw new Error('the build-docs page has no </head>; has its template changed?');
  const withHead = `${html.slice(0, head)}${inertBase}\n${faviconLink}\n${sampleStyle}\n${html.slice(head)}`;
  return unwrapDescriptions(withHead);
}

export interface ServerEntry {
  url: string;
  variables?: Record<string, { default?: string }>;
}

/**
 * The documents' servers are `{base_url}` with the origin as the variable's default. Redoc shows
 * such a URL as it is, resolved against the page's own origin (`http://127.0.0.1:8080/{base_url}`):
 * the page gets each URL with its variables' defaults filled in, in its markup and its state.
 */
export function expandServerUrls(html: string, servers: readonly ServerEntry[]): string {
  let out = html;
  for (const server of servers) {
    const expanded = server.url.replace(
      /\{([^}]+)\}/g,
      (whole, name: string) => server.variables?.[name]?.default ?? whole,
    );
    if (expanded === server.url) continue;
    out = out
      .replaceAll(`"url":${JSON.stringify(server.url)}`, `"url":${JSON.stringify(expanded)}`)
      .replaceAll(`>${server.url}<`, `>${expanded}<`);
  }
  return out;
}
