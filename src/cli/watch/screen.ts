// The terminal of the live view: the alternate screen (what was on the terminal comes back when the
// view ends), the cursor hidden while it runs, and each frame drawn in place, every row written
// over at its own position in one write, so nothing scrolls and nothing blinks between frames. A
// frame is as wide and as tall as the terminal is when it is drawn; a resize draws it again.
// `stop` puts the terminal back as it was (cursor shown, main screen), also when the process ends
// some other way.
import { cut } from '../output/table.ts';

const csi = '\x1b[';

export class LiveScreen {
  private readonly out: NodeJS.WriteStream;
  private active = false;
  private onResize: (() => void) | undefined;
  private readonly restoreOnExit = () => this.stop();

  constructor(out: NodeJS.WriteStream) {
    this.out = out;
  }

  /** Columns; the terminal's, else 80. */
  get width(): number {
    return this.out.columns > 0 ? this.out.columns : 80;
  }

  /** Rows; the terminal's, else 24. */
  get height(): number {
    return this.out.rows > 0 ? this.out.rows : 24;
  }

  /** Switches to the view; `redraw` runs on each resize. */
  start(redraw: () => void): void {
    if (this.active) return;
    this.active = true;
    this.onResize = redraw;
    this.out.on('resize', redraw);
    process.once('exit', this.restoreOnExit);
    this.out.write(`${csi}?1049h${csi}?25l${csi}2J`);
  }

  /** Draws `lines` over the whole screen: each cut to the width, those beyond the height left out. */
  draw(lines: readonly string[]): void {
    if (!this.active) return;
    const { width, height } = this;
    let frame = '';
    for (let row = 0; row < height; row++) {
      frame += `${csi}${row + 1};1H${csi}2K${cut(lines[row] ?? '', width)}`;
    }
    this.out.write(frame);
  }

  /** Back to the terminal as it was: the cursor shown, the main screen. */
  stop(): void {
    if (!this.active) return;
    this.active = false;
    if (this.onResize) this.out.off('resize', this.onResize);
    process.off('exit', this.restoreOnExit);
    this.out.write(`${csi}?25h${csi}?1049l`);
  }
}
