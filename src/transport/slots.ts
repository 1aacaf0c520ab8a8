// Connection slots: at most N exchanges are on the wire at once, the rest wait here, in order.
// A transport prepares (signs) an exchange only once it holds a slot, so nothing signed ever
// queues inside the HTTP stack, where a window-mode nonce would go stale.
import type { Deadline } from './deadline.ts';

export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(count: number) {
    this.free = count;
  }

  /** Resolves once a slot is held; rejects with the deadline's reason if it ends first. */
  acquire(deadline: Deadline | undefined): Promise<void> | undefined {
    if (this.free > 0 && this.waiting.length === 0) {
      this.free--;
      return undefined;
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        deadline?.offEnd(onEnd);
        resolve();
      };
      const onEnd = () => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(deadline?.reason);
      };
      this.waiting.push(grant);
      deadline?.onEnd(onEnd);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
