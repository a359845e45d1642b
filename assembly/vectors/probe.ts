// What a search compares nodes with: an int16 code (a query's, or a node's
// widened while it is linked) and its scale. Three buffers, because linking
// compares a node with its candidates (probe), a candidate with the
// neighbours already chosen (pair) and a neighbour with its own links
// (anchor) at once.
import { dot } from './codes';
import { codeOf, padded, scaleOf } from './nodes';

export let probe: usize = 0;
export let pair: usize = 0;
export let anchor: usize = 0;

export function allocateProbes(): void {
  const bytes = <usize>padded << 1;
  probe = heap.alloc(bytes);
  pair = heap.alloc(bytes);
  anchor = heap.alloc(bytes);
}

/** Cosine similarity of the int16 code at `code` (scale `scale`) and `node`'s. */
@inline export function similarity(code: usize, scale: f32, node: i32): f32 {
  return <f32>dot(code, codeOf(node), padded) * scale * scaleOf(node);
}
