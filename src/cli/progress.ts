// The import's progress line on a terminal: records, rate, how much of the
// file is read and the time left (from the bytes read, the only total known
// before the end of a stream). Redrawn at most five times a second; nothing
// is drawn when the output is not a terminal (a log, a pipe).
import type { RecordSource } from './record-sources.js';

const REDRAW_MS = 200;

export class Progress {
  private readonly started = performance.now();
  private drawnAt = 0;
  private drawn = false;

  constructor(private readonly source: Pick<RecordSource, 'bytesRead' | 'totalBytes'>, private readonly out?: NodeJS.WriteStream) {}

  update(records: number): void {
    if (!this.out?.isTTY) return;
    const now = performance.now();
    if (now - this.drawnAt < REDRAW_MS) return;
    this.drawnAt = now;
    this.drawn = true;
    this.out.write(`\r${this.line(records, now)}\x1b[K`);
  }

  done(): void {
    if (this.drawn) this.out!.write('\n');
  }

  private line(records: number, now: number): string {
    const seconds = (now - this.started) / 1000;
    const read = this.source.bytesRead();
    const fraction = this.source.totalBytes > 0 ? read / this.source.totalBytes : 1;
    const left = fraction > 0 ? seconds * (1 - fraction) / fraction : 0;
    return `${records.toLocaleString('en')} records  ${Math.round(records / seconds).toLocaleString('en')}/s  ${(fraction * 100).toFixed(0)}% of ${megabytes(this.source.totalBytes)}  ${clock(left)} left`;
  }
}

export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0)} MB`;

/** 75 → "1:15", 3700 → "1:01:40". */
export function clock(seconds: number): string {
  const s = Math.round(seconds);
  const parts = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  const [h, m, sec] = parts;
  return h! > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}
