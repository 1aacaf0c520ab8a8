// The methods of the streams, from the documents' facts (generated/streams.ts): for each method a
// client sends, its channel, what kind of request it is and the message answering it; for each
// channel, the update it pushes and how often. A method's kind is its name's: `…_subscribe` and
// `…_unsubscribe` change what the connection receives, any other is answered once.
import { type StreamChannelName, streamChannels, streamKeepalive } from '../../generated/streams.ts';

export type RequestKind = 'query' | 'subscribe' | 'unsubscribe';

export interface MethodFacts {
  readonly method: string;
  readonly channel: StreamChannelName;
  readonly kind: RequestKind;
  readonly requiresAuthorization: boolean;
}

export interface UpdateFacts {
  readonly method: string;
  /** At most one update this often, in milliseconds; 0 as things happen. */
  readonly intervalMs: number;
}

const kindOf = (method: string): RequestKind =>
  method.endsWith('_unsubscribe') ? 'unsubscribe' : method.endsWith('_subscribe') ? 'subscribe' : 'query';

const channelNames = Object.keys(streamChannels) as StreamChannelName[];

/** Every method a client may send, by name. */
export const streamMethods: ReadonlyMap<string, MethodFacts> = new Map(
  channelNames.flatMap((channel) => {
    const facts = streamChannels[channel];
    return facts.requests.flatMap((request) =>
      request.method === null
        ? []
        : [
            [
              request.method,
              {
                method: request.method,
                channel,
                kind: kindOf(request.method),
                requiresAuthorization: facts.requiresAuthorization,
              },
            ] as const,
          ],
    );
  }),
);

/** The update each channel pushes, by channel (none for a channel without one). */
export const streamUpdates: ReadonlyMap<StreamChannelName, UpdateFacts> = new Map(
  channelNames.flatMap((channel) => {
    const update = streamChannels[channel].updates[0];
    if (!update?.method) return [];
    return [[channel, { method: update.method, intervalMs: (update.intervalSeconds ?? 0) * 1000 }] as const];
  }),
);

/** The address every channel shares: the path the sandbox serves its streams at. */
export const streamAddress = (() => {
  const addresses = new Set(channelNames.map((channel) => streamChannels[channel].address));
  const [address] = addresses;
  if (addresses.size !== 1 || typeof address !== 'string')
    throw new Error('the stream documents do not give every channel one address');
  return address;
})();

export const keepalive = streamKeepalive;

/** The streams' URL on the origin of an HTTP server (`http://127.0.0.1:4012` → `ws://127.0.0.1:4012/ws`). */
export const streamUrlOf = (origin: string) => `${origin.replace(/^http/, 'ws')}${streamAddress}`;
