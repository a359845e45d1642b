// What a crash leaves that a clean close does not: fsStorage writes where the
// log being appended to ends into manifest.json only when the store is closed
// (src/storage/manifest.ts, `openPart`), so a log cut after a clean close is
// lost writes, and one cut after a crash is a torn write. Tests that tear a
// log by hand after closing an engine cleanly make it look like a crash.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Takes the open log part's end out of `dir`'s manifest, as a crash (no close) leaves it. */
export function asACrashLeavesIt(dir: string): void {
  const path = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  if (manifest.openPart) delete manifest.openPart.end;
  writeFileSync(path, JSON.stringify(manifest));
}
