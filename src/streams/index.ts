// The stream client's entry (`txc-api-v4/streams`, also re-exported by the package's main entry):
// the client, its options and hooks, the order book, the channel types derived from the
// documents, and every error class.
export { streamChannels, streamKeepalive, streamServers } from '../../generated/streams.ts';
// Thrown at creation when an option is wrong, as the HTTP clients do.
export { ConfigurationError } from '../errors.ts';
export type { ReconnectPolicy } from './backoff.ts';
export type {
  RequestMethod,
  RequestParams,
  RequestResult,
  StreamChannelName,
  StreamMethod,
  StreamUpdate,
  SubscribableChannel,
  SubscribeParams,
} from './channels.ts';
export {
  createStreamClient,
  type StreamClient,
  type StreamRequestOptions,
  type SubscribeOptions,
} from './client.ts';
export { compareDecimals } from './decimal.ts';
export { AuthorizationError } from './errors/authorization-error.ts';
export { BufferOverflowError } from './errors/buffer-overflow-error.ts';
export { FrameTooLargeError } from './errors/frame-too-large-error.ts';
export { MalformedFrameError } from './errors/malformed-frame-error.ts';
export { OrderBookGapError } from './errors/order-book-gap-error.ts';
export { PongTimeoutError } from './errors/pong-timeout-error.ts';
export { StreamClosedError } from './errors/stream-closed-error.ts';
export { StreamConnectionError } from './errors/stream-connection-error.ts';
export { StreamError, type StreamErrorKind } from './errors/stream-error.ts';
export { StreamRequestError } from './errors/stream-request-error.ts';
export { StreamTimeoutError } from './errors/stream-timeout-error.ts';
export { SubscriptionConflictError } from './errors/subscription-conflict-error.ts';
export { UnknownAnswerError } from './errors/unknown-answer-error.ts';
export type {
  AuthorizeEvent,
  CloseEvent,
  OpenEvent,
  ReconnectEvent,
  ResnapshotEvent,
  ResubscribeEvent,
  StreamErrorEvent,
  StreamHooks,
} from './hooks.ts';
export type { StreamClientOptions, StreamServerName, VisibleStreamOptions } from './options.ts';
export {
  type DepthUpdate,
  OrderBook,
  type OrderBookView,
  type PriceLevel,
  type WatchOrderBookOptions,
  watchOrderBook,
} from './order-book.ts';
export type { WebSocketConstructor, WebSocketKind, WebSocketLike } from './socket.ts';
export type { Subscription } from './subscription.ts';
export type { TokenOption } from './token.ts';
