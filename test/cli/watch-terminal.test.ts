// `txc watch` in a real terminal (tmux, ./tmux.ts) against the stream mock: a live view on the
// alternate screen with the cursor hidden, as wide as the terminal (the depth book's best levels
// side by side, with their amounts where they fit and without where they do not, drawn again when
// the terminal is resized; a table of the newest updates for another channel), and Ctrl-C ending
// it cleanly: unsubscribed, exit code 0, the cursor shown and the screen as it was. Every wait is
// on an event: output reaching the pane, txc's exit, a request the mock logs; within the limits of
// scripts/time-limits.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonRecord } from '../../model/json.ts';
import { loadStreamCatalog } from '../../model/stream-catalog.ts';
import { type StreamMock, startStreamMock } from '../../scripts/stream-mock.ts';
import { scratchDirectory } from './helpers.ts';
import { startTmux, type Tmux } from './tmux.ts';

const catalog = loadStreamCatalog();
const scratch = scratchDirectory();
const requests: string[] = [];
/** The checks of the waits on the mock's log, run again each time it logs a request. */
const onRequest = new Set<() => void>();
let terminal: Tmux;
let mock: StreamMock;
/**
 * A mock whose first update of a channel comes at once and the next one not for a thousand times
 * the documents' interval: the book it shows is the whole book of the first example, and nothing
 * but a resize draws the view again.
 */
let still: StreamMock;

beforeAll(async () => {
  terminal = await startTmux(scratch.dir);
  mock = await startStreamMock({
    catalog,
    log: (line) => {
      requests.push(line);
      for (const check of onRequest) check();
    },
  });
  still = await startStreamMock({ catalog, pace: 1000 });
});
afterAll(async () => {
  await terminal?.kill();
  await mock?.close();
  await still?.close();
  scratch.remove();
});

/** The whole book the depth channel's first example holds: its best bid and ask, with amounts. */
const wholeBook = (() => {
  const update = catalog.channels.find((channel) => channel.name === 'depth')?.updates[0];
  const params = (update?.message.examples[0]?.payload as JsonRecord | undefined)?.params as unknown[];
  const book = params?.[1] as { bids: [string, string][]; asks: [string, string][] } | undefined;
  const [bid, bidAmount] = book?.bids[0] ?? [];
  const [ask, askAmount] = book?.asks[0] ?? [];
  if (!bid || !bidAmount || !ask || !askAmount) throw new Error('no whole book in the depth examples');
  return { bid, bidAmount, ask, askAmount };
})();

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The best levels side by side on one line, with their amounts. */
const withAmounts = new RegExp(
  `${escaped(wholeBook.bidAmount)} +${escaped(wholeBook.bid)} +│ ${escaped(wholeBook.ask)} +${escaped(wholeBook.askAmount)}`,
);
/** The best prices side by side on one line, and nothing else on it. */
const pricesOnly = new RegExp(`^${escaped(wholeBook.bid)} +│ ${escaped(wholeBook.ask)}$`, 'm');

/** Resolves once `holds()` is true: at once, or when the mock logs a request that makes it so. */
function whenRequests(holds: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!holds()) return;
      onRequest.delete(check);
      resolve();
    };
    onRequest.add(check);
    check();
  });
}

const linesOf = (text: string) => text.split('\n').map((line) => line.trimEnd());

/** Ends txc in the session with Ctrl-C, and returns the screen it leaves: its exit code. */
async function interrupt(session: string): Promise<string> {
  await terminal.tmux('send-keys', '-t', session, 'C-c');
  return terminal.waitForExit(session);
}
const fits = (text: string, width: number) => linesOf(text).every((line) => line.length <= width);
const depth = ['watch', 'depth', 'BTC_USDT', '--limit', '5'];

describe('txc watch in a terminal', () => {
  it('shows the book side by side within 100 columns, on the alternate screen, cursor hidden', async () => {
    await terminal.startTxc('wide', [...depth, '--stream-url', still.url], 100, 12);
    const text = await terminal.waitFor('wide', withAmounts);
    expect(fits(text, 100)).toBe(true);
    expect(text).toContain(`txc watch depth BTC_USDT · ${still.url}`);
    expect(await terminal.display('wide', '#{alternate_on} #{cursor_flag}')).toBe('1 0');
    expect(await interrupt('wide')).toContain('[exit 0]');
  });

  it('leaves the amounts out in 30 columns, keeping the prices whole', async () => {
    await terminal.startTxc('narrow', [...depth, '--stream-url', still.url], 30, 12);
    const text = await terminal.waitFor('narrow', pricesOnly);
    expect(fits(text, 30)).toBe(true);
    expect(text).not.toContain(wholeBook.bidAmount);
    expect(await interrupt('narrow')).toContain('[exit 0]');
  });

  it('draws the book again to fit when the terminal is resized, with no update in between', async () => {
    await terminal.startTxc('resized', [...depth, '--stream-url', still.url], 100, 12);
    await terminal.waitFor('resized', withAmounts);
    await terminal.tmux('resize-window', '-t', 'resized', '-x', '30', '-y', '12');
    const text = await terminal.waitFor('resized', (screen) => pricesOnly.test(screen) && fits(screen, 30));
    expect(text).not.toContain(wholeBook.askAmount);
    expect(text).toContain('1 update,');
    expect(await interrupt('resized')).toContain('[exit 0]');
  });

  it('shows another channel as a table of its newest updates, within the width', async () => {
    const update = catalog.channels.find((channel) => channel.name === 'lastprice')?.updates[0];
    const [, price] = (update?.message.examples[0]?.payload as { params: [string, string] } | undefined)
      ?.params ?? ['', ''];
    await terminal.startTxc(
      'table',
      ['watch', 'lastprice', 'BTC_USDT', 'ETH_BTC', '--stream-url', mock.url],
      60,
      12,
    );
    const text = await terminal.waitFor(
      'table',
      (screen) =>
        /^market +price$/m.test(screen) &&
        new RegExp(`^BTC_USDT +${escaped(price)}$`, 'm').test(screen) &&
        new RegExp(`^ETH_BTC +${escaped(price)}$`, 'm').test(screen),
    );
    expect(fits(text, 60)).toBe(true);
    expect(await interrupt('table')).toContain('[exit 0]');
  });

  it('ends on Ctrl-C: unsubscribed, exit code 0, the cursor shown and the main screen back', async () => {
    const of = (method: string) => requests.filter((line) => line.startsWith(`${method} `)).length;
    const before = { subscribe: of('market_subscribe'), unsubscribe: of('market_unsubscribe') };
    await terminal.startTxc('stop', ['watch', 'market', 'BTC_USDT', '--stream-url', mock.url], 100, 12);
    await terminal.waitFor('stop', /^BTC_USDT /m);
    expect(await terminal.display('stop', '#{alternate_on} #{cursor_flag}')).toBe('1 0');
    const text = await interrupt('stop');
    // Nothing of the view is left: the screen from before it, and the exit code.
    expect(linesOf(text).filter((line) => line !== '')).toEqual(['[exit 0]']);
    expect(await terminal.display('stop', '#{alternate_on} #{cursor_flag}')).toBe('0 1');
    // The unsubscribe went before the socket closed; the mock logs it as it reads it.
    await whenRequests(() => of('market_unsubscribe') > before.unsubscribe);
    expect(of('market_unsubscribe')).toBe(before.unsubscribe + 1);
    expect(of('market_subscribe')).toBe(before.subscribe + 1);
  });
});
