// A latch for servers under test: each arrival waits until `count` have arrived, then all go on at
// once. Overlap on the server then comes from the client's behaviour alone, not from how long a
// timer held the first answers on a busy machine.
export interface Latch {
  /** Resolves once `count` arrivals (this one included) have come. */
  arrive(): Promise<void>;
  /** How many have arrived so far. */
  readonly arrived: number;
}

export function latch(count: number): Latch {
  let arrived = 0;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    arrive() {
      arrived++;
      if (arrived >= count) open();
      return opened;
    },
    get arrived() {
      return arrived;
    },
  };
}

/** A gate the test opens itself: answers held until the test has seen what it waits for. */
export function gate(): { passed: Promise<void>; open(): void } {
  let open: () => void = () => {};
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}
