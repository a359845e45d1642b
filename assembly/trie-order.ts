// The typo walk's view of the dictionary trie (dictionary.ts): its nodes in
// preorder, each with its character, its term and where its subtree ends.
// A node's first child is the node after it and its next sibling starts
// where the child's subtree ends, so the walk reads memory forward and a
// subtree's terms are one range. The linked trie keeps its nodes in
// insertion order: at 1M records, following its sibling links missed the
// cache at nearly every step of an 8-letter word's walk. Rebuilt once the
// trie has grown, which only writes do; the prefix cache, kept across writes,
// names subtrees by the trie's own node numbers (orderedNode). Each node's
// children are also listed in a run of their own (childFrom): a node near
// the root has dozens of children, each past the subtree of the one before
// it, and reading their characters through the preorder copy missed the
// cache at nearly every one of them.
import { IntVec } from './buffers';
import { nodeChar, nodeFirstChild, nodeNextSibling, nodeTerm, termCount } from './dictionary';

export const orderedChar = new IntVec();
export const orderedTerm = new IntVec();
/** The node after the last of the node's subtree. */
export const orderedEnd = new IntVec();
/** The trie's number of the node (dictionary.ts): it does not change as the trie grows. */
export const orderedNode = new IntVec();
/**
 * Node n's children (their preorder numbers and characters) are
 * [childFrom[n], childFrom[n + 1]) of childNode and childChar, in the
 * trie's order of siblings.
 */
export const childFrom = new IntVec();
export const childNode = new IntVec();
export const childChar = new IntVec();
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

/** Lists every node's children in a run (see childFrom), from the preorder copy. */
function listChildren(): void {
  const n = orderedChar.length;
  childFrom.reserve(n + 1);
  childNode.reserve(n);
  childChar.reserve(n);
  childFrom.length = 0;
  childNode.length = 0;
  childChar.length = 0;
  for (let node = 0; node < n; node++) {
    childFrom.push(childNode.length);
    for (let child = node + 1, end = orderedEnd.get(node); child < end; child = orderedEnd.get(child)) {
      childNode.push(child);
      childChar.push(orderedChar.get(child));
    }
  }
  childFrom.push(childNode.length);
}
