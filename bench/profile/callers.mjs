// Reads a CPU profile (a .cpuprofile, as shape-queries.mjs writes it) and
// prints, for one function: the samples whose stack holds it, its callers
// (up to --depth frames above it), its direct callees (self: the function
// itself on top), and the lines of its own samples. Inlined callees count as
// the function's own lines: a line's samples are where V8 was, not what the
// source calls there, so read them beside inclusive.mjs's figures.
//
//   node bench/profile/callers.mjs shape.cpuprofile NAME [--depth 1] [--top 15]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { nameOf, readProfile } from './cpu-profile.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { depth: { type: 'string', default: '1' }, top: { type: 'string', default: '15' } },
});
const [file, target] = positionals;
if (!file || !target) throw new Error('usage: node bench/profile/callers.mjs PROFILE NAME [--depth N] [--top N]');
const { profile, stackOf } = readProfile(file);
const isTarget = (/** @type {string} */ name) => name.startsWith(`${target} `);

/** @type {(counts: Map<string, number>, key: string) => void} */
const count = (counts, key) => { counts.set(key, (counts.get(key) ?? 0) + 1); };
/** @type {Map<string, number>} */
const callers = new Map();
/** @type {Map<string, number>} */
const callees = new Map();
let holding = 0;
for (const id of (profile.samples ?? []).slice(1)) {
  const stack = stackOf(id);
  const at = stack.findIndex(isTarget);
  if (at < 0) continue;
  holding++;
  count(callers, stack.slice(at + 1, at + 1 + Number(values.depth)).join(' < '));
  count(callees, at === 0 ? '(self)' : stack[at - 1]);
}

/** @type {(title: string, counts: Map<string, number>) => void} */
const print = (title, counts) => {
  console.log(title);
  for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`${String(n).padStart(7)}  ${key}`);
};
console.log(`${holding} samples hold ${target}`);
print('callers:', callers);
print('callees:', callees);

// the function's own samples by line, with the line's text where the script is a file here
/** @type {Map<string, number>} */
const lines = new Map();
for (const node of profile.nodes) {
  if (!isTarget(nameOf(node.callFrame))) continue;
  for (const { line, ticks } of node.positionTicks ?? []) lines.set(`${node.callFrame.url}\n${line}`, (lines.get(`${node.callFrame.url}\n${line}`) ?? 0) + ticks);
}
/** @type {Map<string, string[]>} */
const sources = new Map();
/** @type {(url: string) => string[]} */
const sourceOf = (url) => {
  if (!sources.has(url)) {
    let text = '';
    try { text = url.startsWith('file:') ? readFileSync(new URL(url), 'utf8') : ''; } catch { /* a script no longer here */ }
    sources.set(url, text.split('\n'));
  }
  return /** @type {string[]} */ (sources.get(url));
};
console.log('own samples by line:');
for (const [key, ticks] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  const [url, line] = key.split('\n');
  console.log(`${String(ticks).padStart(7)}  ${url.split('/').pop()}:${line}  ${(sourceOf(url)[Number(line) - 1] ?? '').trim().slice(0, 120)}`);
}
