// A query's k nearest live labels: exactly (a scan of the codes) while the
// space is small, or when a filter allows few labels (a scan of those); by
// the graph otherwise, the pending nodes scanned beside it. A filter
// restricts what is collected before the top k is cut, never after.
import { results } from '../buffers';
import { codeInt16, queryTop } from './codes';
import { PairHeap } from './heap';
import { ADMIT_ALLOWED, ADMIT_LIVE, entry, entryFor, found, isAllowed, searchLevel } from './graph';
import { dimensions, labelNode, labelOf, linked, liveCount, maxLinks0, nodeCount, nodeOf, padded, pendingCount } from './nodes';
import { probe, similarity } from './probe';

/** The k best so far, worst on top. */
const best = new PairHeap();
let queryScale: f32 = 0;
let wanted = 0;

/** Scores the live, allowed nodes in [from, to). */
function scanNodes(from: i32, to: i32, allowed: usize, words: i32): void {
  for (let node = from; node < to; node++) {
    const label = labelOf(node);
    if (label >= 0 && (allowed == 0 || isAllowed(allowed, words, label))) best.offer(similarity(probe, queryScale, node), node, wanted);
  }
}

/** Scores the live nodes of the labels set in the bitmap. */
function scanAllowed(allowed: usize, words: i32): void {
  const end = (labelNode.length + 31) >>> 5;
  const n = words < end ? words : end;
  for (let w = 0; w < n; w++) {
    let bits = load<u32>(allowed + (<usize>w << 2));
    while (bits != 0) {
      const node = nodeOf((w << 5) + <i32>ctz(bits));
      bits &= bits - 1;
      if (node >= 0) best.offer(similarity(probe, queryScale, node), node, wanted);
    }
  }
}

/** Labels the bitmap allows among those the space has seen (an upper bound of the live ones). */
function countAllowed(allowed: usize, words: i32): i32 {
  const end = (labelNode.length + 31) >>> 5;
  const n = words < end ? words : end;
  let count = 0;
  for (let w = 0; w < n; w++) count += <i32>popcnt(load<u32>(allowed + (<usize>w << 2)));
  return count;
}

/** Walks the graph with a beam of `ef`, collecting live (and allowed) nodes, then scans the pending ones. */
function walk(ef: i32, allowed: usize, words: i32): void {
  if (entry >= 0) {
    const start = entryFor(probe, queryScale, 0);
    searchLevel(probe, queryScale, start, 0, ef, allowed == 0 ? ADMIT_LIVE : ADMIT_ALLOWED, allowed, words);
    while (found.length > 0) {
      best.offer(found.topKey(), found.topNode(), wanted);
      found.pop();
    }
  }
  if (pendingCount > 0) scanNodes(linked, nodeCount, allowed, words);
}

/**
 * The query (`dimensions` f32 at `query`, codable) against the space;
 * `allowed`: a bitmap of `words` u32 over labels, or 0. Results: per label
 * found, best first, the label and its similarity (f32 bits). Returns 0.
 */
export function searchNearest(query: usize, k: i32, ef: i32, exactBelow: i32, allowed: usize, words: i32): i32 {
  queryScale = codeInt16(query, dimensions, probe, queryTop(padded));
  wanted = k;
  best.clear();
  const inGraph = liveCount - pendingCount;
  const beam = ef > k ? ef : k;
  if (k <= 0 || liveCount == 0) {
    // nothing to find
  } else if (inGraph < exactBelow) {
    scanNodes(0, nodeCount, allowed, words);
  } else if (allowed == 0) {
    walk(beam, 0, 0);
  } else {
    const count = countAllowed(allowed, words);
    // a walk must meet about beam / share nodes to collect `beam` allowed ones, each costing its links' similarities
    const share = <f64>count / <f64>liveCount;
    const widened = share > 0 ? Math.min(<f64>beam / share, <f64>liveCount) : <f64>liveCount;
    if (<f64>count <= widened * <f64>maxLinks0) scanAllowed(allowed, words);
    else walk(<i32>widened, allowed, words);
  }
  writeResults();
  return 0;
}

function writeResults(): void {
  const n = best.length;
  results.reserve(n << 1);
  results.length = n << 1;
  for (let i = n - 1; i >= 0; i--) {
    results.set(i << 1, labelOf(best.topNode()));
    results.set((i << 1) + 1, reinterpret<i32>(best.topKey()));
    best.pop();
  }
}
