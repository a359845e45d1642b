// Builds the WebAssembly core: src/core/abi-slots.ts from the core's
// constants, build/runtime/ (the allocator's growth policy), then
// build/lantern.wasm with asc. `--if-changed` (npm start) skips it all when
// the inputs are those of the last build (scripts/build-stamp.mjs).
import { execFileSync } from 'node:child_process';
import { inputsHash, isCurrent, removeStamp, writeStamp } from './build-stamp.mjs';

const hash = inputsHash('wasm');
if (process.argv.includes('--if-changed') && isCurrent('wasm', hash)) {
  console.log('build:wasm: up to date (assembly/ and its build scripts unchanged)');
  process.exit(0);
}
removeStamp('wasm');
/** @param {string[]} args */
const node = (...args) => execFileSync(process.execPath, args, { stdio: 'inherit' });
node('scripts/gen-abi.mjs');
node('scripts/build-runtime.mjs');
node('node_modules/assemblyscript/bin/asc.js', 'assembly/index.ts', '--config', 'asconfig.json', '--target', 'release');
writeStamp('wasm', hash);
