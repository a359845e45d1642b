// Turns of the event loop: long work (indexing a batch, packing a snapshot,
// building suggestions) pauses on them so that searches waiting are answered.

/** Runs `f` on a later turn of the event loop (setImmediate where it exists: setTimeout waits ≥ 1 ms). */
export const nextTurn: (f: () => void) => void = (globalThis as { setImmediate?: (f: () => void) => void }).setImmediate
  ?? ((f) => setTimeout(f, 0));

/** Resolves on a later turn of the event loop (I/O and other callbacks run first). */
export const yieldTurn = (): Promise<void> => new Promise((resolve) => nextTurn(resolve));
