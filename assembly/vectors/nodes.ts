// The vector space's nodes: one fixed-size record per vector ever stored,
// in insertion order, kept in chunks of `chunkSize` records so the store grows
// without copying (and without the doubled block a reallocation leaves in a
// memory that never shrinks). A record holds
//
//   code (int8, `padded` bytes) | scale f32 | label i32 | upper i32 | links at level 0: count i32, `maxLinks0` i32
//
// label -1 marks a tombstone (deleted or replaced: it still routes searches
// through the graph, it is never answered). `upper` points to the node's
// links above level 0 (0: it has none): its level, then per level a count
// and `maxLinks` node ids. Nodes [0, linked) are in the graph; the rest are
// pending and searched exactly until `linkSome` links them.
import { IntVec } from '../buffers';
import { paddedLength } from './codes';

/** Records per chunk: 1,024, fewer for long vectors, so a chunk takes about 1 MB at most (a small space of long vectors stays small). */
export let chunkBits = 10;
export let chunkSize = 1 << 10;
const CHUNK_BYTES: f64 = 1048576;

export let dimensions = 0;
export let padded = 0;
/** Links a node keeps per level above 0, and at level 0 (twice as many: the level every search ends on). */
export let maxLinks = 0;
export let maxLinks0 = 0;
/** Bytes of a node's record. */
export let stride = 0;
export let nodeCount = 0;
export let linked = 0;
/** Live nodes (not tombstones), and those of them still pending. */
export let liveCount = 0;
export let pendingCount = 0;

/** Chunk pointers. */
export const chunks = new IntVec();
/** label → node + 1 (0: no live node has the label). */
export const labelNode = new IntVec();

const SCALE = 0;
const LABEL = 4;
const UPPER = 8;
const LINKS0 = 12;

export function configure(dims: i32, links: i32): void {
  dimensions = dims;
  padded = paddedLength(dims);
  maxLinks = links;
  maxLinks0 = links * 2;
  stride = padded + LINKS0 + 4 + (maxLinks0 << 2);
  chunkBits = 10;
  while (chunkBits > 4 && <f64>(1 << chunkBits) * <f64>stride > CHUNK_BYTES) chunkBits--;
  chunkSize = 1 << chunkBits;
}

@inline export function nodeAt(node: i32): usize {
  return <usize>chunks.get(node >>> chunkBits) + <usize>(node & (chunkSize - 1)) * <usize>stride;
}

@inline export function codeOf(node: i32): usize { return nodeAt(node); }
@inline export function scaleOf(node: i32): f32 { return load<f32>(nodeAt(node) + <usize>padded + SCALE); }
@inline export function setScale(node: i32, scale: f32): void { store<f32>(nodeAt(node) + <usize>padded + SCALE, scale); }
@inline export function labelOf(node: i32): i32 { return load<i32>(nodeAt(node) + <usize>padded + LABEL); }
@inline export function setLabel(node: i32, label: i32): void { store<i32>(nodeAt(node) + <usize>padded + LABEL, label); }
@inline export function upperOf(node: i32): usize { return <usize>load<i32>(nodeAt(node) + <usize>padded + UPPER); }
@inline export function setUpper(node: i32, block: usize): void { store<i32>(nodeAt(node) + <usize>padded + UPPER, <i32>block); }
@inline export function levelOf(node: i32): i32 {
  const upper = upperOf(node);
  return upper == 0 ? 0 : load<i32>(upper);
}

/** Bytes of an upper block for a node of `level` (≥ 1). */
@inline export function upperBytes(level: i32): i32 { return 4 + level * (4 + (maxLinks << 2)); }

/** The count word of `node`'s links at `level` (the ids follow it). */
@inline export function linksAt(node: i32, level: i32): usize {
  if (level == 0) return nodeAt(node) + <usize>padded + LINKS0;
  return upperOf(node) + 4 + <usize>(level - 1) * <usize>(4 + (maxLinks << 2));
}

@inline export function capacityAt(level: i32): i32 { return level == 0 ? maxLinks0 : maxLinks; }

@inline export function isLiveNode(node: i32): bool { return labelOf(node) >= 0; }

/** Gives `node` links above level 0 up to `level` (none linked yet). */
export function raise(node: i32, level: i32): void {
  const block = heap.alloc(<usize>upperBytes(level));
  memory.fill(block, 0, <usize>upperBytes(level));
  store<i32>(block, level);
  setUpper(node, block);
}

/** Appends a node for `label` (its code to be written at `codeOf`); returns it. */
export function appendNode(label: i32): i32 {
  const node = nodeCount;
  if ((node >>> chunkBits) == chunks.length) chunks.push(<i32>heap.alloc(<usize>chunkSize * <usize>stride));
  nodeCount++;
  const at = nodeAt(node);
  memory.fill(at + <usize>padded, 0, <usize>(stride - padded));
  setLabel(node, label);
  mapLabel(label, node);
  liveCount++;
  pendingCount++;
  return node;
}

/** The live node of `label`, or -1. */
export function nodeOf(label: i32): i32 {
  return label >= 0 && label < labelNode.length ? labelNode.get(label) - 1 : -1;
}

export function mapLabel(label: i32, node: i32): void {
  if (label >= labelNode.length) {
    const from = labelNode.length;
    labelNode.reserve(label + 1);
    memory.fill(labelNode.ptr + (<usize>from << 2), 0, <usize>(label + 1 - from) << 2);
    labelNode.length = label + 1;
  }
  labelNode.set(label, node + 1);
}

/** Makes `node` a tombstone. */
export function bury(node: i32): void {
  const label = labelOf(node);
  if (label < 0) return;
  if (nodeOf(label) == node) labelNode.set(label, 0);
  setLabel(node, -1);
  liveCount--;
  if (node >= linked) pendingCount--;
}

/** Marks the next pending node linked. */
export function noteLinked(): void {
  if (isLiveNode(linked)) pendingCount--;
  linked++;
}

/** Restores the counts a snapshot brings (see snapshot.ts). */
export function restoreCounts(nodes: i32, linkedNodes: i32): void {
  nodeCount = nodes;
  linked = linkedNodes;
}

/** Counts live and pending nodes and maps their labels afresh; false when two live nodes share a label. */
export function remapLabels(): bool {
  labelNode.resetZero(0);
  liveCount = 0;
  pendingCount = 0;
  for (let node = 0; node < nodeCount; node++) {
    const label = labelOf(node);
    if (label < 0) continue;
    if (nodeOf(label) >= 0) return false;
    mapLabel(label, node);
    liveCount++;
    if (node >= linked) pendingCount++;
  }
  return true;
}

/** Bytes the nodes take (records, upper blocks, the label map). */
export function storedBytes(): f64 {
  let bytes = <f64>chunks.length * <f64>chunkSize * <f64>stride + <f64>labelNode.capacity * 4;
  for (let node = 0; node < linked; node++) {
    const level = levelOf(node);
    if (level > 0) bytes += upperBytes(level);
  }
  return bytes;
}
