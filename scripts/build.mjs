// Bundles the TypeScript facade with esbuild, minified; the WebAssembly core
// is inlined (binary loader), so every bundle is self-contained. Two builds
// of the engine: dist/ for Node and Electron (node:zlib, worker_threads:
// src/platform/platform.node.ts) and dist/browser/ for pages and workers
// (the web platform only: not one `node:` import). Then the declaration
// files (dist/types) and the web demo. `--if-changed` (npm start) builds
// only when the inputs differ from the last build's (scripts/build-stamp.mjs).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { inputsHash, isCurrent, writeStamp } from './build-stamp.mjs';

// --if-changed (npm start): nothing to do when src/, demo/ and the core are those of the last build
const hash = inputsHash('js');
if (process.argv.includes('--if-changed') && isCurrent('js', hash)) {
  console.log('build:js: up to date (src/, demo/ and build/lantern.wasm unchanged)');
  process.exit(0);
}

// the stamp goes with the rest: a build that fails midway leaves none
rmSync('dist', { recursive: true, force: true });

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'esm',
  loader: { '.wasm': 'binary' },
  // LANTERN_MINIFY=0 keeps names, for CPU profiles (node --cpu-prof)
  minify: process.env.LANTERN_MINIFY !== '0',
  sourcemap: true,
  splitting: true,
  logLevel: 'warning',
};

/** Resolves src/platform/platform.js to the Node implementation. @type {import('esbuild').Plugin} */
const nodePlatform = {
  name: 'node-platform',
  setup(b) {
    b.onResolve({ filter: /\/platform\/platform\.js$/ }, (args) => ({ path: resolve(args.resolveDir, args.path.replace(/platform\.js$/, 'platform.node.ts')) }));
  },
};

await build({
  ...common,
  entryPoints: { index: 'src/index.ts', worker: 'src/worker.ts', node: 'src/node.ts', cli: 'src/cli.ts', 'proof-worker': 'src/proof-worker.ts', 'read-worker': 'src/read-worker.ts' },
  outdir: 'dist',
  platform: 'node',
  target: 'node20',
  plugins: [nodePlatform],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

await build({
  ...common,
  entryPoints: { index: 'src/index.ts', worker: 'src/worker.ts', client: 'src/client.ts' },
  outdir: 'dist/browser',
  platform: 'browser',
  target: 'es2022',
});

chmodSync('dist/cli.js', 0o755);

execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });

await import('./build-demo.mjs');

writeStamp('js', hash);
