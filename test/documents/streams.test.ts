// The stream documents (asyncapi/): the lint's problems placed where they are written, one channel
// for each of the operator's stream descriptions with the methods it names, every named example
// valid against its payload, every amount a decimal string, and the HTTP API's shared schemas taken
// by $ref, never copied. That the documents themselves parse without a diagnostic is `npm run
// lint`'s check (scripts/stream-lint-cli.ts), not repeated here.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { streamChannels, streamTokenOperation } from '../../generated/streams.ts';
import { compileSchema } from '../../model/compiled-schema.ts';
import { projectRoot, readDocument } from '../../model/document.ts';
import { arrayAt, at, isRecord, type JsonRecord, recordAt, stringAt } from '../../model/json.ts';
import {
  createStreamSchemaValidator,
  loadStreamDocuments,
  messageMethod,
  type StreamDocumentName,
  streamMessages,
} from '../../model/streams.ts';
import { lintStreamEvents } from '../../scripts/stream-event-lint.ts';
import { lintStreamDocuments } from '../../scripts/stream-lint.ts';

/**
 * The operator's eighteen stream descriptions, by file (under its `asyncapi/` folder, which this
 * project does not hold), each with the channel that covers it here and every method it names:
 * requests and the updates the server pushes.
 */
const operatorFiles: { file: string; channel: string; methods: string[] }[] = [
  {
    file: 'public/depth.yaml',
    channel: 'depth',
    methods: ['depth_request', 'depth_subscribe', 'depth_unsubscribe', 'depth_update'],
  },
  {
    file: 'public/trades.yaml',
    channel: 'trades',
    methods: ['trades_request', 'trades_subscribe', 'trades_unsubscribe', 'trades_update'],
  },
  {
    file: 'public/kline.yaml',
    channel: 'kline',
    methods: ['candles_request', 'candles_subscribe', 'candles_unsubscribe', 'candles_update'],
  },
  {
    file: 'public/lastprice.yaml',
    channel: 'lastprice',
    methods: ['lastprice_request', 'lastprice_subscribe', 'lastprice_unsubscribe', 'lastprice_update'],
  },
  {
    file: 'public/market.yaml',
    channel: 'market',
    methods: ['market_request', 'market_subscribe', 'market_unsubscribe', 'market_update'],
  },
  {
    file: 'public/market_today.yaml',
    channel: 'marketToday',
    methods: ['marketToday_query', 'marketToday_subscribe', 'marketToday_unsubscribe', 'marketToday_update'],
  },
  {
    file: 'public/book_ticker.yaml',
    channel: 'bookTicker',
    methods: ['bookTicker_subscribe', 'bookTicker_unsubscribe', 'bookTicker_update'],
  },
  { file: 'public/service.yaml', channel: 'service', methods: ['ping', 'time'] },
  { file: 'private/authorize.yaml', channel: 'authorize', methods: ['authorize'] },
  {
    file: 'private/balance_spot.yaml',
    channel: 'balanceSpot',
    methods: [
      'balanceSpot_request',
      'balanceSpot_subscribe',
      'balanceSpot_unsubscribe',
      'balanceSpot_update',
    ],
  },
  {
    file: 'private/balance_margin.yaml',
    channel: 'balanceMargin',
    methods: [
      'balanceMargin_request',
      'balanceMargin_subscribe',
      'balanceMargin_unsubscribe',
      'balanceMargin_update',
    ],
  },
  {
    file: 'private/orders_pending.yaml',
    channel: 'ordersPending',
    methods: [
      'ordersPending_request',
      'ordersPending_subscribe',
      'ordersPending_unsubscribe',
      'ordersPending_update',
    ],
  },
  {
    file: 'private/orders_executed.yaml',
    channel: 'ordersExecuted',
    methods: [
      'ordersExecuted_request',
      'ordersExecuted_subscribe',
      'ordersExecuted_unsubscribe',
      'ordersExecuted_update',
    ],
  },
  {
    file: 'private/deals.yaml',
    channel: 'deals',
    methods: ['deals_request', 'deals_subscribe', 'deals_unsubscribe', 'deals_update'],
  },
  {
    file: 'private/positions.yaml',
    channel: 'positions',
    methods: ['positionsMargin_subscribe', 'positionsMargin_unsubscribe', 'positionsMargin_update'],
  },
  {
    file: 'private/margin_positions_events.yaml',
    channel: 'marginPositionsEvents',
    methods: [
      'positionsAccountMargin_subscribe',
      'positionsAccountMargin_unsubscribe',
      'positionsAccountMargin_update',
    ],
  },
  {
    file: 'private/borrows.yaml',
    channel: 'borrows',
    methods: ['borrowsMargin_subscribe', 'borrowsMargin_unsubscribe', 'borrowsMargin_update'],
  },
  {
    file: 'private/borrows_events.yaml',
    channel: 'borrowsEvents',
    methods: [
      'borrowsAccountMargin_subscribe',
      'borrowsAccountMargin_unsubscribe',
      'borrowsAccountMargin_update',
    ],
  },
];

/**
 * The fields that hold an amount or a price, by property name or by the name of a tuple's
 * position (x-field-name): each is a string, the HTTP API's Decimal but for `liq_price`, which
 * the operator shows as `"NaN"` too.
 */
const amountFields = [
  'price',
  'amount',
  'left',
  'deal_stock',
  'deal_money',
  'deal_fee',
  'fee',
  'deal',
  'volume',
  'last',
  'open',
  'close',
  'high',
  'low',
  'available',
  'freeze',
  'balance',
  'borrow',
  'available_without_borrow',
  'available_with_borrow',
  'B',
  'b',
  'av',
  'ab',
  'amount_in_money',
  'base_price',
  'pnl',
  'unrealized_funding',
  'funding',
  'margin',
  'free_margin',
  'realized_pnl',
  'best_bid_price',
  'best_bid_amount',
  'best_ask_price',
  'best_ask_amount',
  'liq_price',
];
const notDecimalPattern = new Set(['liq_price']);

/** The numbers that are not amounts: identifiers, times, counters, codes, sizes of a page. */
const numberFields = [
  'id',
  'time',
  'ctime',
  'mtime',
  'ftime',
  'timestamp',
  'event_time',
  'transaction_time',
  'message_time',
  'start_time',
  'end_time',
  'interval',
  'period',
  'update_id',
  'past_update_id',
  'trade_id',
  'deal_id',
  'order_id',
  'deal_order_id',
  'limit',
  'offset',
  'total',
  'type',
  'side',
  'role',
  'event_id',
  'event_type',
  'filter',
  // The server's time, the result of `time`.
  'result',
];

const documents = loadStreamDocuments();
const messages = documents.flatMap(streamMessages);
const decimal = readDocument('openapi/components/schemas/Decimal.yaml') as JsonRecord;
const market = readDocument('openapi/components/schemas/Market.yaml') as JsonRecord;

/** Every named field below a schema: the properties and the tuple positions, with their schemas. */
function* namedFields(
  schema: unknown,
  where: string,
): Generator<{ name: string; schema: JsonRecord; where: string }> {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) yield* namedFields(item, `${where}[${index}]`);
    return;
  }
  if (!isRecord(schema)) return;
  for (const [name, property] of Object.entries(recordAt(schema, 'properties'))) {
    if (isRecord(property)) yield { name, schema: property, where: `${where}.${name}` };
  }
  for (const item of arrayAt(schema, 'items')) {
    const name = stringAt(item, 'x-field-name');
    if (name && isRecord(item)) yield { name, schema: item, where: `${where}[${name}]` };
  }
  for (const [key, value] of Object.entries(schema))
    if (typeof value === 'object') yield* namedFields(value, `${where}/${key}`);
}

const fields = messages.flatMap(({ channel, key, message }) => [
  ...namedFields(recordAt(message, 'payload'), `${channel}.${key}`),
]);

const typeOf = (schema: JsonRecord): unknown =>
  schema.type ?? (Array.isArray(schema.allOf) ? 'object' : undefined);

describe('stream documents', () => {
  describe('the lint places a problem where it is written', () => {
    const copy = mkdtempSync(join(tmpdir(), 'stream-lint-'));
    afterAll(() => rmSync(copy, { recursive: true, force: true }));
    for (const part of ['asyncapi', 'openapi', 'redocly.yaml'])
      cpSync(join(projectRoot, part), join(copy, part), { recursive: true });

    it('in a shared schema, and at a $ref that names nothing', async () => {
      const edit = (file: string, from: string, to: string) => {
        const text = readFileSync(join(copy, file), 'utf8');
        expect(text).toContain(from);
        writeFileSync(join(copy, file), text.replace(from, to));
      };
      edit('asyncapi/components/schemas/Trade.yaml', '  rpi:\n    type: boolean', '  rpi:\n    type: bool');
      edit('asyncapi/channels/kline.yaml', 'schemas/Candle.yaml', 'schemas/Candles.yaml');
      const { ok, problems } = await lintStreamDocuments(copy, ['public-v4']);
      expect(ok).toBe(false);
      const line = (file: string, text: string) =>
        readFileSync(join(copy, file), 'utf8')
          .split('\n')
          .findIndex((row) => row.includes(text)) + 1;
      expect(problems).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^asyncapi/components/schemas/Trade\\.yaml:${line('asyncapi/components/schemas/Trade.yaml', 'type: bool')}:\\d+ asyncapi-document-resolved .*"type"`,
          ),
        ),
      );
      expect(problems).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^asyncapi/channels/kline\\.yaml:${line('asyncapi/channels/kline.yaml', 'Candles.yaml')}:\\d+ unresolved-ref `,
          ),
        ),
      );
    });
  });

  it('the lint refuses a token operation (x-token-operation) the OpenAPI documents lack', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'stream-lint-token-'));
    try {
      for (const part of ['asyncapi', 'openapi', 'redocly.yaml'])
        cpSync(join(projectRoot, part), join(copy, part), { recursive: true });
      const file = 'asyncapi/channels/authorize.yaml';
      const { channel, operationId, field } = streamTokenOperation;
      expect(streamChannels[channel].file).toBe(file);
      const text = readFileSync(join(copy, file), 'utf8');
      const lineOf = (written: string) => text.split('\n').findIndex((row) => row.includes(written)) + 1;
      expect(text).toContain(`operationId: ${operationId}\n`);
      expect(text).toContain(`field: ${field}\n`);
      // An operation that is not there, then a field its answer does not have.
      writeFileSync(
        join(copy, file),
        text.replace(`operationId: ${operationId}\n`, 'operationId: getNoToken\n'),
      );
      const missing = await lintStreamDocuments(copy, ['private-v4']);
      expect(missing.problems).toContainEqual(
        `${file}:${lineOf(`operationId: ${operationId}`)}:3 token-operation getNoToken is no operation of the OpenAPI documents`,
      );
      writeFileSync(join(copy, file), text.replace(`field: ${field}\n`, 'field: token\n'));
      const noField = await lintStreamDocuments(copy, ['private-v4']);
      expect(noField).toEqual({
        ok: false,
        problems: [
          `${file}:${lineOf(`field: ${field}`)}:3 token-operation the success answer of ${operationId} has no field token`,
        ],
      });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("hold every channel, update field and request field the operations' x-stream-events name", () => {
    expect(lintStreamEvents()).toEqual([]);
    const copy = mkdtempSync(join(tmpdir(), 'stream-events-lint-'));
    try {
      for (const part of ['asyncapi', 'openapi', 'redocly.yaml'])
        cpSync(join(projectRoot, part), join(copy, part), { recursive: true });
      const file = join(copy, 'openapi/paths/cancelOrder.yaml');
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('- channel: ordersPending\n');
      expect(text).toContain('        market: $response.body#/market\n');
      writeFileSync(
        file,
        text
          .replace('- channel: ordersPending\n', '- channel: ordersOpen\n')
          .replace(
            '        market: $response.body#/market\n',
            '        market: $response.body#/market\n        book.levels: $request.body#/levels\n',
          ),
      );
      expect(lintStreamEvents(copy)).toEqual([
        'openapi/paths/cancelOrder.yaml x-stream-events names channel ordersOpen, which no stream document has',
        'openapi/paths/cancelOrder.yaml x-stream-events depth: the update has no field book.levels',
        'openapi/paths/cancelOrder.yaml x-stream-events depth: $request.body#/levels names no field of the request body',
      ]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("cover each of the operator's stream descriptions with a channel and its methods", () => {
    for (const { file, channel, methods } of operatorFiles) {
      const document = documents.find(
        (stream) => stream.name === (file.startsWith('public/') ? 'public-v4' : 'private-v4'),
      );
      const own = messages.filter(
        (message) => message.document === document?.name && message.channel === channel,
      );
      expect(own.length, `${file}: channel ${channel}`).toBeGreaterThan(0);
      const named = own.map(({ message }) => messageMethod(message)).filter((method) => method !== undefined);
      expect(new Set(named), file).toEqual(new Set(methods));
    }
    const channels = documents.flatMap((stream) => Object.keys(recordAt(stream.document, 'channels')));
    expect(channels.sort()).toEqual(operatorFiles.map(({ channel }) => channel).sort());
    expect(Object.keys(streamChannels).sort()).toEqual(channels);
  });

  it('name every channel in its own file under asyncapi/channels/', () => {
    const files = readdirSync(join(projectRoot, 'asyncapi/channels')).sort();
    expect(files).toEqual(operatorFiles.map(({ channel }) => `${channel}.yaml`).sort());
    for (const stream of documents) {
      for (const [name, item] of Object.entries(recordAt(stream.document, 'channels'))) {
        expect(item, name).toEqual({ $ref: `channels/${name}.yaml` });
      }
    }
  });

  it('need authorization on every account channel but authorize, and on no public one', () => {
    for (const { file, channel } of operatorFiles) {
      const expected = file.startsWith('private/') && channel !== 'authorize';
      expect(streamChannels[channel as keyof typeof streamChannels].requiresAuthorization, file).toBe(
        expected,
      );
    }
  });

  it('answer every request but a public unsubscribe, with the reply its operation names', () => {
    for (const [name, channel] of Object.entries(streamChannels)) {
      for (const request of channel.requests) {
        const unanswered = channel.document === 'public-v4' && request.method?.endsWith('_unsubscribe');
        expect(request.reply === null, `${name} ${request.method}`).toBe(Boolean(unanswered));
      }
    }
  });

  it('serve both deployments, named as the HTTP API names them, over wss', () => {
    for (const stream of documents) {
      const servers = Object.values(recordAt(stream.dereferenced, 'servers'));
      expect(servers.map((server) => stringAt(server, 'x-server-name')).sort()).toEqual(['eu', 'global']);
      for (const server of servers) expect(at(server, 'protocol')).toBe('wss');
    }
  });

  describe('examples', () => {
    const ajv = createStreamSchemaValidator();
    const examples = messages.flatMap(({ document, channel, key, message }) =>
      arrayAt(message, 'examples').map((example, index) => ({
        name: `${document} ${channel}.${key} example ${stringAt(example, 'name') ?? index}`,
        payload: recordAt(message, 'payload'),
        example,
      })),
    );

    it('every message has named examples', () => {
      for (const { channel, key, message } of messages) {
        const names = arrayAt(message, 'examples').map((example) => stringAt(example, 'name'));
        expect(names.length, `${channel}.${key}`).toBeGreaterThan(0);
        expect(names.every(Boolean), `${channel}.${key}`).toBe(true);
        expect(new Set(names).size, `${channel}.${key}`).toBe(names.length);
      }
    });

    it('every example says where it comes from', () => {
      for (const { name, example } of examples) {
        expect(stringAt(example, 'summary'), name).toMatch(
          /observed upstream|shows no example of this message: it is built from the message's schema alone/,
        );
      }
    });

    it.each(examples)('$name is valid against its payload', ({ payload, example }) => {
      const validate = compileSchema(ajv, payload);
      expect(validate(at(example, 'payload')), ajv.errorsText(validate.errors)).toBe(true);
    });

    it('the validator rejects an amount written as a number, a side not shown and a wrong method', () => {
      const result = messages.find(({ channel, key }) => channel === 'depth' && key === 'queryResult');
      const update = messages.find(({ channel, key }) => channel === 'deals' && key === 'update');
      if (!result || !update) throw new Error('no depth result or deals update');
      const validateResult = compileSchema(ajv, recordAt(result.message, 'payload'));
      const answer = structuredClone(at(result.message, 'examples', 0, 'payload')) as {
        result: { asks: unknown[][] };
      };
      expect(validateResult(answer)).toBe(true);
      (answer.result.asks[0] as unknown[])[1] = 29.369;
      expect(validateResult(answer)).toBe(false);
      const validateUpdate = compileSchema(ajv, recordAt(update.message, 'payload'));
      const deal = structuredClone(at(update.message, 'examples', 0, 'payload')) as {
        method: string;
        params: unknown[];
      };
      expect(validateUpdate(deal)).toBe(true);
      expect(
        validateUpdate({ ...deal, params: deal.params.map((value, index) => (index === 8 ? 3 : value)) }),
      ).toBe(false);
      expect(validateUpdate({ ...deal, method: 'deals_subscribe' })).toBe(false);
    });
  });

  describe('amounts', () => {
    it('every amount or price is a string, the decimal pattern of the HTTP API but for liq_price', () => {
      const found = new Set<string>();
      // A record of one name is not its amount: the borrow an event carries is an object.
      const scalar = ({ schema }: { schema: JsonRecord }) =>
        !['object', 'array'].includes(String(typeOf(schema)));
      for (const field of fields.filter((field) => amountFields.includes(field.name) && scalar(field))) {
        found.add(field.name);
        expect(field.schema.type, field.where).toBe('string');
        if (!notDecimalPattern.has(field.name))
          expect(field.schema.pattern, field.where).toBe(decimal.pattern);
      }
      expect([...found].sort()).toEqual([...amountFields].sort());
    });

    it('every number is an identifier, a time, a counter or a code, never an amount', () => {
      for (const field of fields) {
        const type = typeOf(field.schema);
        if (type === 'number' || type === 'integer') expect(numberFields, field.where).toContain(field.name);
      }
    });
  });

  it("take the HTTP API's shared schemas by $ref, never a copy", () => {
    const texts = (folder: string): string[] =>
      readdirSync(join(projectRoot, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
    const all = texts('asyncapi').join('\n');
    for (const pattern of [decimal.pattern, market.pattern]) expect(all).not.toContain(String(pattern));
    expect(all).toMatch(/\$ref: \.\.\/\.\.\/(\.\.\/)?openapi\/components\/schemas\/Decimal\.yaml/);
    const marketFields = fields.filter(({ name }) => name === 'market');
    expect(marketFields.length).toBeGreaterThan(0);
    for (const field of marketFields) expect(field.schema.pattern, field.where).toBe(market.pattern);
  });

  it('label what they state as observed upstream in every channel', () => {
    for (const stream of documents) {
      expect(stringAt(stream.dereferenced, 'info', 'description'), stream.file).toMatch(/observed upstream/);
      for (const [name, channel] of Object.entries(recordAt(stream.dereferenced, 'channels'))) {
        expect(stringAt(channel, 'description')?.replace(/\s+/g, ' '), name).toMatch(/observed upstream/);
      }
    }
  });

  it('document names match the facts table', () => {
    const names: StreamDocumentName[] = documents.map((stream) => stream.name);
    expect(new Set(Object.values(streamChannels).map((channel) => channel.document))).toEqual(new Set(names));
  });
});
