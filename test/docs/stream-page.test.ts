// The stream pages' own renderer (docs/stream-page.ts and its parts): descriptions' markdown as
// escaped HTML, a payload as field rows named by x-field-name, examples as JSON that reads back as
// the document's, and each channel's sample made by one function from the channel's facts and
// examples.
import { describe, expect, it } from 'vitest';
import { renderInline, renderMarkdown } from '../../docs/markdown.ts';
import { fieldRows, renderFieldTable } from '../../docs/schema-fields.ts';
import { channelAnchor, jsonText, messageAnchor, streamPages } from '../../docs/stream-page.ts';
import { streamChannels } from '../../generated/streams.ts';
import { projectRoot } from '../../model/document.ts';
import { streamVariables } from '../../model/environment.ts';
import { arrayAt, at } from '../../model/json.ts';
import { loadStreamDocuments, streamMessages } from '../../model/streams.ts';
import { readerSource, sampleLineWidth } from '../../scripts/code-samples.ts';
import {
  renderStreamSample,
  renderStreamSamples,
  streamSampleChannels,
  streamSamplePath,
} from '../../scripts/stream-samples.ts';

describe('renderMarkdown', () => {
  it('renders paragraphs, a list right after a line of text, multi-line items and shifted headings', () => {
    const markdown = [
      'The bids and asks',
      'of one market:',
      '- the first `depth_update` is a whole',
      '  book;',
      '- **then** the *changes*.',
      '',
      '## Keepalive',
      '1. ping',
    ].join('\n');
    expect(renderMarkdown(markdown, 2).split('\n')).toEqual([
      '<p>The bids and asks of one market:</p>',
      '<ul><li>the first <code>depth_update</code> is a whole book;</li><li><strong>then</strong> the <em>changes</em>.</li></ul>',
      '<h3>Keepalive</h3>',
      '<ol><li>ping</li></ol>',
    ]);
  });

  it('adds no markup a description writes: HTML is text, and a link runs nothing', () => {
    expect(renderInline('<script>alert(1)</script> & `<b>`')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; <code>&lt;b&gt;</code>',
    );
    expect(renderInline('[depth](./streams-public-v4.html#channel-depth)')).toBe(
      '<a href="./streams-public-v4.html#channel-depth">depth</a>',
    );
    expect(renderInline('[run](javascript:alert(1))')).toBe('[run](javascript:alert(1))');
    expect(renderMarkdown('```\n<tag>\n```')).toBe('<pre><code>&lt;tag&gt;</code></pre>');
    // snake_case names outside code stay as written.
    expect(renderInline('past_update_id and update_id')).toBe('past_update_id and update_id');
  });
});

describe('fieldRows', () => {
  const payload = {
    type: 'object',
    required: ['id', 'params'],
    properties: {
      id: { type: 'integer', description: 'The request id.' },
      method: { type: 'string', const: 'depth_update' },
      params: {
        type: 'array',
        minItems: 2,
        maxItems: 3,
        items: [
          { type: 'boolean', 'x-field-name': 'full_reload' },
          {
            allOf: [
              { type: 'object', required: ['asks'], properties: { asks: { type: 'array' } } },
              {
                properties: {
                  side: { type: 'integer', enum: [1, 2], 'x-enum-descriptions': ['Sell', 'Buy'] },
                },
              },
            ],
            'x-field-name': 'book',
          },
          {
            type: 'object',
            propertyNames: { description: 'An asset ticker.' },
            additionalProperties: {
              type: 'object',
              properties: { available: { type: 'string', pattern: '^[0-9]+$' } },
            },
            'x-field-name': 'balances',
          },
        ],
      },
    },
  };

  it('names positional fields by x-field-name, below their parent, with their place on the wire', () => {
    expect(
      fieldRows(payload).map(({ label, path, depth, required, type }) => ({
        label,
        path,
        depth,
        required,
        type,
      })),
    ).toEqual([
      { label: 'id', path: 'id', depth: 0, required: true, type: 'integer' },
      { label: 'method', path: 'method', depth: 0, required: false, type: '"depth_update"' },
      { label: 'params', path: 'params', depth: 0, required: true, type: 'array, 3 in order' },
      { label: 'full_reload', path: 'params[0]', depth: 1, required: true, type: 'boolean' },
      { label: 'book', path: 'params[1]', depth: 1, required: true, type: 'object' },
      { label: 'asks', path: 'params[1].asks', depth: 2, required: true, type: 'array' },
      { label: 'side', path: 'params[1].side', depth: 2, required: false, type: 'integer' },
      { label: 'balances', path: 'params[2]', depth: 1, required: false, type: 'object' },
      { label: '*', path: 'params[2].*', depth: 2, required: false, type: 'object' },
      { label: 'available', path: 'params[2].*.available', depth: 3, required: false, type: 'string' },
    ]);
  });

  it('says the limits and values in words, and the table escapes what it shows', () => {
    const rows = fieldRows(payload);
    const row = (path: string) => rows.find((candidate) => candidate.path === path);
    expect(row('params')?.constraints).toEqual(['at least 2 items', 'at most 3 items']);
    expect(row('params[1].side')?.constraints).toEqual(['one of 1 (Sell), 2 (Buy)']);
    expect(row('params[2].*.available')?.constraints).toEqual(['matches `^[0-9]+$`']);
    expect(row('params[2].*')?.description).toBe('Each key: An asset ticker.');
    const table = renderFieldTable(fieldRows({ properties: { '<b>': { description: '<i>x</i>' } } }));
    expect(table).toContain('<code class="field">&lt;b&gt;</code>');
    expect(table).toContain('&lt;i&gt;x&lt;/i&gt;');
    expect(table).not.toContain('<b>');
  });
});

describe('jsonText', () => {
  it('every example of the documents reads back as written, a short list on one line', () => {
    for (const document of loadStreamDocuments(projectRoot))
      for (const { message } of streamMessages(document))
        for (const example of arrayAt(message, 'examples'))
          expect(JSON.parse(jsonText(at(example, 'payload')))).toEqual(at(example, 'payload'));
    expect(jsonText({ asks: [['0.1', '2']], error: null })).toBe('{"asks": [["0.1", "2"]], "error": null}');
  });
});

describe('stream samples', () => {
  const documents = loadStreamDocuments(projectRoot);
  const samples = streamSampleChannels(documents);

  it('one function writes each: request() for a query, subscribe() for a subscription, the token for an account channel', () => {
    expect(
      renderStreamSample({
        channel: 'things',
        file: 'asyncapi/public-v4.yaml',
        url: 'ws://127.0.0.1:4013/ws',
        requests: [{ method: 'things_request', params: ['A_B', 5], summary: 'Read the things.' }],
        subscribe: { method: 'things_subscribe', params: ['A_B'] },
        token: 'demo-token',
      }),
    ).toBe(`// Generated by scripts/generate.ts from the channel \`things\` of asyncapi/public-v4.yaml. Do not edit.
import { createStreamClient } from 'txc-api-v4/streams';

const client = createStreamClient({
  url: process.env.${streamVariables.url} ?? 'ws://127.0.0.1:4013/ws',
  // A WebSocket token from the HTTP API: the client authorizes each connection with it.
  token: process.env.${streamVariables.token} ?? 'demo-token',
});

// Read the things.
console.log(await client.request('things_request', ['A_B', 5]));

// Each update as it comes; leaving the loop unsubscribes.
let received = 0;
for await (const update of client.subscribe('things', ['A_B'])) {
  console.log(update);
  if (++received === 3) break;
}

await client.close();
`);
  });

  it("every channel of generated/streams.ts gets one, from its messages' first examples, that fits its panel", () => {
    expect(samples.map((sample) => sample.channel)).toEqual(Object.keys(streamChannels));
    for (const sample of samples) {
      const facts = streamChannels[sample.channel as keyof typeof streamChannels];
      const requests: readonly { method: string | null }[] = facts.requests;
      const subscribe = requests.find((request) => request.method?.endsWith('_subscribe'));
      expect(sample.subscribe?.method, sample.channel).toBe(subscribe?.method ?? undefined);
      // An account channel's connection needs the token; a public one's does not.
      expect(sample.token !== undefined, sample.channel).toBe(facts.document === 'private-v4');
      const text = readerSource(renderStreamSample(sample));
      for (const line of text.split('\n'))
        expect(line.length, `${sample.channel}: ${line}`).toBeLessThanOrEqual(sampleLineWidth);
      // Never an unsubscribe or an authorize call: the client makes those itself.
      expect(text, sample.channel).not.toMatch(/_unsubscribe'|request\('authorize'/);
    }
    // The authorization channel's sample shows an account request, before which the client authorizes.
    const authorization = samples.find((sample) => sample.authorizes !== undefined);
    expect(authorization?.requests).toHaveLength(1);
    expect(renderStreamSamples(documents).get(streamSamplePath('depth'))).toContain(
      "client.subscribe('depth', [",
    );
  });
});

describe('streamPages', () => {
  it('a page per stream document, a section per channel and per message of generated/streams.ts', () => {
    const { pages, channels } = streamPages(projectRoot);
    expect(pages.map((page) => page.file)).toEqual(['streams-public-v4.html', 'streams-private-v4.html']);
    expect(channels.map((entry) => entry.channel)).toEqual(Object.keys(streamChannels));
    for (const [channel, facts] of Object.entries(streamChannels)) {
      const page = pages.find((candidate) => candidate.document === facts.document);
      expect(page?.html, channel).toContain(`id="${channelAnchor(channel)}"`);
      const requests: readonly { message: string; reply: string | null }[] = facts.requests;
      for (const request of requests) {
        expect(page?.html, channel).toContain(`id="${messageAnchor(channel, request.message)}"`);
        if (request.reply)
          expect(page?.html, channel).toContain(`id="${messageAnchor(channel, request.reply)}"`);
      }
    }
  });
});
