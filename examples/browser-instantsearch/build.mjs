// The page and the engine's worker, bundled for browsers: the page takes
// lantern-search/client (no engine), the worker takes the engine. No
// externals: nothing in either reaches a `node:` module.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const result = await build({
  entryPoints: { app: 'src/app.js', 'search-worker': 'src/search-worker.js' },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  minify: true,
  metafile: true,
});
for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) console.log(`${file} ${(bytes / 1024).toFixed(1)} KB`);
// what each bundle is made of (esbuild's metafile: https://esbuild.github.io/analyze/)
writeFileSync('dist/meta.json', JSON.stringify(result.metafile));
