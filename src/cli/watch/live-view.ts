// The live view's frame: a title line (what is watched, where), a status line (the connection's
// state, the updates so far and the time of the last, the latest notice until the next update,
// how to stop), then the channel's body (the book, or the newest rows), drawn by a LiveScreen. Updates
// ask for a frame; frames asked for while one is pending are drawn once, on the next turn of
// the event loop, so a burst of updates costs one redraw.
import type { SubscribeOptions } from '../../streams/client.ts';
import type { Subscription } from '../../streams/subscription.ts';
import type { LiveScreen } from './screen.ts';

/** A channel's body in `width` columns and `height` rows, and a note for the status line. */
export type BodyRenderer = (width: number, height: number) => { lines: string[]; note?: string };

/** The stream client's subscribe, for a channel named at run time. */
export type Subscribe = (
  channel: string,
  params: unknown,
  options?: SubscribeOptions,
) => Subscription<unknown>;

/** A channel's live body: how it draws, and the loop that keeps it (until the subscription ends). */
export interface LiveBody {
  readonly render: BodyRenderer;
  /** Subscribes and keeps the body, calling `updated` after each change, until the subscription ends. */
  run(subscribe: Subscribe, updated: () => void): Promise<void>;
}

/** The lines above the body. */
const headerLines = 2;

export class LiveView {
  private readonly screen: LiveScreen;
  private readonly title: string;
  private readonly body: BodyRenderer;
  private state = 'connecting';
  private notice: string | undefined;
  private updates = 0;
  private lastUpdate: string | undefined;
  private pending = false;

  constructor(screen: LiveScreen, title: string, body: BodyRenderer) {
    this.screen = screen;
    this.title = title;
    this.body = body;
  }

  start(): void {
    this.screen.start(() => this.draw());
    this.draw();
  }

  /** What the connection is doing: `connected`, `reconnecting in 800 ms (connection)`. */
  status(state: string): void {
    this.state = state;
    this.request();
  }

  /** Something the watcher should know (a book dropped for a fresh one), shown until the next update. */
  note(text: string): void {
    this.notice = text;
    this.request();
  }

  /** An update arrived and changed the body. */
  updated(): void {
    this.notice = undefined;
    this.updates++;
    this.lastUpdate = new Date().toISOString().slice(11, 19);
    this.request();
  }

  stop(): void {
    this.screen.stop();
  }

  private request(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.draw();
    });
  }

  private draw(): void {
    const { width, height } = this.screen;
    const { lines, note } = this.body(width, height - headerLines);
    const counted = this.lastUpdate
      ? `${this.updates} update${this.updates === 1 ? '' : 's'}, last ${this.lastUpdate} UTC`
      : 'waiting for the first update';
    const status = [this.state, this.notice ?? counted, note, 'Ctrl-C stops'].filter(Boolean).join(' · ');
    this.screen.draw([this.title, status, ...lines]);
  }
}
