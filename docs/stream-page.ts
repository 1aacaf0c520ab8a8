// The docs' stream pages, one per AsyncAPI document (asyncapi/public-v4.yaml,
// asyncapi/private-v4.yaml), beside the HTTP reference's one page per OpenAPI document: rendered
// by our own code, offline, in the look of our other pages (the AsyncAPI React component is not a
// dependency). A page gives the connection's facts (servers, keepalive, limits, authorization),
// the document's description, and per channel its summary and description, its requests with the
// answer to each, its updates with their interval, its code sample (scripts/stream-samples.ts),
// and each of its messages with its payload as a field table (docs/schema-fields.ts) and its
// examples as JSON. Every fact comes from the documents of the project root being built, read
// as generated/streams.ts reads them (scripts/stream-facts.ts), so the watch loop's pages follow
// a save before generated/ is written.
import { arrayAt, isRecord, type JsonRecord, recordAt, stringAt } from '../model/json.ts';
import { loadStreamDocuments, type StreamDocument } from '../model/streams.ts';
import { readerSource } from '../scripts/code-samples.ts';
import { type StreamFacts, streamFacts } from '../scripts/stream-facts.ts';
import { renderStreamSample, streamSampleChannels } from '../scripts/stream-samples.ts';
import { escapeHtml } from './landing.ts';
import { headerStyle, siteHeader, streamPageName } from './layout.ts';
import { renderMarkdown } from './markdown.ts';
import { ownPageHead } from './readable-page.ts';
import { fieldRows, renderFieldTable } from './schema-fields.ts';

/** The id of a channel's section on its page. */
export const channelAnchor = (channel: string) => `channel-${channel}`;

/** The id of a message's section: a message is shown once per channel, by its name. */
export const messageAnchor = (channel: string, message: string) => `message-${channel}-${message}`;

/** Where a channel's section is, from any page of the site. */
export const channelHref = (document: string, channel: string) =>
  `./${streamPageName(document)}.html#${channelAnchor(channel)}`;

export interface StreamPage {
  /** The page's name (its file without `.html`). */
  name: string;
  file: string;
  /** The stream document's name (`public-v4`) and file. */
  document: string;
  source: string;
  title: string;
  version: string;
  summary: string;
  html: string;
}

const pageStyle = `${headerStyle}    body { max-width: 72rem; }
    pre { background: #f6f8fa; padding: 1rem; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
    .lead { font-size: 1.15rem; color: #59636e; }
    dl.connection { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.25rem 1rem; }
    dl.connection dt { font-weight: 600; }
    dl.connection dd { margin: 0; overflow-wrap: anywhere; }
    dl.connection dd ul { margin: 0; padding-left: 1.25rem; }
    section.channel { border-top: 2px solid #d0d7de; margin-top: 2.5rem; padding-top: 0.5rem; }
    section.message { border-left: 3px solid #d0d7de; padding-left: 1rem; margin: 1.5rem 0; }
    h2 code, h3 code, h4 code { font-size: 0.85em; color: #59636e; }
    .summary { color: #59636e; }
    .badge { display: inline-block; font-size: 0.75rem; padding: 0 0.5rem; border-radius: 999px; border: 1px solid #d0d7de; color: #59636e; margin-right: 0.25rem; }
    .badge.authorized { color: #8250df; border-color: #c297ff; }
    div.table { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
    th, td { border-bottom: 1px solid #d0d7de; padding: 0.35rem 0.5rem; text-align: left; vertical-align: top; }
    td p { margin: 0 0 0.25rem; }
    table.fields code.field { font-weight: 600; }
    table.fields td:nth-child(-n+2) { white-space: nowrap; }
    .path { display: block; font: 0.75rem ui-monospace, monospace; color: #59636e; }
    .required { font-size: 0.75rem; color: #bc4c00; }
    .constraints { color: #59636e; font-size: 0.9em; }
    figure.example { margin: 0.5rem 0 1rem; }
    figure.example figcaption { color: #59636e; }
    ul.channels li { margin-bottom: 0.25rem; }
`;

/** Seconds as a reader says them: `0.1 s`, `60 s`. */
const seconds = (value: number) => `${value} s`;

const observed = (source: string | null | undefined) =>
  source === 'observed-upstream' ? ' (observed upstream)' : '';

/** The messages of a channel, each once (a shared message, Confirmed, answers several requests). */
function channelMessages(document: StreamDocument, channel: string): JsonRecord[] {
  const byName = new Map<string, JsonRecord>();
  for (const message of Object.values(recordAt(document.dereferenced, 'channels', channel, 'messages'))) {
    const name = stringAt(message, 'name');
    if (isRecord(message) && name && !byName.has(name)) byName.set(name, message);
  }
  return [...byName.values()];
}

/** A multi-line JSON text, with short arrays and objects on one line (a price level, a status). */
export function jsonText(value: unknown, indent = ''): string {
  const oneLine = JSON.stringify(value, null, 1)?.replace(/\n\s*/g, ' ') ?? 'null';
  if (value === null || typeof value !== 'object' || oneLine.length + indent.length <= 78) {
    // JSON.stringify with spacing leaves `[ 1, 2 ]`: written as `[1, 2]`.
    return oneLine.replace(/([[{]) /g, '$1').replace(/ ([\]}])/g, '$1');
  }
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => `${inner}${jsonText(item, inner)}`)
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${jsonText(item, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return entries.length === 0 ? `${open}${close}` : `${open}\n${entries.join(',\n')}\n${indent}${close}`;
}

function renderMessage(channel: string, message: JsonRecord): string {
  const name = stringAt(message, 'name') ?? '';
  const title = stringAt(message, 'title') ?? name;
  const summary = stringAt(message, 'summary');
  const description = stringAt(message, 'description');
  const examples = arrayAt(message, 'examples')
    .filter(isRecord)
    .map(
      (
        example,
      ) => `        <figure class="example" data-example="${escapeHtml(stringAt(example, 'name') ?? '')}">
          <figcaption>${escapeHtml(stringAt(example, 'summary') ?? stringAt(example, 'name') ?? 'Example')}</figcaption>
          <pre><code>${escapeHtml(jsonText(example.payload))}</code></pre>
        </figure>`,
    );
  return `      <section class="message" id="${escapeHtml(messageAnchor(channel, name))}" data-message="${escapeHtml(name)}">
        <h4>${escapeHtml(title)} <code>${escapeHtml(name)}</code></h4>
        ${summary ? `<p class="summary">${escapeHtml(summary)}</p>` : ''}
        ${description ? renderMarkdown(description, 4) : ''}
        <h5>Payload</h5>
${renderFieldTable(fieldRows(message.payload))}
        <h5>${examples.length === 1 ? 'Example' : 'Examples'}</h5>
${examples.length > 0 ? examples.join('\n') : '        <p>No example: not shown.</p>'}
      </section>`;
}

/** A link to a message's section, by the message's name, shown by its title. */
function messageLink(channel: string, messages: readonly JsonRecord[], name: string | null): string {
  if (name === null) return 'not shown';
  const title = stringAt(
    messages.find((message) => stringAt(message, 'name') === name),
    'title',
  );
  return `<a href="#${escapeHtml(messageAnchor(channel, name))}">${escapeHtml(title ?? name)}</a> <code>${escapeHtml(name)}</code>`;
}

function renderChannel(
  document: StreamDocument,
  channel: string,
  facts: StreamFacts,
  sample: string,
  authorizer: string | undefined,
): string {
  const item = recordAt(document.dereferenced, 'channels', channel);
  const own = facts.channels[channel];
  if (!own) throw new Error(`${document.file}: no facts of channel ${channel}`);
  const messages = channelMessages(document, channel);
  const title = stringAt(item, 'title') ?? channel;
  const description = stringAt(item, 'description');
  const requests = own.requests
    .map(
      (request) => `          <tr data-method="${escapeHtml(request.method ?? '')}">
            <td><code>${escapeHtml(request.method ?? 'not shown')}</code></td>
            <td>${messageLink(channel, messages, request.message)}</td>
            <td>${messageLink(channel, messages, request.reply)}</td>
          </tr>`,
    )
    .join('\n');
  const updates = own.updates
    .map(
      (update) => `          <tr data-method="${escapeHtml(update.method ?? '')}">
            <td><code>${escapeHtml(update.method ?? 'not shown')}</code></td>
            <td>${messageLink(channel, messages, update.message)}</td>
            <td>${update.intervalSeconds === null ? 'as things happen' : `about every ${seconds(update.intervalSeconds)}`}</td>
          </tr>`,
    )
    .join('\n');
  const access = own.requiresAuthorization
    ? `<span class="badge authorized" title="The connection must be authorized first">needs an authorized connection</span>`
    : '<span class="badge">no authorization</span>';
  const authorizeNote =
    own.requiresAuthorization && authorizer
      ? ` (<a href="#${escapeHtml(channelAnchor(authorizer))}">authorization</a>)`
      : '';
  return `    <section class="channel" id="${escapeHtml(channelAnchor(channel))}" data-channel="${escapeHtml(channel)}">
      <h2>${escapeHtml(title)} <code>${escapeHtml(channel)}</code></h2>
      <p class="summary">${escapeHtml(own.summary)}</p>
      <p>${access}${authorizeNote} <span class="badge">address <code>${escapeHtml(own.address ?? 'not shown')}</code></span> <span class="badge"><code>${escapeHtml(own.file)}</code></span></p>
      ${description ? renderMarkdown(description, 3) : ''}
      <h3>Requests</h3>
${
  requests
    ? `      <div class="table"><table class="requests">
        <thead><tr><th>Method</th><th>Message</th><th>Answer</th></tr></thead>
        <tbody>
${requests}
        </tbody>
      </table></div>`
    : '      <p>None: the channel takes no request.</p>'
}
      <h3>Updates</h3>
${
  updates
    ? `      <div class="table"><table class="updates">
        <thead><tr><th>Method</th><th>Message</th><th>Interval</th></tr></thead>
        <tbody>
${updates}
        </tbody>
      </table></div>`
    : '      <p>None: the server pushes nothing on this channel.</p>'
}
      <h3>Sample</h3>
      <pre class="sample"><code>${escapeHtml(sample)}</code></pre>
      <h3>Messages</h3>
${messages.map((message) => renderMessage(channel, message)).join('\n')}
    </section>`;
}

/** The connection's facts: where, how to keep it open, how much, and whether to authorize. */
function renderConnection(
  document: StreamDocument,
  documents: readonly StreamDocument[],
  facts: StreamFacts,
  authorizer: string | undefined,
): string {
  const servers = Object.values(recordAt(document.dereferenced, 'servers'));
  const origins = facts.servers[document.name] ?? {};
  const address = Object.values(facts.channels).find(
    (channel) => channel.document === document.name,
  )?.address;
  const serverItems = Object.entries(origins)
    .map(([name, origin]) => {
      const description = stringAt(
        servers.find((server) => stringAt(server, 'x-server-name') === name),
        'description',
      );
      return `<li><code>${escapeHtml(`${origin}${address ?? ''}`)}</code> (${escapeHtml(name)})${description ? `: ${escapeHtml(description)}` : ''}</li>`;
    })
    .join('');
  const { keepalive } = facts;
  const keepaliveChannel = facts.channels[keepalive.channel];
  // The keepalive is written on its channel, in whichever document holds it.
  const keepaliveSource = stringAt(
    documents.find((candidate) => candidate.name === keepaliveChannel?.document)?.dereferenced,
    'channels',
    keepalive.channel,
    'x-keepalive',
    'source',
  );
  const keepaliveLink =
    keepaliveChannel === undefined
      ? `<code>${escapeHtml(keepalive.channel)}</code>`
      : keepaliveChannel.document === document.name
        ? `<a href="#${escapeHtml(channelAnchor(keepalive.channel))}">${escapeHtml(keepalive.channel)}</a>`
        : `<a href="${escapeHtml(channelHref(keepaliveChannel.document, keepalive.channel))}">${escapeHtml(keepalive.channel)}</a>`;
  const limit = facts.rateLimits[document.name];
  const limitDescription = stringAt(document.dereferenced, 'info', 'x-rate-limit', 'description');
  const figure = (value: number | null | undefined, unit: string) =>
    value === null || value === undefined ? `not shown (${unit})` : `${value} ${unit}`;
  const limits = limit
    ? `${figure(limit.connections, 'connections')} and ${figure(limit.requests, 'requests')} per ${
        limit.windowSeconds === null ? 'window (not shown)' : seconds(limit.windowSeconds)
      }${observed(limit.source)}${limitDescription ? `. ${escapeHtml(limitDescription)}` : ''}`
    : 'not shown';
  const authorization = authorizer
    ? `Every channel here but <a href="#${escapeHtml(channelAnchor(authorizer))}">${escapeHtml(authorizer)}</a> needs a connection authorized with a WebSocket token; the stream client authorizes with its <code>token</code> option.`
    : 'None of these channels needs authorization.';
  return `    <dl class="connection" id="connection">
      <dt>Servers</dt>
      <dd id="servers"><ul>${serverItems}</ul></dd>
      <dt>Keepalive</dt>
      <dd id="keepalive">The server closes a connection after ${escapeHtml(seconds(keepalive.idleCloseSeconds))} without activity: send <code>${escapeHtml(keepalive.method)}</code> (channel ${keepaliveLink}) more often than that${observed(keepaliveSource)}. The stream client does.</dd>
      <dt>Limits</dt>
      <dd id="limits">${limits}</dd>
      <dt>Authorization</dt>
      <dd id="authorization">${authorization}</dd>
    </dl>`;
}

/** The page of one stream document. */
export function renderStreamPage(
  document: StreamDocument,
  documents: readonly StreamDocument[],
  facts: StreamFacts,
  samples: ReadonlyMap<string, string>,
  root?: string,
): string {
  const title = stringAt(document.dereferenced, 'info', 'title') ?? document.name;
  const version = stringAt(document.dereferenced, 'info', 'version') ?? '';
  const description = stringAt(document.dereferenced, 'info', 'description');
  const channels = Object.keys(recordAt(document.dereferenced, 'channels'));
  const authorizer = authorizationChannelOf(facts, document.name);
  const contents = channels
    .map(
      (channel) =>
        `      <li><a href="#${escapeHtml(channelAnchor(channel))}"><code>${escapeHtml(channel)}</code></a>: ${escapeHtml(facts.channels[channel]?.summary ?? '')}</li>`,
    )
    .join('\n');
  const sections = channels.map((channel) =>
    renderChannel(document, channel, facts, samples.get(channel) ?? '', authorizer),
  );
  return `${ownPageHead(escapeHtml(title), pageStyle)}
<body>
${siteHeader(`./${streamPageName(document.name)}.html`, root)}
  <main>
    <h1>${escapeHtml(title)}</h1>
    <p class="lead">Document version <span class="version">${escapeHtml(version)}</span>, <code>${escapeHtml(document.file)}</code>
    (AsyncAPI ${escapeHtml(stringAt(document.dereferenced, 'asyncapi') ?? '')}). <a href="./index.html">Back to the docs</a>.</p>
${renderConnection(document, documents, facts, authorizer)}
    <h2 id="about">About these streams</h2>
    ${description ? renderMarkdown(description, 2) : ''}
    <h2 id="channels">Channels</h2>
    <ul class="channels">
${contents}
    </ul>
${sections.join('\n')}
  </main>
</body>
</html>
`;
}

/** The channel of a document that authorizes a connection (see scripts/stream-samples.ts). */
function authorizationChannelOf(facts: StreamFacts, document: string): string | undefined {
  const own = Object.entries(facts.channels).filter(([, channel]) => channel.document === document);
  if (!own.some(([, channel]) => channel.requiresAuthorization)) return undefined;
  return own.find(([, channel]) => !channel.requiresAuthorization)?.[0];
}

/** A channel as the index lists it: a link to its section on its document's page. */
export interface StreamChannelEntry {
  channel: string;
  document: string;
  summary: string;
  requiresAuthorization: boolean;
  href: string;
}

/** The stream pages of the documents under `root`, rendered, and every channel they show. */
export function streamPages(root: string): { pages: StreamPage[]; channels: StreamChannelEntry[] } {
  const documents = loadStreamDocuments(root);
  const facts = streamFacts(documents);
  const samples = new Map(
    streamSampleChannels(documents, facts).map((sample) => [
      sample.channel,
      readerSource(renderStreamSample(sample)),
    ]),
  );
  const pages = documents.map((document) => ({
    name: streamPageName(document.name),
    file: `${streamPageName(document.name)}.html`,
    document: document.name,
    source: document.file,
    title: stringAt(document.dereferenced, 'info', 'title') ?? document.name,
    version: stringAt(document.dereferenced, 'info', 'version') ?? '',
    summary: firstSentence(stringAt(document.dereferenced, 'info', 'description') ?? ''),
    html: renderStreamPage(document, documents, facts, samples, root),
  }));
  const channels = Object.entries(facts.channels).map(([channel, own]) => ({
    channel,
    document: own.document,
    summary: own.summary,
    requiresAuthorization: own.requiresAuthorization,
    href: channelHref(own.document, channel),
  }));
  return { pages, channels };
}

/** The index's list of the stream documents' channels, by document, each linking to its section. */
export function renderStreamChannels(
  pages: readonly StreamPage[],
  channels: readonly StreamChannelEntry[],
): string {
  return pages
    .map((page) => {
      const items = channels
        .filter((entry) => entry.document === page.document)
        .map(
          (entry) =>
            `        <li data-channel="${escapeHtml(entry.channel)}"><a href="${escapeHtml(entry.href)}">` +
            `<code>${escapeHtml(entry.channel)}</code><span class="summary">${escapeHtml(entry.summary)}</span></a>` +
            (entry.requiresAuthorization
              ? ' <span class="badge partner-only" title="The connection must be authorized first">authorized connection</span>'
              : '') +
            '</li>',
        )
        .join('\n');
      return `      <section class="stream-document" data-document="${escapeHtml(page.document)}">
        <h3>${escapeHtml(page.title)}</h3>
      <ul class="operations">
${items}
      </ul>
      </section>`;
    })
    .join('\n');
}

/** A description's first sentence, for the index: what the document is about. */
function firstSentence(description: string): string {
  const paragraph =
    description
      .split(/\n\s*\n/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '';
  const end = paragraph.search(/\.(\s|$)/);
  return end === -1 ? paragraph : paragraph.slice(0, end + 1);
}
