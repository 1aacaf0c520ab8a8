// Deadlines: closing a client ends exactly its own live ones (the list they are linked in holds
// every deadline not yet cleared, whatever the order of clears), and the one abortable wait.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Deadline, endDeadlinesOf } from '../../src/waits.ts';

describe('Deadline', () => {
  it("ending one owner's deadlines ends exactly its live ones, whatever the order of clears", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.nat(20)), { maxLength: 60 }), (steps) => {
        const mine = {};
        const theirs = {};
        const live: { deadline: Deadline; owner: object }[] = [];
        const cleared: Deadline[] = [];
        for (const [adding, ownedByMe, pick] of steps) {
          if (adding || live.length === 0) {
            const owner = ownedByMe ? mine : theirs;
            live.push({ deadline: new Deadline(0, undefined, owner), owner });
          } else {
            const [gone] = live.splice(pick % live.length, 1);
            gone?.deadline.clear();
            gone?.deadline.clear(); // a second clear does nothing
            if (gone) cleared.push(gone.deadline);
          }
        }
        const reason = new Error('closed');
        endDeadlinesOf(mine, reason);
        for (const { deadline, owner } of live) {
          expect(deadline.ended).toBe(owner === mine);
          if (owner === mine) expect(deadline.reason).toBe(reason);
        }
        for (const deadline of cleared) expect(deadline.ended).toBe(false);
        endDeadlinesOf(theirs, reason);
        for (const { deadline } of live) expect(deadline.ended).toBe(true);
      }),
    );
  });

  it('wait() rejects with the reason as soon as the deadline ends, and each listener runs once', async () => {
    const deadline = new Deadline(0);
    let calls = 0;
    deadline.onEnd(() => calls++);
    deadline.onEnd(() => calls++);
    const waiting = deadline.wait(60_000);
    const reason = new Error('stop');
    deadline.end(reason);
    deadline.end(new Error('again'));
    await expect(waiting).rejects.toBe(reason);
    expect(calls).toBe(2);
    await expect(deadline.wait(1)).rejects.toBe(reason);
  });

  it('follows a signal: aborted before or after it is made', async () => {
    const early = new AbortController();
    early.abort(new Error('early'));
    expect(new Deadline(0, early.signal).reason).toBe(early.signal.reason);
    const late = new AbortController();
    const deadline = new Deadline(0, late.signal);
    expect(deadline.ended).toBe(false);
    late.abort(new Error('late'));
    expect(deadline.reason).toBe(late.signal.reason);
    expect(deadline.signal.aborted).toBe(true);
  });

  it('a listener taken off is never called', () => {
    const deadline = new Deadline(0);
    let called = false;
    const listener = () => {
      called = true;
    };
    deadline.onEnd(listener);
    deadline.offEnd(listener);
    deadline.end(new Error('x'));
    expect(called).toBe(false);
  });
});
