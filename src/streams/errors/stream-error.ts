// The base of every error the stream client gives: its `kind` names what failed, so a caller (or a
// hook that logs) branches on a name, as with the HTTP client's ApiError. Each kind is a class of
// its own, in a file of its own; nothing any of them carries holds the WebSocket token (texts from
// the server are scrubbed before they get here).

export type StreamErrorKind =
  /** A request got no answer within its deadline (connected or not). */
  | 'timeout'
  /** The connection could not be opened, or it dropped. */
  | 'connection'
  /** The server did not answer a keepalive ping in time: the connection is taken as half-open. */
  | 'pong-timeout'
  /** A frame that is not JSON, or not a message of the protocol. */
  | 'malformed-frame'
  /** A frame larger than `maxMessageBytes`. */
  | 'frame-too-large'
  /** An answer whose `id` no request of this connection waits for. */
  | 'unknown-answer'
  /** The server answered a request with an `error`. */
  | 'request-refused'
  /** No token, a token provider that failed, or a token the server refused. */
  | 'authorization'
  /** A subscription's consumer fell further behind than `bufferSize` updates. */
  | 'buffer-overflow'
  /** A channel that already has a live subscription on this client. */
  | 'subscription-conflict'
  /** A depth update that does not follow the book held (a gap, a crossed or malformed level). */
  | 'order-book-gap'
  /** The client was closed. */
  | 'closed';

export abstract class StreamError extends Error {
  abstract readonly kind: StreamErrorKind;
}
