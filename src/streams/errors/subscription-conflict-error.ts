import { StreamError } from './stream-error.ts';

/**
 * A channel that already has a live subscription on this client. The server keeps one
 * subscription per channel on a connection (a new one replaces the one before, observed upstream
 * for trades), so a second one could only steal the first one's updates: end the first iteration
 * before subscribing again, or use a second client.
 */
export class SubscriptionConflictError extends StreamError {
  override readonly name = 'SubscriptionConflictError';
  readonly kind = 'subscription-conflict';
  readonly channel: string;

  constructor(channel: string) {
    super(
      `${channel}: this client already has a live subscription to the channel; end it first, or use another client`,
    );
    this.channel = channel;
  }
}
