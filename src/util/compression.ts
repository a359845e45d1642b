// deflate-raw for snapshot sections and packed records: node:zlib where the
// platform has it (several times faster, deflating on the thread pool,
// inflating synchronously when a read needs it), the standard
// CompressionStream elsewhere.
import { platform } from '../platform/platform.js';
import { oneChunkFor } from '../platform/inflate-options.js';
import type { Zlib } from '../platform/types.js';

/** zlib's level 4: most of level 6's ratio at about half its time. */
const DEFLATE_LEVEL = 4;

let zlib: Promise<Zlib | undefined> | undefined;
/** node:zlib once loaded (undefined before, and where there is none). */
let loaded: Zlib | undefined;

function nodeZlib(): Promise<Zlib | undefined> {
  zlib ??= platform.zlib().then((z) => (loaded = z));
  return zlib;
}

/**
 * Synchronous deflate and inflate where the platform has them (Node) and
 * they are loaded; loading starts on the first call. Undefined in browsers
 * (CompressionStream is asynchronous) and until loaded.
 */
export function syncZlib(): Zlib | undefined {
  void nodeZlib();
  return loaded;
}

async function throughStream(bytes: Uint8Array, stream: GenerateTransformStream): Promise<Uint8Array> {
  const piped = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

type GenerateTransformStream = CompressionStream | DecompressionStream;

export async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const z = await nodeZlib();
  if (z) {
    // copied: zlib's output is a view of a 16 KB buffer, which a record chunk deflated to 3 KB kept whole
    return new Promise((resolve, reject) => z.deflateRaw(bytes, { level: DEFLATE_LEVEL }, (error, out) => (error ? reject(error) : resolve(new Uint8Array(out)))));
  }
  return throughStream(bytes, new CompressionStream('deflate-raw'));
}

export async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const z = await nodeZlib();
  if (z) return new Uint8Array(z.inflateRawSync(bytes));
  return throughStream(bytes, new DecompressionStream('deflate-raw'));
}

/** Deflates on this thread where node:zlib is loaded (undefined elsewhere): for a few chunks a snapshot needs now. */
export function deflateNow(bytes: Uint8Array): Uint8Array | undefined {
  const z = syncZlib();
  return z && new Uint8Array(z.deflateRawSync(bytes, { level: DEFLATE_LEVEL }));
}

/**
 * Inflates on this thread into memory kept between calls, up to the first
 * `upTo` of the `inflatedLength` bytes: a view the next call overwrites,
 * read at once (a record from its chunk, which needs the chunk up to its
 * end). Allocates nothing per call, unlike inflateNow. Only where node:zlib
 * is loaded.
 */
export function inflateTransient(bytes: Uint8Array, inflatedLength: number, upTo = inflatedLength): Uint8Array {
  return loadedZlib().inflateRawInto(bytes, inflatedLength, upTo);
}

/** Inflates on this thread; only where node:zlib is loaded (wherever bytes are kept deflated only). */
export function inflateNow(bytes: Uint8Array, inflatedLength?: number): Uint8Array {
  const z = loadedZlib();
  return new Uint8Array(inflatedLength === undefined ? z.inflateRawSync(bytes) : z.inflateRawSync(bytes, oneChunkFor(inflatedLength)));
}

/** node:zlib, loaded: what inflating on this thread needs (wherever bytes are kept deflated only). */
function loadedZlib(): Zlib {
  const z = syncZlib();
  if (!z) throw new Error('inflating on this thread without node:zlib loaded');
  return z;
}

/** Loads node:zlib where there is one; syncZlib answers it from then on. */
export async function loadSyncZlib(): Promise<void> {
  await nodeZlib();
}
