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
 * Every node's children, one run per node in preorder, in the trie's order
 * of siblings, as entries of CHILD_FIELDS i32: the child's character, its
 * preorder number, its term (-1: none), the [from, end) entry range of its
 * own children and their characters as a mask (see charBit). A walk reads
 * what it needs of a child, and where to go below it, from one place: read
 * from the preorder copy and from a node's own range, a step down took four
 * to five cache lines at 100k records.
 */
export const childEntries = new IntVec();
export const CHILD_FIELDS = 6;
export const CHILD_CHAR = 0;
export const CHILD_NODE = 1;
export const CHILD_TERM = 2;
export const CHILD_FROM = 3;
export const CHILD_END = 4;
export const CHILD_MASK = 5;

/**
 * A character's bit in a mask of characters: a node whose children's mask
 * shares no bit with the characters a walk may follow has no child to
 * follow (bits are shared by characters 32 apart: a shared bit may be a
 * false hope, never a miss).
 */
@inline export function charBit(c: i32): i32 { return 1 << (c & 31); }
/** The entry range of the root's children. */
export let rootChildrenFrom = 0;
export let rootChildrenEnd = 0;
let orderedNodes = -1;
let orderedTerms = -1;

/** Brings the preorder copy up to date with the trie (the root is node 0 in both). */
export function orderTrie(): void {
  if (orderedNodes == nodeChar.length && orderedTerms == termCount) return;
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

/** Lists every node's children in a run (see childEntries), from the preorder copy. */
function listChildren(): void {
  const n = orderedChar.length;
  // where each node's run starts (the runs follow one another in preorder), and its children's mask
  const runFrom = new IntVec();
  const masks = new IntVec();
  runFrom.reserve(n + 1);
  masks.reserve(n);
  runFrom.push(0);
  for (let node = 0; node < n; node++) {
    let count = 0, mask = 0;
    for (let child = node + 1, end = orderedEnd.get(node); child < end; child = orderedEnd.get(child)) {
      count++;
      mask |= charBit(orderedChar.get(child));
    }
    runFrom.push(runFrom.get(node) + count);
    masks.push(mask);
  }
  // every node but the root is a child: 24 bytes a node, the largest of the walk's vectors
  childEntries.reserveSpared((n > 0 ? n - 1 : 0) * CHILD_FIELDS);
  childEntries.length = 0;
  for (let node = 0; node < n; node++) {
    for (let child = node + 1, end = orderedEnd.get(node); child < end; child = orderedEnd.get(child)) {
      childEntries.push(orderedChar.get(child));
      childEntries.push(child);
      childEntries.push(orderedTerm.get(child));
      childEntries.push(runFrom.get(child));
      childEntries.push(runFrom.get(child + 1));
      childEntries.push(masks.get(child));
    }
  }
  rootChildrenFrom = n == 0 ? 0 : runFrom.get(0);
  rootChildrenEnd = n == 0 ? 0 : runFrom.get(1);
  freeVec(runFrom);
  freeVec(masks);
}
