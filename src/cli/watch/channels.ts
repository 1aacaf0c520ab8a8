// The channels `txc watch` streams, from the stream facts (generated/streams.ts) as the stream
// client reads them (streams/channels.ts): every channel with a subscribe, its subcommand (the
// channel's name in kebab case, the name itself as an alias), its summary and update interval for
// --help, whether it needs an authorized connection, its argument and flags (params.ts), and the
// shape of its updates, which names the columns of the live view. Nothing here names a channel.
import { type StreamValueShape, streamChannels, streamParams } from '../../../generated/streams.ts';
import { channelRoute, type SubscribableChannel, subscribableChannels } from '../../streams/channels.ts';
import { type ChannelParams, channelParams, namedSchemas } from './params.ts';

export interface WatchChannel {
  /** The channel's name in the documents (`bookTicker`). */
  readonly channel: SubscribableChannel;
  /** The subcommand: the name in kebab case (`book-ticker`). */
  readonly command: string;
  readonly summary: string;
  /** Seconds between updates; null: as things happen. */
  readonly intervalSeconds: number | null;
  /** Whether the connection must be authorized first: an account channel. */
  readonly requiresAuthorization: boolean;
  readonly params: ChannelParams;
  /** What its updates hold: names of positions, times, named codes. */
  readonly updateShape: StreamValueShape | undefined;
}

type ParamsFacts = { readonly shape: StreamValueShape; readonly example: unknown };
const paramsByMethod: Readonly<Record<string, ParamsFacts>> = streamParams;

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

const named = namedSchemas(Object.values(paramsByMethod));

function watchChannel(channel: SubscribableChannel): WatchChannel {
  const route = channelRoute(channel);
  const facts = streamChannels[channel];
  const updates: readonly { readonly intervalSeconds: number | null }[] = facts.updates;
  const subscribe = paramsByMethod[route?.subscribe ?? ''] ?? { shape: {}, example: [] };
  const [update] = route?.updates ?? [];
  return {
    channel,
    command: kebab(channel),
    summary: facts.summary,
    intervalSeconds: updates[0]?.intervalSeconds ?? null,
    requiresAuthorization: facts.requiresAuthorization,
    params: channelParams(subscribe, named),
    updateShape: update === undefined ? undefined : paramsByMethod[update]?.shape,
  };
}

export const watchChannels: readonly WatchChannel[] = subscribableChannels.map((channel) =>
  watchChannel(channel as SubscribableChannel),
);
