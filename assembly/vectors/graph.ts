// The graph: a hierarchical navigable small world (HNSW, Malkov & Yashunin).
// Every node is on level 0, a 1/maxLinks share of them also on level 1, and
// so on; a search descends greedily from the top entry node to level 0, then
// keeps a beam of the `ef` best nodes met. A node is linked to `maxLinks`
// neighbours chosen by the paper's heuristic (a candidate is kept only if it
// is more similar to the node than to any neighbour already kept: links
// spread in every direction instead of bunching in the nearest cluster), and
// each neighbour links back, pruned by the same heuristic when it is full.
import { PairHeap } from './heap';
import { widen } from './codes';
import {
  capacityAt, codeOf, isLiveNode, labelOf, linked, linksAt, maxLinks, nodeCount, noteLinked, padded, raise, scaleOf,
} from './nodes';
import { anchor, pair, probe, similarity } from './probe';
import { beginVisits, visit } from './visits';

/** The node searches start from (-1: the graph is empty), and its level. */
export let entry = -1;
export let topLevel = 0;
export let efConstruction = 0;
/** The level generator's state (xorshift32), saved with a snapshot so linking after an import draws as before. */
export let seed: u32 = 0x9e3779b9;
const MAX_LEVEL = 15;

export function configureGraph(ef: i32): void { efConstruction = ef; }

export function restoreGraph(entryNode: i32, level: i32, state: u32): void {
  entry = entryNode;
  topLevel = level;
  seed = state;
}

/** Candidates still to expand, best on top (key: -similarity). */
const candidates = new PairHeap();
/** The beam: the best nodes met, worst on top (key: similarity). */
export const found = new PairHeap();
/** A full neighbour's links and the node offered to it, worst on top. */
const rivals = new PairHeap();
/** Pairs (similarity f32, node i32) drained from a heap, best first. */
let ranked: usize = 0;
let rankedCapacity = 0;

function drawLevel(): i32 {
  let x = seed;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  seed = x;
  const u = (<f64>(x >>> 8) + 1) / 16777217;
  const level = <i32>Math.floor(-Math.log(u) / Math.log(<f64>maxLinks));
  return level < MAX_LEVEL ? level : MAX_LEVEL;
}

/** Follows the best link at `level` from `from` while it improves; returns the node reached (its similarity in `reachedSimilarity`). */
let reachedSimilarity: f32 = 0;
function descend(code: usize, scale: f32, from: i32, fromSimilarity: f32, level: i32): i32 {
  let node = from;
  let best = fromSimilarity;
  for (let moved = true; moved;) {
    moved = false;
    const links = linksAt(node, level);
    const n = load<i32>(links);
    for (let i = 0; i < n; i++) {
      const next = load<i32>(links + 4 + (<usize>i << 2));
      const s = similarity(code, scale, next);
      if (s > best) { best = s; node = next; moved = true; }
    }
  }
  reachedSimilarity = best;
  return node;
}

/** The node to search level `level` from: the greedy descent's end. */
export function entryFor(code: usize, scale: f32, level: i32): i32 {
  let node = entry;
  reachedSimilarity = similarity(code, scale, node);
  for (let l = topLevel; l > level; l--) node = descend(code, scale, node, reachedSimilarity, l);
  return node;
}

/** Which nodes a search may find (the others still route): every one (linking), live ones, live ones whose label a bitmap allows. */
export const ADMIT_ALL = 0;
export const ADMIT_LIVE = 1;
export const ADMIT_ALLOWED = 2;

/** Whether the bitmap of `words` u32 at `allowed` has `label`'s bit set. */
@inline export function isAllowed(allowed: usize, words: i32, label: i32): bool {
  const word = label >>> 5;
  return word < words && (load<u32>(allowed + (<usize>word << 2)) & (1 << (label & 31))) != 0;
}

@inline function admits(node: i32, mode: i32, allowed: usize, words: i32): bool {
  if (mode == ADMIT_ALL) return true;
  const label = labelOf(node);
  if (label < 0) return false;
  return mode == ADMIT_LIVE || isAllowed(allowed, words, label);
}

/**
 * Fills `found` with the `ef` nodes most similar to the code met from
 * `start` at `level`, those `mode` admits. With a filter the beam keeps
 * widening until `ef` admitted nodes are met, which is what makes a
 * filtered walk slower as it gets stricter.
 */
export function searchLevel(code: usize, scale: f32, start: i32, level: i32, ef: i32, mode: i32, allowed: usize, words: i32): void {
  beginVisits(nodeCount);
  candidates.clear();
  found.clear();
  visit(start);
  const s0 = similarity(code, scale, start);
  candidates.push(-s0, start);
  if (admits(start, mode, allowed, words)) found.push(s0, start);
  while (candidates.length > 0) {
    const current = candidates.topNode();
    if (found.length >= ef && -candidates.topKey() < found.topKey()) break;
    candidates.pop();
    const links = linksAt(current, level);
    const n = load<i32>(links);
    for (let i = 0; i < n; i++) {
      const next = load<i32>(links + 4 + (<usize>i << 2));
      if (!visit(next)) continue;
      const s = similarity(code, scale, next);
      if (found.length < ef || s > found.topKey()) {
        candidates.push(-s, next);
        if (admits(next, mode, allowed, words)) found.offer(s, next, ef);
      }
    }
  }
}

/** Empties `heap` into `ranked`, best first; returns how many. */
function drainBestFirst(from: PairHeap): i32 {
  const n = from.length;
  if (n > rankedCapacity) {
    ranked = ranked == 0 ? heap.alloc(<usize>n << 3) : heap.realloc(ranked, <usize>n << 3);
    rankedCapacity = n;
  }
  for (let i = n - 1; i >= 0; i--) {
    store<f32>(ranked + (<usize>i << 3), from.topKey());
    store<i32>(ranked + (<usize>i << 3) + 4, from.topNode());
    from.pop();
  }
  return n;
}

/** Keeps at most `m` of the `n` ranked candidates by the heuristic, written as a count and ids at `links`. */
function selectNeighbours(n: i32, m: i32, links: usize): void {
  let kept = 0;
  for (let i = 0; i < n && kept < m; i++) {
    const candidate = load<i32>(ranked + (<usize>i << 3) + 4);
    const toNode = load<f32>(ranked + (<usize>i << 3));
    widen(codeOf(candidate), padded, pair);
    const scale = scaleOf(candidate);
    let diverse = true;
    for (let j = 0; j < kept && diverse; j++) diverse = similarity(pair, scale, load<i32>(links + 4 + (<usize>j << 2))) <= toNode;
    if (diverse) {
      store<i32>(links + 4 + (<usize>kept << 2), candidate);
      kept++;
    }
  }
  store<i32>(links, kept);
}

/** Links `neighbour` back to `node` at `level`, re-selecting its links when it has no room. */
function linkBack(neighbour: i32, node: i32, level: i32): void {
  const links = linksAt(neighbour, level);
  const n = load<i32>(links);
  const capacity = capacityAt(level);
  if (n < capacity) {
    store<i32>(links + 4 + (<usize>n << 2), node);
    store<i32>(links, n + 1);
    return;
  }
  widen(codeOf(neighbour), padded, anchor);
  const scale = scaleOf(neighbour);
  rivals.clear();
  rivals.push(similarity(anchor, scale, node), node);
  for (let i = 0; i < n; i++) {
    const other = load<i32>(links + 4 + (<usize>i << 2));
    rivals.push(similarity(anchor, scale, other), other);
  }
  selectNeighbours(drainBestFirst(rivals), capacity, links);
}

/** Links the first pending node into the graph (a tombstone is passed over: nothing will ever reach it). */
export function linkNext(): void {
  const node = linked;
  if (!isLiveNode(node)) { noteLinked(); return; }
  const level = drawLevel();
  if (level > 0) raise(node, level);
  if (entry < 0) {
    entry = node;
    topLevel = level;
    noteLinked();
    return;
  }
  widen(codeOf(node), padded, probe);
  const scale = scaleOf(node);
  let start = entryFor(probe, scale, level);
  for (let l = level < topLevel ? level : topLevel; l >= 0; l--) {
    searchLevel(probe, scale, start, l, efConstruction, ADMIT_ALL, 0, 0);
    const n = drainBestFirst(found);
    start = load<i32>(ranked + 4);
    const links = linksAt(node, l);
    selectNeighbours(n, maxLinks, links);
    const kept = load<i32>(links);
    for (let i = 0; i < kept; i++) linkBack(load<i32>(links + 4 + (<usize>i << 2)), node, l);
  }
  if (level > topLevel) {
    topLevel = level;
    entry = node;
  }
  noteLinked();
}
