// The vector space of this core instance (one per index and embedder, see
// src/core/vector-space.ts): its shape, and the writes that change it.
import { CODE_OK, codability, codeInt8 } from './codes';
import { configureGraph, linkNext } from './graph';
import {
  appendNode, bury, codeOf, configure, dimensions, labelNode, labelOf, linked, mapLabel, nodeCount, nodeOf, pendingCount, setLabel, setScale,
} from './nodes';
import { allocateProbes } from './probe';

let configured = false;

/** Shapes the (empty) space: false when it already has one or the shape is not valid. */
export function configureSpace(dims: i32, links: i32, efConstruction: i32): bool {
  if (configured || dims <= 0 || dims > 1 << 16 || links < 2 || links > 256 || efConstruction < 1) return false;
  configure(dims, links);
  configureGraph(efConstruction);
  allocateProbes();
  configured = true;
  return true;
}

export function isConfigured(): bool { return configured; }

/** Stores `label`'s vector (`dimensions` f32 at `vector`), replacing its old one; returns CODE_OK or why it cannot be coded. */
export function storeVector(label: i32, vector: usize): i32 {
  const why = codability(vector, dimensions);
  if (why != CODE_OK) return why;
  deleteLabel(label);
  const node = appendNode(label);
  setScale(node, codeInt8(vector, dimensions, codeOf(node)));
  return CODE_OK;
}

/**
 * Gives `from`'s vector to label `to`, linked as it is (a record written
 * again with the same vector gets a new record id: moving its node spares
 * a tombstone and linking it again); false when `from` has no vector.
 */
export function moveLabel(from: i32, to: i32): bool {
  const node = nodeOf(from);
  if (node < 0) return false;
  if (from == to) return true;
  deleteLabel(to);
  labelNode.set(from, 0);
  setLabel(node, to);
  mapLabel(to, node);
  return true;
}

export function deleteLabel(label: i32): void {
  const node = nodeOf(label);
  if (node >= 0) bury(node);
}

/** Links up to `count` pending nodes; returns how many live ones are still pending. */
export function linkPending(count: i32): i32 {
  for (let i = 0; i < count && linked < nodeCount; i++) linkNext();
  return pendingCount;
}

/** `count` i32 at `map`: map[old] is the label's new value (-1, or past the map's end: deleted). */
export function relabelNodes(map: usize, count: i32): void {
  for (let node = 0; node < nodeCount; node++) {
    const label = labelOf(node);
    if (label < 0) continue;
    const next = label < count ? load<i32>(map + (<usize>label << 2)) : -1;
    if (next < 0) bury(node);
    else setLabel(node, next);
  }
  labelNode.resetZero(0);
  for (let node = 0; node < nodeCount; node++) {
    const label = labelOf(node);
    if (label < 0) continue;
    // two old labels sent to one new label: the later node keeps it
    const other = nodeOf(label);
    if (other >= 0) bury(other);
    mapLabel(label, node);
  }
}
