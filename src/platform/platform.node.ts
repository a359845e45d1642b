// What Lantern takes from Node (and Electron): node:zlib, synchronous and
// several times faster than CompressionStream for snapshot sections, and
// worker_threads: the channel to the thread that started a worker, and
// workers of its own (a snapshot's proof); Buffer's copy of a string's
// UTF-16 units.
import { Buffer } from 'node:buffer';
import type { Platform, Zlib } from './types.js';
import { inflaterInto } from './inflate-into.node.js';

export const platform: Platform = {
  zlib: () => import('node:zlib').then(withInflateInto, () => undefined),
  parentPort: async () => (await import('node:worker_threads')).parentPort ?? undefined,
  // next to the bundle chunk this module is in (dist/); the sources the tests run have none (runWorker then answers undefined)
  proofWorker: new URL('./proof-worker.js', import.meta.url),
  runWorker,
  writeUtf16: (memory, byteOffset, text) => { Buffer.from(memory, byteOffset, text.length * 2).write(text, 'utf16le'); },
};

function withInflateInto(zlib: typeof import('node:zlib')): Zlib {
  const { deflateRawSync, inflateRawSync, deflateRaw } = zlib;
  return { deflateRawSync, inflateRawSync, deflateRaw, inflateRawInto: inflaterInto(zlib) };
}

async function runWorker(url: URL, data: unknown, transfer: ArrayBuffer[] = []): Promise<{ message: unknown } | undefined> {
  const [{ existsSync }, { fileURLToPath }, { Worker }, v8] = await Promise.all([
    import('node:fs'), import('node:url'), import('node:worker_threads'), import('node:v8'),
  ]);
  if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) return undefined;
  // the worker may hold as much as this thread (a process started with a larger heap gives its workers the same)
  const maxOldGenerationSizeMb = Math.floor(v8.getHeapStatistics().heap_size_limit / 2 ** 20);
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData: data, transferList: transfer, resourceLimits: { maxOldGenerationSizeMb } });
    worker.once('message', (message) => resolve({ message }));
    worker.once('error', reject);
    // after an answer this rejects nothing: a promise settles once
    worker.once('exit', (code) => reject(new Error(`a worker thread stopped (exit code ${code}) before it answered`)));
  });
}
