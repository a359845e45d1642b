// Nearest-neighbour search in a vector space (src/core/vector-space.ts, the
// core's assembly/vectors/), against an exact search and the peers, all in
// this one process so the ratios hold. Per data shape and size:
//
//   build: every vector set, then linkSome until none is pending;
//   recall@10 against the exact top 10 (float64 cosine over the float32 data);
//   p50/p95 query, first sight (each query new: drawn like the data, not in it);
//   memory: the vectors' stored bytes (codes, links, label map) and the
//   instance's whole linear memory, against the float32 vectors' bytes;
//   filtered: 10% and 1% of the labels allowed (a bitmap), recall against
//   the exact top 10 among the allowed;
//   the same graph searched with other efSearch values (--ef) and by an
//   exact scan of the codes (what exactBelow chooses below its size);
//   peers: a plain JavaScript loop over the Float32Arrays (the exact search
//   itself, timed), Orama's vector search (brute force, `similarity: -1` so
//   nothing is cut), hnswlib-wasm (M 16, efConstruction 200, ef 64).
//
// Shapes (seeded, deterministic): `clustered`, a Gaussian mixture of 100
// centres (like real embeddings); `uniform`, Gaussian in every direction
// (the hardest: no structure to exploit); `lowrank`, 16 latent dimensions
// mapped to all of them (low intrinsic dimension).
//
// VectorSpace is not in the package's API (the index wires it), so this
// script bundles it from src/ with the built core (npm run build:wasm first).
//
//   node bench/vectors.mjs [--sizes 10000,100000] [--dimensions 384] [--shapes clustered,uniform]
//        [--queries 100] [--peer-queries 20] [--peers js,orama,hnswlib] [--peer-shapes clustered] [--ef 96,128,192]
//        [--links 12] [--ef-construction 128] [--deletes 0.25,0.5,0.75]
//
// --deletes: the same graph with that share of its labels deleted (their
// nodes left as tombstones, which still route), recall against the exact top
// 10 of the labels left: when a space is worth rebuilding.
//
// The default run takes about 6 minutes on 2 cores (hnswlib-wasm's build of
// 100k vectors, 2 of them).
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { mb, ms, table } from './format.mjs';
import { percentile } from './measure.mjs';
import { mulberry32 as random } from './corpus.mjs';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    dimensions: { type: 'string', default: '384' },
    shapes: { type: 'string', default: 'clustered,uniform' },
    queries: { type: 'string', default: '100' },
    'peer-queries': { type: 'string', default: '20' },
    peers: { type: 'string', default: 'js,orama,hnswlib' },
    'peer-shapes': { type: 'string', default: 'clustered' },
    ef: { type: 'string', default: '' },
    links: { type: 'string' },
    deletes: { type: 'string', default: '' },
    'ef-construction': { type: 'string' },
  },
});
const SIZES = values.sizes.split(',').map(Number);
const DIMS = Number(values.dimensions);
const QUERIES = Number(values.queries);
const PEER_QUERIES = Number(values['peer-queries']);
const PEERS = new Set(values.peers.split(','));
/** Shapes Orama and hnswlib-wasm are run on (hnswlib-wasm takes 9 minutes to build 100k uniform vectors). */
const PEER_SHAPES = new Set(values['peer-shapes'].split(','));
/** efSearch values to try besides the default, on the same graph (a snapshot of it imported with each). */
const EF_SWEEP = values.ef ? values.ef.split(',').map(Number) : [];
/** Shares of the labels to delete from the graph, each on a copy of it. */
const DELETES = values.deletes ? values.deletes.split(',').map(Number) : [];
/** The graph's shape, when not the defaults. */
const GRAPH = {
  ...(values.links ? { links: Number(values.links) } : {}),
  ...(values['ef-construction'] ? { efConstruction: Number(values['ef-construction']) } : {}),
};
const K = 10;

/** @typedef {typeof import('../src/core/vector-space.js')} VectorModule */

/** Bundles VectorSpace and the core from src/ (the core inlined, as dist/ does). @returns {Promise<VectorModule>} */
async function loadVectorSpace() {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-vectors-'));
  try {
    await build({
      stdin: {
        contents: "export * from './src/core/vector-space.ts'; export { loadCore } from './src/core/wasm.ts';",
        resolveDir: new URL('..', import.meta.url).pathname, loader: 'ts',
      },
      bundle: true, format: 'esm', platform: 'node', target: 'node20', loader: { '.wasm': 'binary' },
      outfile: join(dir, 'vectors.js'), logLevel: 'warning',
    });
    /** @type {VectorModule & { loadCore(): Promise<void> }} */
    const module = await import(pathToFileURL(join(dir, 'vectors.js')).href);
    await module.loadCore();
    return module;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- data

/** @param {() => number} next */
const gaussian = (next) => () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());

/**
 * A shape's generator: `count` vectors end to end in one Float32Array.
 * @type {Record<string, (seed: number) => (count: number) => Float32Array>}
 */
const SHAPES = {
  clustered(seed) {
    const gauss = gaussian(random(seed));
    const centres = Array.from({ length: 100 }, () => Float32Array.from({ length: DIMS }, gauss));
    const pick = random(seed + 1);
    return (count) => {
      const out = new Float32Array(count * DIMS);
      for (let i = 0; i < count; i++) {
        const c = centres[Math.floor(pick() * centres.length)];
        for (let d = 0; d < DIMS; d++) out[i * DIMS + d] = c[d] + 0.7 * gauss();
      }
      return out;
    };
  },
  uniform(seed) {
    const gauss = gaussian(random(seed));
    return (count) => Float32Array.from({ length: count * DIMS }, gauss);
  },
  lowrank(seed) {
    const LATENT = 16;
    const gauss = gaussian(random(seed));
    const map = Float32Array.from({ length: LATENT * DIMS }, gauss);
    return (count) => {
      const out = new Float32Array(count * DIMS);
      const z = new Float32Array(LATENT);
      for (let i = 0; i < count; i++) {
        for (let j = 0; j < LATENT; j++) z[j] = gauss();
        for (let d = 0; d < DIMS; d++) {
          let x = 0.05 * gauss();
          for (let j = 0; j < LATENT; j++) x += z[j] * map[j * DIMS + d];
          out[i * DIMS + d] = x;
        }
      }
      return out;
    };
  },
};

/** @param {Float32Array} all @param {number} i */
const row = (all, i) => all.subarray(i * DIMS, (i + 1) * DIMS);

/** Per vector, 1 / its norm. @param {Float32Array} all */
function inverseNorms(all) {
  const n = all.length / DIMS;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let d = i * DIMS; d < (i + 1) * DIMS; d++) s += all[d] * all[d];
    out[i] = 1 / Math.sqrt(s);
  }
  return out;
}

/** A random `share` of the `n` labels, as a bitmap. @param {number} n @param {number} share @param {number} seed */
function allowList(n, share, seed) {
  const next = random(seed);
  const bitmap = new Uint32Array((n + 31) >>> 5);
  for (let i = 0; i < n; i++) if (next() < share) bitmap[i >>> 5] |= 1 << (i & 31);
  return bitmap;
}

/** @param {Uint32Array} bitmap @param {number} label */
const allows = (bitmap, label) => (bitmap[label >>> 5] & (1 << (label & 31))) !== 0;

// ---------------------------------------------------------------- exact search (the plain JavaScript loop)

/**
 * The exact top k by cosine: a plain loop over the Float32Arrays, as a
 * JavaScript application would write it.
 * @param {Float32Array} all @param {Float64Array} inverse @param {Float32Array} query @param {Uint32Array} [allowed]
 */
function exactTop(all, inverse, query, allowed) {
  const n = inverse.length;
  const labels = new Int32Array(K).fill(-1);
  const scores = new Float64Array(K).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    if (allowed && !allows(allowed, i)) continue;
    let dot = 0;
    const base = i * DIMS;
    for (let d = 0; d < DIMS; d++) dot += all[base + d] * query[d];
    const s = dot * inverse[i];
    if (s <= scores[K - 1]) continue;
    let at = K - 1;
    while (at > 0 && scores[at - 1] < s) { scores[at] = scores[at - 1]; labels[at] = labels[at - 1]; at--; }
    scores[at] = s;
    labels[at] = i;
  }
  return labels;
}

/** @param {ArrayLike<number>} found @param {Int32Array} truth */
function recallOf(found, truth) {
  const wanted = new Set(truth);
  let hits = 0;
  for (let i = 0; i < found.length; i++) if (wanted.has(found[i])) hits++;
  return hits / K;
}

/** Times `run` once per query. @param {number} count @param {(q: number) => unknown} run */
function timed(count, run) {
  const times = new Float64Array(count);
  for (let q = 0; q < count; q++) {
    const t = performance.now();
    run(q);
    times[q] = performance.now() - t;
  }
  times.sort();
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

// ---------------------------------------------------------------- peers

/**
 * @typedef {{ name: string, buildMs: number, search(q: Float32Array): ArrayLike<number>, filtered?(q: Float32Array, allowed: Uint32Array): ArrayLike<number> }} Peer
 */

/** @param {Float32Array} all @returns {Promise<Peer>} */
async function orama(all) {
  const { create, insertMultiple, search } = await import('@orama/orama');
  const n = all.length / DIMS;
  const start = performance.now();
  const db = create({ schema: { label: 'number', embedding: /** @type {const} */ (`vector[${DIMS}]`) } });
  const docs = Array.from({ length: n }, (_, i) => ({ id: String(i), label: i, embedding: Array.from(row(all, i)) }));
  await insertMultiple(db, docs, 1000);
  const buildMs = performance.now() - start;
  return {
    name: 'Orama',
    buildMs,
    search(q) {
      const r = /** @type {{ hits: Array<{ document: { label: number } }> }} */ (
        search(db, { mode: 'vector', vector: { value: Array.from(q), property: 'embedding' }, similarity: -1, limit: K, includeVectors: false })
      );
      return r.hits.map((h) => h.document.label);
    },
  };
}

/** @param {Float32Array} all @returns {Promise<Peer>} */
async function hnswlib(all) {
  // hnswlib-wasm is built for browsers and workers: it loads in Node as in a
  // worker (its wasm is inlined), and reports that it has no IndexedDB to
  // mount (no file is used here) on the console, which is kept quiet meanwhile
  const shims = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  shims.importScripts ??= () => {};
  shims.self ??= globalThis;
  shims.location ??= new URL(import.meta.url);
  const { loadHnswlib } = await import('hnswlib-wasm/dist/hnswlib.js');
  const { log, error, warn } = console;
  console.log = console.error = console.warn = () => {};
  const lib = await loadHnswlib().finally(() => { console.log = log; console.error = error; console.warn = warn; });
  const n = all.length / DIMS;
  const start = performance.now();
  const index = new lib.HierarchicalNSW('cosine', DIMS, '');
  index.initIndex(n, 16, 200, 100);
  for (let i = 0; i < n; i++) index.addPoint(row(all, i), i, false);
  const buildMs = performance.now() - start;
  index.setEfSearch(64);
  return {
    name: 'hnswlib-wasm',
    buildMs,
    search: (q) => sortedNeighbours(index.searchKnn(q, K, undefined)),
    filtered: (q, allowed) => sortedNeighbours(index.searchKnn(q, K, (label) => allows(allowed, label))),
  };
}

/** hnswlib answers farthest first. @param {{ neighbors: number[], distances: number[] }} r */
function sortedNeighbours(r) {
  return r.neighbors.map((label, i) => ({ label, d: r.distances[i] })).sort((a, b) => a.d - b.d).map((x) => x.label);
}

// ---------------------------------------------------------------- run

const { VectorSpace, VECTOR_DEFAULTS } = await loadVectorSpace();
console.log(`vectors: ${DIMS} dimensions, k ${K}, ${QUERIES} queries (peers ${PEER_QUERIES}), Lantern ${JSON.stringify({ ...VECTOR_DEFAULTS, ...GRAPH })}; node ${process.version}\n`);

for (const shape of values.shapes.split(',')) {
  for (const size of SIZES) await runCase(shape, size);
}

/** @param {string} shape @param {number} size */
async function runCase(shape, size) {
  const generate = SHAPES[shape](1000 + size);
  const all = generate(size);
  const queries = generate(QUERIES);
  const inverse = inverseNorms(all);
  const floatBytes = size * DIMS * 4;
  const shares = [0.1, 0.01];
  const bitmaps = shares.map((share, i) => allowList(size, share, 77 + i));

  /** @type {Int32Array[]} */
  const truth = new Array(QUERIES);
  const exactMs = timed(QUERIES, (q) => { truth[q] = exactTop(all, inverse, row(queries, q)); });
  const filteredTruth = bitmaps.map((b) => truth.map((_, q) => exactTop(all, inverse, row(queries, q), b)));

  // Lantern
  let start = performance.now();
  const space = new VectorSpace(DIMS, GRAPH);
  for (let i = 0; i < size; i++) space.set(i, row(all, i));
  const setMs = performance.now() - start;
  while (space.linkSome(50) > 0) { /* linked in steps, as between requests */ }
  const buildMs = performance.now() - start;
  /** @type {ArrayLike<number>[]} */
  const found = new Array(QUERIES);
  const lantern = timed(QUERIES, (q) => { found[q] = space.nearest(row(queries, q), K).labels; });
  const recall = found.reduce((sum, f, q) => sum + recallOf(f, truth[q]), 0) / QUERIES;
  const filtered = bitmaps.map((bitmap, b) => {
    /** @type {ArrayLike<number>[]} */
    const got = new Array(QUERIES);
    const t = timed(QUERIES, (q) => { got[q] = space.nearest(row(queries, q), K, bitmap).labels; });
    return { ...t, recall: got.reduce((sum, f, q) => sum + recallOf(f, filteredTruth[b][q]), 0) / QUERIES };
  });

  /** @type {unknown[][]} */
  const rows = [[
    'Lantern', `${ms(buildMs / 1000)} s (set ${ms(setMs / 1000)} s)`, recall.toFixed(3), ms(lantern.p50), ms(lantern.p95), '1',
    `${mb(space.storedBytes)} (${(space.storedBytes / floatBytes).toFixed(3)}x); memory ${mb(space.memoryBytes)} (${(space.memoryBytes / floatBytes).toFixed(3)}x)`,
  ]];
  // other search settings on the same graph: a snapshot of it imported with each
  const parts = await space.exportSnapshot(async () => {});
  const variants = [...EF_SWEEP.map((efSearch) => ({ name: `efSearch ${efSearch}`, options: { efSearch } })), { name: 'exact scan of the codes', options: { exactBelow: size + 1 } }];
  for (const { name, options } of variants) {
    const copy = await VectorSpace.importSnapshot(parts, async () => {}, options);
    /** @type {ArrayLike<number>[]} */
    const got = new Array(QUERIES);
    const t = timed(QUERIES, (q) => { got[q] = copy.nearest(row(queries, q), K).labels; });
    const r = got.reduce((sum, f, q) => sum + recallOf(f, truth[q]), 0) / QUERIES;
    rows.push([`Lantern, ${name}`, '-', r.toFixed(3), ms(t.p50), ms(t.p95), (t.p50 / lantern.p50).toFixed(1), '-']);
  }
  {
    // the engine calibrates a space as it grows (IndexVectors: samples of its own vectors, VectorSpace.calibrate)
    const copy = await VectorSpace.importSnapshot(parts, async () => {});
    const started = performance.now();
    let rounds = 1;
    for (const next = random(5); !copy.calibrate(Array.from({ length: 5 }, () => row(all, Math.floor(next() * size)))); rounds++) { /* another round */ }
    const calibrateMs = performance.now() - started;
    /** @type {ArrayLike<number>[]} */
    const got = new Array(QUERIES);
    const t = timed(QUERIES, (q) => { got[q] = copy.nearest(row(queries, q), K).labels; });
    const r = got.reduce((sum, f, q) => sum + recallOf(f, truth[q]), 0) / QUERIES;
    const shape = copy.searchShape;
    rows.push([`Lantern, calibrated (${shape.exact ? 'exact scans' : `efSearch ${shape.efSearch}`})`, `${rounds} rounds, ${ms(calibrateMs)} ms`, r.toFixed(3), ms(t.p50), ms(t.p95), (t.p50 / lantern.p50).toFixed(1), '-']);
  }
  for (const share of DELETES) {
    const copy = await VectorSpace.importSnapshot(parts, async () => {});
    const kept = allowList(size, 1 - share, 91);
    for (let i = 0; i < size; i++) if (!allows(kept, i)) copy.delete(i);
    const keptTruth = truth.map((_, q) => exactTop(all, inverse, row(queries, q), kept));
    /** @type {ArrayLike<number>[]} */
    const got = new Array(QUERIES);
    const t = timed(QUERIES, (q) => { got[q] = copy.nearest(row(queries, q), K).labels; });
    const r = got.reduce((sum, f, q) => sum + recallOf(f, keptTruth[q]), 0) / QUERIES;
    rows.push([`Lantern, ${share * 100}% deleted`, '-', r.toFixed(3), ms(t.p50), ms(t.p95), (t.p50 / lantern.p50).toFixed(1), `${copy.tombstones} tombstones`]);
  }
  /** @type {unknown[][]} */
  const filteredPeers = [];
  if (PEERS.has('js')) rows.push(['JS loop (exact)', '-', '1.000', ms(exactMs.p50), ms(exactMs.p95), (exactMs.p50 / lantern.p50).toFixed(0), `${mb(floatBytes)} (1x)`]);
  for (const make of [PEERS.has('orama') ? orama : null, PEERS.has('hnswlib') ? hnswlib : null]) {
    if (!make || !PEER_SHAPES.has(shape)) continue;
    const peer = await make(all);
    const peerQueries = peer.name === 'Orama' ? Math.min(QUERIES, PEER_QUERIES) : QUERIES;
    /** @type {ArrayLike<number>[]} */
    const got = new Array(peerQueries);
    const t = timed(peerQueries, (q) => { got[q] = peer.search(row(queries, q)); });
    const r = got.reduce((sum, f, q) => sum + recallOf(f, truth[q]), 0) / peerQueries;
    rows.push([peer.name, `${ms(peer.buildMs / 1000)} s`, r.toFixed(3), ms(t.p50), ms(t.p95), (t.p50 / lantern.p50).toFixed(1), '-']);
    if (peer.filtered) {
      const p = peer;
      bitmaps.forEach((bitmap, b) => {
        /** @type {ArrayLike<number>[]} */
        const fgot = new Array(QUERIES);
        const ft = timed(QUERIES, (q) => { fgot[q] = p.filtered?.(row(queries, q), bitmap) ?? []; });
        const fr = fgot.reduce((sum, f, q) => sum + recallOf(f, filteredTruth[b][q]), 0) / QUERIES;
        filteredPeers.push([`${p.name}, ${shares[b] * 100}% allowed`, '-', fr.toFixed(3), ms(ft.p50), ms(ft.p95), (ft.p50 / filtered[b].p50).toFixed(1), '-']);
      });
    }
  }
  filtered.forEach((f, b) => rows.push([`Lantern, ${shares[b] * 100}% allowed`, '-', f.recall.toFixed(3), ms(f.p50), ms(f.p95), '1', '-']));
  rows.push(...filteredPeers);
  console.log(`${shape}, ${size.toLocaleString('en')} x ${DIMS} (float32 ${mb(floatBytes)}):`);
  console.log(table(['engine', 'build', 'recall@10', 'p50 ms', 'p95 ms', 'p50 / Lantern', 'bytes (vs float32)'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'l']));
  console.log();
}
