// The one signal that the sandbox's state may have changed. Every change of the state happens
// synchronously inside one of three things the server does (state.ts): carrying out a request,
// carrying out a control request, or catching up with its clock (the walk, timers, delistings;
// `setPrice`, `advanceClock`, `settle` and `reset` in process). The server says `changed` after
// each of them; a reader (the streams) then reads the state itself, as a REST call would, and
// works out what is new. So no transition, handler or engine function needs a hook of its own,
// and a state change added later is streamed without stream code.

export type StateListener = () => void;

export class StateChanges {
  readonly #listeners = new Set<StateListener>();

  /** Calls `listener` after every change; the function it answers stops that. */
  listen(listener: StateListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
