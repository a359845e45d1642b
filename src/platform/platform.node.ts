// What Lantern takes from Node (and Electron): node:zlib, synchronous and
// several times faster than CompressionStream for snapshot sections, and
// the worker_threads channel to the thread that started a worker.
import type { Platform } from './types.js';

export const platform: Platform = {
  zlib: () => import('node:zlib').catch(() => undefined),
  parentPort: async () => (await import('node:worker_threads')).parentPort ?? undefined,
};
