// deflate-raw for snapshot sections: node:zlib where the platform has it
// (synchronous and several times faster), the standard CompressionStream
// elsewhere.
import { platform } from '../platform/platform.js';
import type { Zlib } from '../platform/types.js';

let zlib: Promise<Zlib | undefined> | undefined;

function nodeZlib(): Promise<Zlib | undefined> {
  zlib ??= platform.zlib();
  return zlib;
}

async function throughStream(bytes: Uint8Array, stream: GenerateTransformStream): Promise<Uint8Array> {
  const piped = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

type GenerateTransformStream = CompressionStream | DecompressionStream;

export async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const z = await nodeZlib();
  if (z) return new Uint8Array(z.deflateRawSync(bytes, { level: 4 }));
  return throughStream(bytes, new CompressionStream('deflate-raw'));
}

export async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const z = await nodeZlib();
  if (z) return new Uint8Array(z.inflateRawSync(bytes));
  return throughStream(bytes, new DecompressionStream('deflate-raw'));
}

/** Synchronous inflate where the platform has one (Node), so a blob can stay deflated until first read. */
export async function syncInflater(): Promise<((bytes: Uint8Array) => Uint8Array) | undefined> {
  const z = await nodeZlib();
  return z ? (bytes) => new Uint8Array(z.inflateRawSync(bytes)) : undefined;
}
