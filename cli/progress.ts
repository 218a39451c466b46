// Progress of long work: one line redrawn in place on a terminal, a few plain
// lines otherwise (logs and CI stay readable). Written to stderr.
import { formatBytes } from '../lib/format.ts';

export class Progress {
  readonly label: string;
  readonly totalFiles: number;
  readonly totalBytes: number;
  readonly tty: boolean;
  files = 0;
  bytes = 0;
  private lastDraw = 0;
  private lastQuarter = 0;

  constructor(label: string, totalFiles: number, totalBytes: number, enabled = true) {
    this.label = label;
    this.totalFiles = totalFiles;
    this.totalBytes = totalBytes;
    this.tty = enabled && Boolean(process.stderr.isTTY);
    if (!enabled) this.lastQuarter = 4;
  }

  add(files: number, bytes: number) {
    this.files += files;
    this.bytes += bytes;
    const now = Date.now();
    if (this.tty) {
      if (now - this.lastDraw > 100) this.draw();
      return;
    }
    // Without a terminal: a line at each quarter of the work.
    const quarter = this.totalBytes ? Math.floor((4 * this.bytes) / this.totalBytes) : 4;
    if (quarter > this.lastQuarter && quarter < 4) {
      this.lastQuarter = quarter;
      process.stderr.write(`${this.text()}\n`);
    }
  }

  private text(): string {
    const percent = this.totalBytes ? Math.floor((100 * this.bytes) / this.totalBytes) : 100;
    return `${this.label}: ${this.files}/${this.totalFiles} files, ${formatBytes(this.bytes)}/${formatBytes(this.totalBytes)} (${percent}%)`;
  }

  private draw() {
    this.lastDraw = Date.now();
    const width = 24;
    const filled = this.totalBytes ? Math.round((width * this.bytes) / this.totalBytes) : width;
    process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.text()}\x1b[K`);
  }

  done() {
    if (this.tty) {
      this.draw();
      process.stderr.write('\n');
    } else if (this.lastQuarter < 4) {
      process.stderr.write(`${this.text()}\n`);
    }
  }
}
