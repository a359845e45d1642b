// Builds the web demo (demo/) into dist/demo: the page and its styles, the
// page bundle (InstantSearch.js + the official lite client), the engine's
// worker bundle (the WebAssembly core inlined), the TED talks dataset and a
// service worker that precaches all of it under the build's content hash.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const OUT = 'dist/demo';
const FIXTURES = 'test/fixtures';

mkdirSync(join(OUT, 'data'), { recursive: true });
for (const file of ['index.html', 'style.css']) copyFileSync(join('demo', file), join(OUT, file));
for (const file of ['talks.json', 'talks_settings.json', 'talks_date_asc_settings.json']) copyFileSync(join(FIXTURES, file), join(OUT, 'data', file));
const talks = JSON.parse(readFileSync(join(FIXTURES, 'talks.json'), 'utf8'));
writeFileSync(join(OUT, 'data', 'manifest.json'), JSON.stringify({ talks: talks.length }));

/** @type {import('esbuild').BuildOptions} */
const browser = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
};

await build({
  ...browser,
  entryPoints: { app: 'demo/app.ts', worker: 'demo/engine-worker.ts' },
  outdir: OUT,
  loader: { '.wasm': 'binary' },
});

/**
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]);
}

const precached = filesUnder(OUT).filter((file) => !file.endsWith('.map') && !file.endsWith('sw.js')).sort();
const hash = createHash('sha256');
for (const file of precached) hash.update(relative(OUT, file)).update(readFileSync(file));

await build({
  ...browser,
  entryPoints: { sw: 'demo/sw.ts' },
  outdir: OUT,
  format: 'iife',
  define: {
    __BUILD_VERSION__: JSON.stringify(hash.digest('hex').slice(0, 16)),
    // './' is the page as navigations ask for it (/demo/)
    __PRECACHE__: JSON.stringify(['./', ...precached.map((file) => relative(OUT, file))]),
  },
});
