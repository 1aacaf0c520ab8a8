// What the client knows of each channel, read from the generated facts (generated/streams.ts) and
// message payloads (generated/streams-*-v4.ts), never written per channel: which methods a caller
// may send and their parameters and results, which channels can be subscribed to, with what
// parameters, and what their updates carry. The wire's own naming (observed upstream, in
// asyncapi/public-v4.yaml) tells a channel's requests apart: `<x>_subscribe`, `<x>_unsubscribe`,
// and the `<x>_update` the server pushes.

import { type StreamChannelName, streamChannels } from '../../generated/streams.ts';
import type { components as PrivateMessages } from '../../generated/streams-private-v4.ts';
import type { components as PublicMessages } from '../../generated/streams-public-v4.ts';

export type { StreamChannelName };

type Channels = typeof streamChannels;
type RequestFactsOf<Channel extends StreamChannelName> = Channels[Channel]['requests'][number];
type MessagesOf<Channel extends StreamChannelName> = Channels[Channel]['document'] extends 'private-v4'
  ? PrivateMessages['schemas']
  : PublicMessages['schemas'];
type Payload<Channel extends StreamChannelName, Name> = Name extends keyof MessagesOf<Channel>
  ? MessagesOf<Channel>[Name]
  : never;

type SubscribeMethodPattern = `${string}_subscribe`;
type UnsubscribeMethodPattern = `${string}_unsubscribe`;

/** Every method a client sends on the streams, of every channel. */
export type StreamMethod = {
  [Channel in StreamChannelName]: Exclude<RequestFactsOf<Channel>['method'], null>;
}[StreamChannelName];

/**
 * The methods `request` sends: every one but subscribing and unsubscribing (`subscribe` and the
 * end of its iteration do those) and `authorize` (the client does it when a channel needs it).
 */
export type RequestMethod = Exclude<
  StreamMethod,
  SubscribeMethodPattern | UnsubscribeMethodPattern | 'authorize'
>;

type ChannelOfMethod<Method> = {
  [Channel in StreamChannelName]: Method extends RequestFactsOf<Channel>['method'] ? Channel : never;
}[StreamChannelName];
type FactsOfMethod<Method> = Extract<RequestFactsOf<ChannelOfMethod<Method>>, { method: Method }>;

/** A method's `params`, as its message's payload has them. */
export type RequestParams<Method extends StreamMethod> =
  Payload<ChannelOfMethod<Method>, FactsOfMethod<Method>['message']> extends { params: infer Params }
    ? Params
    : never;

/** A method's answer's `result`; unknown when its answer is not shown. */
export type RequestResult<Method extends StreamMethod> = FactsOfMethod<Method>['reply'] extends string
  ? Payload<ChannelOfMethod<Method>, FactsOfMethod<Method>['reply']> extends { result: infer Result }
    ? Result
    : unknown
  : unknown;

/** The channels a client can subscribe to: those with a `<x>_subscribe` request. */
export type SubscribableChannel = {
  [Channel in StreamChannelName]: [
    Extract<RequestFactsOf<Channel>['method'], SubscribeMethodPattern>,
  ] extends [never]
    ? never
    : Channel;
}[StreamChannelName];

/** A channel's subscribe parameters. */
export type SubscribeParams<Channel extends SubscribableChannel> = RequestParams<
  Extract<RequestFactsOf<Channel>['method'], SubscribeMethodPattern>
>;

/** What one update of a channel carries: its message's `params`. */
export type StreamUpdate<Channel extends SubscribableChannel> =
  Payload<Channel, Channels[Channel]['updates'][number]['message']> extends { params: infer Params }
    ? Params
    : never;

/** What the client does with a channel at run time. */
export interface ChannelRoute {
  readonly channel: StreamChannelName;
  readonly requiresAuthorization: boolean;
  readonly subscribe: string | undefined;
  readonly unsubscribe: string | undefined;
  /** Whether the server answers the unsubscribe (the documents show its answer). */
  readonly unsubscribeAnswered: boolean;
  readonly updates: readonly string[];
}

function routeOf(channel: StreamChannelName): ChannelRoute {
  const facts = streamChannels[channel];
  const requests: readonly { method: string | null; reply: string | null }[] = facts.requests;
  const subscribe = requests.find((request) => request.method?.endsWith('_subscribe'));
  const unsubscribe = requests.find((request) => request.method?.endsWith('_unsubscribe'));
  const updates: readonly { method: string | null }[] = facts.updates;
  return {
    channel,
    requiresAuthorization: facts.requiresAuthorization,
    subscribe: subscribe?.method ?? undefined,
    unsubscribe: unsubscribe?.method ?? undefined,
    unsubscribeAnswered: Boolean(unsubscribe?.reply),
    updates: updates.flatMap((update) => (update.method ? [update.method] : [])),
  };
}

const routes = new Map(
  (Object.keys(streamChannels) as StreamChannelName[]).map((channel) => [channel, routeOf(channel)]),
);

/** The channel a request method belongs to. */
const channelByMethod = new Map<string, ChannelRoute>();
/** The channel an update method belongs to. */
const channelByUpdate = new Map<string, ChannelRoute>();
for (const route of routes.values()) {
  const requests: readonly { method: string | null }[] = streamChannels[route.channel].requests;
  for (const { method } of requests) if (method) channelByMethod.set(method, route);
  for (const method of route.updates) channelByUpdate.set(method, route);
}

export const channelRoute = (channel: string): ChannelRoute | undefined =>
  routes.get(channel as StreamChannelName);
export const routeOfMethod = (method: string): ChannelRoute | undefined => channelByMethod.get(method);
export const routeOfUpdate = (method: string): ChannelRoute | undefined => channelByUpdate.get(method);

/** The request that authorizes a connection: the authorize channel's. */
export const authorizeMethod = streamChannels.authorize.requests[0].method;

/** Whether `method` is one `request` sends (see RequestMethod). */
export function isRequestMethod(method: string): boolean {
  return (
    channelByMethod.has(method) &&
    method !== authorizeMethod &&
    !method.endsWith('_subscribe') &&
    !method.endsWith('_unsubscribe')
  );
}

/** The channels a client can subscribe to, by name, for messages that list them. */
export const subscribableChannels = [...routes.values()]
  .filter((route) => route.subscribe !== undefined)
  .map((route) => route.channel);
