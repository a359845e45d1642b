// The typo walk's view of the dictionary trie (dictionary.ts): its nodes in
// preorder, each with its character, its term and where its subtree ends.
// A node's first child is the node after it and its next sibling starts
// where the child's subtree ends, so the walk reads memory forward and a
// subtree's terms are one range. The linked trie keeps its nodes in
// insertion order: at 1M records, following its sibling links missed the
// cache at nearly every step of an 8-letter word's walk. Rebuilt once the
// trie has grown, which only writes do; the prefix cache, kept across writes,
// names subtrees by the trie's own node numbers (orderedNode). Each node's
// children are also listed in a run of their own (see childEntries): a node
// near the root has dozens of children, each past the subtree of the one
// before it, and reading their characters through the preorder copy missed
// the cache at nearly every one of them.
import { IntVec, freeVec } from './buffers';
import { nodeChar, nodeFirstChild, nodeNextSibling, nodeTerm, termCount } from './dictionary';

export const orderedChar = new IntVec();
export const orderedTerm = new IntVec();
/** The node after the last of the node's subtree. */
export const orderedEnd = new IntVec();
/** The trie's number of the node (dictionary.ts): it does not change as the trie grows. */
export const orderedNode = new IntVec();
/**
 * Every node's children, one run per node, as entries of CHILD_FIELDS i32:
 * the child's character, its term (-1: none), the first entry of its own
 * children's run and their characters as a mask (see charBit). A walk reads
 * what it needs of a child, and where to go below it, from one place: read
 * from the preorder copy and from a node's own range, a step down took four
 * to five cache lines at 100k records. The runs are placed breadth first
 * (see listChildren), so a run ends where the next entry's begins, and one
 * entry more, past the last, holds where the last run ends. Sixteen bytes an
 * entry: four to a cache line.
 */
export const childEntries = new IntVec();
export const CHILD_FIELDS = 4;
export const CHILD_CHAR = 0;
export const CHILD_TERM = 1;
export const CHILD_FROM = 2;
export const CHILD_MASK = 3;
/** Per child entry, the child's preorder number: read only where a walk emits its subtree. */
export const childNode = new IntVec();

/**
 * A character's bit in a mask of characters: a node whose children's mask
 * shares no bit with the characters a walk may follow has no child to
 * follow (bits are shared by characters 32 apart: a shared bit may be a
 * false hope, never a miss).
 */
@inline export function charBit(c: i32): i32 { return 1 << (c & 31); }
/** Puts in `into` the terms of the preorder node's subtree (the node's own with `withNode`), in preorder. */
export function subtreeTermsInto(node: i32, withNode: bool, into: IntVec): void {
  into.length = 0;
  const terms = orderedTerm.ptr;
  for (let n = withNode ? node : node + 1, end = orderedEnd.get(node); n < end; n++) {
    const term = load<i32>(terms + (<usize>n << 2));
    if (term >= 0) into.push(term);
  }
}

/** The entry range of the root's children. */
export let rootChildrenFrom = 0;
export let rootChildrenEnd = 0;
let orderedNodes = -1;
let orderedTerms = -1;

/**
 * Whether a search read the copy since the warming last brought it up to
 * date ahead of one (see orderTrieAhead); true until it first does.
 */
let searchedSinceAhead = true;

/** Brings the copy up to date for a search's walk. */
export function orderTrieForSearch(): void {
  orderTrie();
  searchedSinceAhead = true;
}

/**
 * Brings the copy up to date while the thread is idle (prefix-warming.ts),
 * so that the first search after an import does not: ~100 ms for the 135k
 * cities' trie. Once until a search reads it: an index written in bursts and
 * seldom searched would otherwise copy its whole trie again after each burst.
 */
export function orderTrieAhead(): void {
  if (!searchedSinceAhead) return;
  orderTrie();
  searchedSinceAhead = false;
}

/** Whether the preorder copy holds the trie as it is (a search's walk would not copy it again). */
export function trieOrdered(): bool { return orderedNodes == nodeChar.length && orderedTerms == termCount; }

/** Brings the preorder copy up to date with the trie (the root is node 0 in both). */
export function orderTrie(): void {
  if (trieOrdered()) return;
  orderedNodes = nodeChar.length;
  orderedTerms = termCount;
  orderedChar.reserve(orderedNodes);
  orderedTerm.reserve(orderedNodes);
  orderedEnd.reserve(orderedNodes);
  orderedNode.reserve(orderedNodes);
  orderedChar.length = 0;
  orderedTerm.length = 0;
  orderedEnd.length = 0;
  orderedNode.length = 0;
  copySubtree(0);
  listChildren();
}

/** Recursive: the trie is as deep as the longest term (MAX_TOKEN_UNITS). */
function copySubtree(node: i32): void {
  const at = orderedChar.length;
  orderedChar.push(nodeChar.get(node));
  orderedTerm.push(nodeTerm.get(node));
  orderedEnd.push(0);
  orderedNode.push(node);
  for (let child = nodeFirstChild.get(node); child >= 0; child = nodeNextSibling.get(child)) copySubtree(child);
  orderedEnd.set(at, orderedChar.length);
}

/**
 * Lists every node's children in a run (see childEntries), from the preorder
 * copy. The runs are placed breadth first: the runs of a node's children
 * follow one another, and so do those of all its descendants at any one
 * depth. A walk leaves a node for its first child's run and comes back to
 * its next child's: placed in preorder, that run lay past the first child's
 * whole subtree's runs, a cache line of its own at nearly every step. The
 * entries are then the nodes breadth first (the root's children first), and
 * entry k's run ends where entry k + 1's begins.
 */
function listChildren(): void {
  const n = orderedChar.length;
  const order = new IntVec();
  breadthFirst(order);
  // every node but the root is a child: 16 bytes a node, the largest of the walk's vectors, and one entry more
  const entries = n > 0 ? n - 1 : 0;
  childEntries.reserveSpared((entries + 1) * CHILD_FIELDS);
  childEntries.length = 0;
  childNode.reserveSpared(entries);
  childNode.length = 0;
  rootChildrenFrom = 0;
  rootChildrenEnd = n > 0 ? childCount(0) : 0;
  // each run starts where the runs of the entries before its node's end
  let runEnd = rootChildrenEnd;
  for (let k = 0; k < entries; k++) {
    const child = order.get(k + 1);
    let mask = 0, count = 0;
    for (let grandchild = child + 1, end = orderedEnd.get(child); grandchild < end; grandchild = orderedEnd.get(grandchild)) {
      mask |= charBit(orderedChar.get(grandchild));
      count++;
    }
    childEntries.push(orderedChar.get(child));
    childEntries.push(orderedTerm.get(child));
    childEntries.push(runEnd);
    childEntries.push(mask);
    childNode.push(child);
    runEnd += count;
  }
  // past the last entry: where the last run ends
  childEntries.push(0);
  childEntries.push(-1);
  childEntries.push(runEnd);
  childEntries.push(0);
  freeVec(order);
}

/** How many children the preorder node has. */
function childCount(node: i32): i32 {
  let count = 0;
  for (let child = node + 1, end = orderedEnd.get(node); child < end; child = orderedEnd.get(child)) count++;
  return count;
}

/** Writes the preorder nodes into `order` breadth first, from the root, each node's children in their order. */
function breadthFirst(order: IntVec): void {
  const n = orderedChar.length;
  order.reserve(n);
  order.length = 0;
  if (n == 0) return;
  order.push(0);
  for (let head = 0; head < order.length; head++) {
    const node = order.get(head);
    for (let child = node + 1, end = orderedEnd.get(node); child < end; child = orderedEnd.get(child)) order.push(child);
  }
}
