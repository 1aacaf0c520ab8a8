// A consumer's use of the stream client, the same on every runtime and in the browser page, with
// the WebSocket each gets by default: two requests in flight at once, each given its own answer; a
// subscription's first update, then leaving it; a local order book from a whole book and a change.
// Each part it leaves (an unsubscribe, sent unanswered) is followed by a request on the same
// connection, so that its answer shows the server has read the unsubscribe before the next part.
// First, an opening the server refuses: runtimes report it differently (Node 22's WebSocket fires
// no close event, Deno's closes with code 0), and the client must say it the same way on each.
import * as root from 'txc-api-v4';
import { createStreamClient, watchOrderBook } from 'txc-api-v4/streams';

/** What the stream client did against the server at `url`, as plain JSON. */
export async function useStreams(url) {
  const refusing = createStreamClient({ url: new URL('/not-the-streams', url).href, reconnect: false });
  const refused = await refusing.request('time', []).then(
    () => 'answered',
    (error) => ({ name: error.name, cause: error.cause?.name, code: error.cause?.code }),
  );
  await refusing.close();
  const webSockets = [];
  const resnapshots = [];
  const client = createStreamClient({ url, hooks: { open: [(event) => webSockets.push(event.webSocket)] } });
  try {
    const [pong, time] = await Promise.all([client.request('ping', []), client.request('time', [])]);
    let update;
    for await (const params of client.subscribe('lastprice', ['BTC_USDT'])) {
      update = params;
      break;
    }
    const afterUnsubscribe = await client.request('ping', []);
    const books = [];
    const market = 'ETH_BTC';
    const hooks = { resnapshot: [(event) => resnapshots.push(event.error.message)] };
    for await (const book of watchOrderBook(client, { market, hooks })) {
      // The book is one object, updated in place: each step is copied as it is.
      books.push({ bids: [...book.bids], asks: [...book.asks], updateId: book.updateId });
      if (books.length === 2) break;
    }
    const afterBook = await client.request('time', []);
    return {
      refused,
      // The root entry stays small: the streams are an entry of their own.
      notInRoot: !('createStreamClient' in root) && !('watchOrderBook' in root),
      webSockets,
      pong,
      time,
      update,
      afterUnsubscribe,
      books,
      resnapshots,
      afterBook,
    };
  } finally {
    await client.close();
  }
}
