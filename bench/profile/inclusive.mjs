// Reads a CPU profile (a .cpuprofile, as shape-queries.mjs writes it) and
// prints the functions by inclusive samples: each sample counts once for
// every distinct function on its stack, so a caller's figure holds what its
// callees cost. With --under NAME, only the samples whose stack holds a
// function named NAME, and the figures are shares of those.
//
// The core's functions show as wasm-function[N]; they are summed as
// "(core)" here (shape-queries.mjs names them).
//
//   node bench/profile/inclusive.mjs shape.cpuprofile [--top 60] [--under answer]
import { parseArgs } from 'node:util';
import { readProfile } from './cpu-profile.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '60' }, under: { type: 'string' } },
});
const file = positionals[0];
if (!file) throw new Error('usage: node bench/profile/inclusive.mjs PROFILE [--top N] [--under NAME]');
const { profile, stackOf } = readProfile(file);

/** @type {Map<string, number>} */
const inclusive = new Map();
let counted = 0;
for (const id of (profile.samples ?? []).slice(1)) {
  const stack = stackOf(id);
  if (values.under && !stack.some((name) => name.startsWith(`${values.under} `))) continue;
  counted++;
  for (const name of new Set(stack)) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
}
console.log(`${counted} samples${values.under ? ` under ${values.under}` : ''}; inclusive samples per function:`);
for (const [name, count] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`${String(count).padStart(7)} ${((100 * count) / counted).toFixed(1).padStart(5)}%  ${name}`);
}
