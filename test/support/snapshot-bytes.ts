// A snapshot's pieces, read to the end and put end to end (as a storage writes them).
import { concat } from '../../src/util/bytes.js';

export async function wholeSnapshot(pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const read: Uint8Array[] = [];
  for await (const piece of pieces) read.push(piece);
  return concat(read);
}
