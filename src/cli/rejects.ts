// `lantern import --rejects FILE`: the records an import sets aside (they
// cannot be read, or the engine refuses them), one JSON line each with the
// record's place in the file, why, and its text as the file holds it, so
// that they can be fixed and imported on their own. Each is written at once
// (a synchronous append): an import killed midway leaves every record it set
// aside in the file.
import { closeSync, openSync, writeSync } from 'node:fs';

/** A record set aside: `record` is its position in the file (1-based), `line` the line it starts on. */
export interface Rejected { record: number; line?: number; reason: string; text: string }

export class RejectsFile {
  private readonly fd: number;
  /** Records written to the file by this import. */
  count = 0;

  /** Opens `path`: emptied first, unless `append` (a resumed import adds to the rejects of the one it goes on from). */
  constructor(readonly path: string, append: boolean) {
    this.fd = openSync(path, append ? 'a' : 'w');
  }

  add(rejected: Rejected): void {
    writeSync(this.fd, `${JSON.stringify(rejected)}\n`);
    this.count++;
  }

  close(): void {
    closeSync(this.fd);
  }
}
