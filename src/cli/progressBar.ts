const WIDTH = 30;
/** How often a non-terminal stderr (a log file) gets a progress line. */
const LOG_EVERY_MS = 5000;

/**
 * The progress bar on stderr, so stdout holds the result alone. On a terminal it is
 * redrawn in place; anywhere else it is a line every few seconds. Failures are printed one
 * per line above it.
 */
export class ProgressBar {
  private lastLine = '';
  private lastLogged = 0;
  /** whether lastLine is already on a non-terminal stderr */
  private logged = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly size: number,
  ) {}

  /** `done` of `size` (bytes read, records written), and what the counts say so far */
  update(done: number, counts: string) {
    const share = this.size > 0 ? Math.min(1, done / this.size) : 1;
    const filled = Math.round(share * WIDTH);
    this.lastLine =
      `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ` +
      counts;
    this.logged = false;
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[K${this.lastLine}`);
    } else if (Date.now() - this.lastLogged >= LOG_EVERY_MS) {
      this.lastLogged = Date.now();
      this.logged = true;
      this.out.write(`${this.lastLine}\n`);
    }
  }

  note(text: string) {
    const line = text.replace(/\s*\n\s*/g, ' ');
    if (this.out.isTTY) this.out.write(`\r\x1b[K${line}\n${this.lastLine}`);
    else this.out.write(`${line}\n`);
  }

  done() {
    if (this.lastLine === '') return;
    if (this.out.isTTY) this.out.write('\n');
    else if (!this.logged) this.out.write(`${this.lastLine}\n`);
    this.lastLine = '';
  }
}
