// The items in progress (exchanges in flight, deadlines on the shared timer), added and removed in
// constant time without hashing: a Set measured about 0.17 µs to add and delete a new object (it
// gives the object an identity hash first), a list entry 0.01 µs.

export interface Entry<T> {
  readonly value: T;
  previous: Entry<T> | undefined;
  next: Entry<T> | undefined;
  removed: boolean;
}

export class ActiveList<T> {
  private head: Entry<T> | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(value: T): Entry<T> {
    const entry: Entry<T> = { value, previous: undefined, next: this.head, removed: false };
    if (this.head) this.head.previous = entry;
    this.head = entry;
    this.count++;
    return entry;
  }

  /** Takes `entry` out; taking it out again does nothing. */
  remove(entry: Entry<T>): void {
    if (entry.removed) return;
    entry.removed = true;
    if (entry.previous) entry.previous.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.previous = entry.previous;
    this.count--;
  }

  /** The values now, in a list of their own: entries may be removed while it is walked. */
  values(): T[] {
    const values: T[] = [];
    for (let entry = this.head; entry; entry = entry.next) values.push(entry.value);
    return values;
  }
}
