// Term dictionary: a trie over folded UTF-16 units. Insertion is incremental;
// exact lookup, prefix subtrees and the typo walk (matcher.ts) all run on it.
import { IntVec } from './buffers';
import { tokens } from './text';

export const nodeChar = new IntVec();
export const nodeFirstChild = new IntVec();
export const nodeNextSibling = new IntVec();
/** Term id ending at the node, or -1. */
export const nodeTerm = new IntVec();
export let termCount: i32 = 0;

function newNode(c: i32): i32 {
  const id = nodeChar.length;
  nodeChar.push(c);
  nodeFirstChild.push(-1);
  nodeNextSibling.push(-1);
  nodeTerm.push(-1);
  return id;
}

export function initDictionary(): void {
  if (nodeChar.length == 0) newNode(0);
}

@inline export function findChild(node: i32, c: i32): i32 {
  let child = nodeFirstChild.get(node);
  while (child >= 0 && nodeChar.get(child) != c) child = nodeNextSibling.get(child);
  return child;
}

/** Node reached by the folded units of token `t`, or -1. */
export function findTokenNode(t: i32): i32 {
  let node = 0;
  for (let i = 0, n = tokens.foldLength.get(t); i < n && node >= 0; i++) node = findChild(node, tokens.unit(t, i));
  return node;
}

/** Term id of token `t`, created when missing. */
export function internToken(t: i32): i32 {
  let node = 0;
  for (let i = 0, n = tokens.foldLength.get(t); i < n; i++) {
    const c = tokens.unit(t, i);
    let child = findChild(node, c);
    if (child < 0) {
      child = newNode(c);
      nodeNextSibling.set(child, nodeFirstChild.get(node));
      nodeFirstChild.set(node, child);
    }
    node = child;
  }
  let term = nodeTerm.get(node);
  if (term < 0) {
    term = termCount++;
    nodeTerm.set(node, term);
  }
  return term;
}

/** Term id of token `t`, or -1 when the dictionary does not hold it. */
export function lookupToken(t: i32): i32 {
  const node = findTokenNode(t);
  return node < 0 ? -1 : nodeTerm.get(node);
}
