// What every transport does around its own HTTP call: refuse once closed, start the exchange's
// deadline, wait for a connection slot, prepare (sign) the request only then, and end every
// exchange in flight when the transport closes. A transport supplies just the call itself.
import { ActiveList } from './active-list.ts';
import { Deadline } from './deadline.ts';
import type { Slots } from './slots.ts';
import type { Answer, Exchange, Outgoing } from './types.ts';

export class Exchanges {
  private readonly active = new ActiveList<Deadline>();
  private closed: { reason: unknown } | undefined;

  /**
   * Runs `send` for `exchange` once a slot of `slots` is held, within the exchange's deadline.
   * Rejects with the deadline's reason (timeout, the caller's abort, close) when it ended the
   * exchange, or with `send`'s own error.
   */
  async run(
    exchange: Exchange,
    slots: Slots,
    send: (outgoing: Outgoing, deadline: Deadline) => Promise<Answer>,
  ): Promise<Answer> {
    if (this.closed) throw this.closed.reason;
    const deadline = new Deadline(exchange.timeoutMs, exchange.signal);
    const entry = this.active.add(deadline);
    let holding = false;
    try {
      // A free slot is taken at once, without a promise.
      const queued = slots.acquire(deadline);
      if (queued) await queued;
      holding = true;
      const prepared = exchange.prepare((ms) => deadline.wait(ms));
      const outgoing = prepared instanceof Promise ? await prepared : prepared;
      if (deadline.ended) throw deadline.reason;
      return await send(outgoing, deadline);
    } catch (error) {
      // A transport rejects with its own error; the deadline's reason says why it ended.
      throw deadline.ended ? deadline.reason : error;
    } finally {
      deadline.clear();
      this.active.remove(entry);
      if (holding) slots.release();
    }
  }

  /** Ends every exchange in flight with `reason`; later ones are refused with it. */
  close(reason: unknown): void {
    this.closed = { reason };
    for (const deadline of this.active.values()) deadline.end(reason);
  }
}
