// The platform's part: platform.ts (the web), platform.node.ts (Node, Electron).

/** The part of node:zlib snapshot sections use. */
export interface Zlib {
  deflateRawSync(bytes: Uint8Array, options: { level: number }): Uint8Array;
  inflateRawSync(bytes: Uint8Array, options?: { chunkSize?: number }): Uint8Array;
  /** Deflates on libuv's thread pool: the main thread is not held. */
  deflateRaw(bytes: Uint8Array, options: { level: number }, done: (error: Error | null, result: Uint8Array) => void): void;
  /**
   * Inflates `bytes` (`length` bytes once inflated) into memory kept
   * between calls, up to their first `upTo` bytes (all by default): a view
   * that the next call overwrites (see inflate-into.node.ts, for why
   * nothing is allocated per call). Throws for data that fails before
   * `upTo` bytes, and, when the whole is asked for, for data that does not
   * inflate to exactly `length` bytes.
   */
  inflateRawInto(bytes: Uint8Array, length: number, upTo?: number): Uint8Array;
}

/** A Node worker_threads MessagePort, as Comlink's node adapter takes it. */
export interface NodePort {
  // Node's own listener type (EventEmitter's): a narrower one would not accept MessagePort
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off(event: string, listener: (...args: any[]) => void): unknown;
  postMessage(message: unknown): void;
}

export interface Platform {
  /** node:zlib, where there is one. */
  zlib(): Promise<Zlib | undefined>;
  /** In a Node worker thread, the port to the thread that started it. */
  parentPort(): Promise<NodePort | undefined>;
  /** The Node build's proof worker script (dist/proof-worker.js); none in a browser (see snapshot-proof.ts). */
  proofWorker: URL | undefined;
  /**
   * Runs the script at `url` in a worker thread of its own, given `data`,
   * and resolves with the first message it posts; undefined where there is
   * no such script or no worker threads.
   */
  runWorker(url: URL, data: unknown, transfer?: ArrayBuffer[]): Promise<{ message: unknown } | undefined>;
  /**
   * Writes `text`'s UTF-16 units (little endian, as they are: a lone
   * surrogate too) into `memory` from `byteOffset`, in one native copy;
   * undefined where there is none (the web's TextEncoder writes UTF-8 only).
   */
  writeUtf16: ((memory: ArrayBuffer, byteOffset: number, text: string) => void) | undefined;
}
