// Whether a build stage's output is current: a SHA-256 of the stage's inputs
// (each file's path and content, and the environment that changes the
// output) kept in a stamp file with the output. `npm start` builds only the
// stages whose inputs changed (`--if-changed`: the core takes ~45 s, the
// bundles ~20 s); `npm run build` always builds both, and stamps them.
// Content, not mtimes: gen-abi rewrites src/core/abi-slots.ts on every core
// build, and a checkout touches files it does not change.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each stage's inputs (files or folders, from the repository's root), stamp and main output. */
export const STAGES = {
  wasm: {
    stamp: 'build/wasm.stamp',
    output: 'build/lantern.wasm',
    inputs: ['assembly', 'asconfig.json', 'scripts/gen-abi.mjs', 'scripts/build-runtime.mjs', 'scripts/build-wasm.mjs', 'scripts/build-stamp.mjs', 'node_modules/assemblyscript/package.json'],
    env: [],
  },
  js: {
    stamp: 'dist/build.stamp',
    output: 'dist/cli.js',
    inputs: ['src', 'demo', 'build/lantern.wasm', 'scripts/build.mjs', 'scripts/build-demo.mjs', 'scripts/build-stamp.mjs', 'test/fixtures/talks.json',
      'test/fixtures/talks_settings.json', 'test/fixtures/talks_date_asc_settings.json', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'],
    env: ['LANTERN_MINIFY'],
  },
};

/**
 * The files under `path` (itself when a file), sorted: the same order wherever it is listed.
 * @param {string} root
 * @param {string} path
 * @returns {string[]}
 */
function filesOf(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).sort().flatMap((name) => filesOf(root, join(path, name)));
}

/**
 * @param {keyof typeof STAGES} stage
 * @param {string} root
 */
export function inputsHash(stage, root = '.') {
  const { inputs, env } = STAGES[stage];
  const hash = createHash('sha256');
  for (const input of inputs) {
    // a missing input hashes as missing, not as nothing: its appearing changes the hash
    hash.update(`${input}\0${existsSync(join(root, input)) ? '' : 'missing'}\0`);
    for (const file of filesOf(root, input)) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  }
  for (const name of env) hash.update(`${name}=${process.env[name] ?? ''}\0`);
  return hash.digest('hex');
}

/**
 * @param {keyof typeof STAGES} stage
 * @param {string} hash the inputs' (inputsHash)
 * @param {string} root
 */
export function isCurrent(stage, hash, root = '.') {
  const { stamp, output } = STAGES[stage];
  // an output deleted since (rm build/lantern.wasm) is built again
  return existsSync(join(root, output)) && existsSync(join(root, stamp)) && readFileSync(join(root, stamp), 'utf8') === hash;
}

/**
 * @param {keyof typeof STAGES} stage
 * @param {string} hash the inputs' as the stage began (a file changed during the build is built again next time)
 * @param {string} root
 */
export function writeStamp(stage, hash, root = '.') {
  writeFileSync(join(root, STAGES[stage].stamp), hash);
}

/**
 * Before a stage builds: a build that fails midway leaves no stamp, so the next one builds again.
 * @param {keyof typeof STAGES} stage
 * @param {string} root
 */
export function removeStamp(stage, root = '.') {
  rmSync(join(root, STAGES[stage].stamp), { force: true });
}
