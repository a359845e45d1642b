// A core's snapshot crosses to JS a window at a time (assembly/snapshot-stream.ts)
// and is exported or imported a step at a time, JS pausing between steps so a
// large index or vector space answers searches meanwhile. The text index
// (CoreIndex) and a vector space (VectorSpace) run the same steps over their
// own begin/some exports.
import type { CoreInstance, SnapshotStream } from './wasm.js';
import { ByteWriter } from '../util/bytes.js';

/** Bytes of a snapshot exported or imported per step (a few milliseconds of work). */
export const SNAPSHOT_STEP = 1 << 21;

/** Runs `run` with the core's snapshot calls going to `stream`. */
function streaming<T>(instance: CoreInstance, stream: SnapshotStream, run: () => T): T {
  instance.stream.current = stream;
  try { return run(); } finally { instance.stream.current = undefined; }
}

/**
 * Exports a snapshot: `begin()`, then `some(step)` until it answers 1, with
 * `pause` awaited between steps; the windows a step writes are gathered in
 * one part.
 */
export async function exportInSteps(
  instance: CoreInstance, begin: () => void, some: (step: number) => number, pause: () => Promise<void>, step = SNAPSHOT_STEP,
): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  // a step's windows are copied into one part (a step writes about `step` bytes; one item written whole may be more)
  const part = new ByteWriter(step + (1 << 16));
  const stream = { write: (bytes: Uint8Array) => part.append(bytes), read: () => 0 };
  streaming(instance, stream, begin);
  for (;;) {
    const done = streaming(instance, stream, () => some(step)) === 1;
    if (part.length > 0) parts.push(part.take());
    if (done) return parts;
    await pause();
  }
}

/**
 * Imports a snapshot from `parts` (or any cut of their bytes): `begin(length)`
 * (0: not a snapshot), then `some(step)` until it answers 1 (valid) or -1
 * (not valid), `pause` awaited between steps. True when the whole snapshot
 * was in and valid.
 */
export async function importInSteps(
  instance: CoreInstance, parts: Uint8Array[], begin: (length: number) => number, some: (step: number) => number,
  pause: () => Promise<void>, step = SNAPSHOT_STEP,
): Promise<boolean> {
  let part = 0;
  let at = 0;
  const stream = {
    write: () => {},
    read(into: Uint8Array) {
      while (part < parts.length && at === parts[part].length) { part++; at = 0; }
      if (part === parts.length) return 0;
      const n = Math.min(into.length, parts[part].length - at);
      into.set(parts[part].subarray(at, at + n));
      at += n;
      return n;
    },
  };
  const length = parts.reduce((sum, p) => sum + p.length, 0);
  if (streaming(instance, stream, () => begin(length)) !== 1) return false;
  for (;;) {
    const state = streaming(instance, stream, () => some(step));
    if (state !== 0) return state === 1;
    await pause();
  }
}
