import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ActiveList, type Entry } from '../../src/transport/active-list.ts';

describe('ActiveList', () => {
  it('holds what was added and not yet removed, whatever the order of removals', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(20))), (steps) => {
        const list = new ActiveList<number>();
        const model = new Map<number, Entry<number>>();
        let next = 0;
        for (const [adding, pick] of steps) {
          if (adding || model.size === 0) {
            const value = next++;
            model.set(value, list.add(value));
          } else {
            const value = [...model.keys()][pick % model.size] as number;
            const entry = model.get(value) as Entry<number>;
            list.remove(entry);
            list.remove(entry); // a second removal does nothing
            model.delete(value);
          }
          expect(list.size).toBe(model.size);
          expect([...list.values()].sort((a, b) => a - b)).toEqual([...model.keys()].sort((a, b) => a - b));
        }
      }),
    );
  });

  it('values() may be walked while its entries are removed', () => {
    const list = new ActiveList<string>();
    const entries = ['a', 'b', 'c'].map((value) => list.add(value));
    const seen: string[] = [];
    for (const value of list.values()) {
      seen.push(value);
      for (const entry of entries) list.remove(entry);
    }
    expect(seen.sort()).toEqual(['a', 'b', 'c']);
    expect(list.size).toBe(0);
    expect(list.values()).toEqual([]);
  });
});
