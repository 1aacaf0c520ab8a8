// What a channel of the sandbox's streams is made of: its one piece of hand code, where its data
// comes from in the state. Which methods, messages and intervals it has are the documents'
// (methods.ts); a channel says only how to answer a query, which feeds a subscription holds and
// what each feed has to say when the state has changed.
import type { StreamChannelName } from '../../generated/streams.ts';
import type { AccountState, SandboxState } from '../state.ts';
import type { BookSequences } from './book-sequences.ts';
import type { Refusal } from './failures.ts';

/** What a channel reads, at one moment. */
export interface StreamView {
  readonly state: SandboxState;
  /** The sandbox's clock, milliseconds. */
  readonly now: number;
  /** The connection's account once `authorize` succeeded. */
  readonly account: AccountState | undefined;
  /** Each market's book sequence number (depth, best bid and ask). */
  readonly books: BookSequences;
}

/** A connection as a query may change it: `authorize` binds it to an account. */
export interface Session {
  authorize(account: AccountState): void;
}

/**
 * One subscription's source of updates: each call answers the `params` of each update due since
 * the call before (the first call, what a subscriber gets at once), in the order they happened.
 */
export interface Feed {
  /** What an unsubscribe request may name it by (a market), when it takes one. */
  readonly key?: string;
  next(view: StreamView): readonly unknown[];
  /**
   * What a subscriber gets again when the channel's interval passes with nothing new: the current
   * value, for a channel whose documents say it is sent every interval. None for a channel that
   * sends only what happens.
   */
  again?(view: StreamView): readonly unknown[];
}

/** A request's parameters, as its message's schema let them through. */
// biome-ignore lint/suspicious/noExplicitAny: each channel reads its own message's positions
export type Params = any[];

export interface ChannelSource {
  /** The answer to the channel's one-off request `method`, or its refusal. */
  readonly query?: (method: string, params: Params, view: StreamView, session: Session) => unknown;
  /** The feeds the connection holds after a subscribe request, given those it held, or a refusal. */
  readonly subscribe?: (params: Params, view: StreamView, held: readonly Feed[]) => Feed[] | Refusal;
  /** The feeds the connection keeps after an unsubscribe request; by default none. */
  readonly unsubscribe?: (params: Params, held: readonly Feed[]) => Feed[];
}

/** Every channel's source, one for each channel of the documents. */
export type ChannelSources = Readonly<Record<StreamChannelName, ChannelSource>>;
