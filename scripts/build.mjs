// Bundles the TypeScript facade with esbuild; the WebAssembly core is inlined
// (binary loader), so every bundle is self-contained in Node and browsers.
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });

const common = {
  bundle: true,
  format: 'esm',
  loader: { '.wasm': 'binary' },
  sourcemap: true,
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: { index: 'src/index.ts', worker: 'src/worker.ts' },
  outdir: 'dist',
  platform: 'neutral',
  target: 'es2022',
  splitting: true,
  mainFields: ['module', 'main'],
  // node built-ins are only reached behind a runtime check (compression, worker_threads)
  external: ['node:*'],
});

await build({
  ...common,
  entryPoints: { node: 'src/node.ts', cli: 'src/cli.ts' },
  outdir: 'dist',
  platform: 'node',
  target: 'node20',
  splitting: true,
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

chmodSync('dist/cli.js', 0o755);

await import('./build-demo.mjs');
