// A CPU profile (a .cpuprofile, as shape-queries.mjs writes it) read for
// the profile tools (inclusive.mjs, callers.mjs): each node's name and the
// stack of names a sample was taken in. The core's functions show as
// wasm-function[N] in an unnamed build; they are all named "(core)" here.
import { readFileSync } from 'node:fs';

/** @typedef {import('node:inspector').Profiler.Profile} Profile */
/** @typedef {import('node:inspector').Profiler.ProfileNode['callFrame']} CallFrame */

/** A frame's name: the function, then its script's file name and line (`search core-index.js:120`). */
export function nameOf(/** @type {CallFrame} */ { functionName, url, lineNumber }) {
  return /^wasm-function\[/.test(functionName)
    ? '(core)'
    : `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
}

/**
 * The profile in `file`, and `stackOf(id)`: the names on node id's stack,
 * innermost first.
 * @param {string} file
 * @returns {{ profile: Profile, stackOf: (id: number) => string[] }}
 */
export function readProfile(file) {
  /** @type {Profile} */
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  /** @type {Map<number, number>} */
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** @type {Map<number, string>} */
  const names = new Map(profile.nodes.map((n) => [n.id, nameOf(n.callFrame)]));
  /** @type {(id: number) => string[]} */
  const stackOf = (id) => {
    const stack = [];
    for (let at = /** @type {number | undefined} */ (id); at !== undefined; at = parentOf.get(at)) stack.push(/** @type {string} */ (names.get(at)));
    return stack;
  };
  return { profile, stackOf };
}
