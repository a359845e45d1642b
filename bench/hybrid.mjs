// Hybrid search: which fusion, and what it costs. Not a test: numbers.
//
// Quality: the relevance benchmark's held-out queries (bench/relevance:
// exact titles, typos, reordered and missing words...) on three corpora,
// answered by keywords alone, by vectors alone, and by both fused two ways:
// weighted scores (the engine's, Meilisearch's way) and weighted reciprocal
// ranks (Typesense's, computed here from the two sides' lists), both at
// semanticRatio 0.5. No model weights can be fetched here, so the vectors
// are a stand-in with a different failure profile from the keyword side:
// character trigrams hashed into 256 dimensions (robust to typos and word
// order, blind to rare words' weight). The question is which fusion keeps
// each side's strengths when the other is wrong.
//
// Speed: at N synthetic records with 384-dimension clustered vectors, a
// keyword query's p50 and a hybrid query's (fresh queries: first sight).
//
//   npm run build && node bench/hybrid.mjs [--per-class 30] [--corpora talks,recipes,airports] [--n 100000] [--queries 200]
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { relevanceCorpora, DEFAULT_DATASETS } from './relevance/corpora.mjs';
import { relevanceQueries, fold } from './relevance/queries.mjs';
import { Tally } from './relevance/metrics.mjs';
import { mulberry32, synthetic } from './corpus.mjs';

const { values: args } = parseArgs({
  options: {
    'per-class': { type: 'string', default: '30' },
    corpora: { type: 'string', default: 'talks,recipes,airports' },
    n: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    dimensions: { type: 'string', default: '384' },
    skip: { type: 'string', default: '' },
    dist: { type: 'string', default: 'dist' },
  },
});

/** @type {typeof import('lantern-search')} */
const { Lantern } = await import(pathToFileURL(join(args.dist, 'index.js')).href);
const TRIGRAM_DIMENSIONS = 256;

/** FNV-1a 32 of a string. @param {string} text */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Character trigrams of each word (padded), hashed with a sign into a unit vector. @param {string} text */
function trigramVector(text) {
  const v = new Float32Array(TRIGRAM_DIMENSIONS);
  for (const word of fold(text).match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const h = hash(padded.slice(i, i + 3));
      v[h % TRIGRAM_DIMENSIONS] += h & 0x80000000 ? -1 : 1;
    }
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) v[0] = 1;
  else for (let i = 0; i < v.length; i++) v[i] /= Math.sqrt(norm);
  return v;
}

const METHODS = ['keyword', 'vector', 'score fusion', 'rank fusion'];
const RRF_K = 60;

/** @param {string[]} keyword @param {string[]} vector @param {number} ratio */
function rankFused(keyword, vector, ratio) {
  /** @type {Map<string, number>} */
  const score = new Map();
  keyword.forEach((id, rank) => score.set(id, (score.get(id) ?? 0) + (1 - ratio) / (RRF_K + rank + 1)));
  vector.forEach((id, rank) => score.set(id, (score.get(id) ?? 0) + ratio / (RRF_K + rank + 1)));
  return [...score].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

async function quality() {
  const wanted = new Set(args.corpora.split(','));
  const corpora = relevanceCorpora(DEFAULT_DATASETS).filter((c) => wanted.has(c.name));
  /** @type {Map<string, Map<string, Tally>>} method → class → tally */
  const tallies = new Map(METHODS.map((m) => [m, new Map()]));
  for (const corpus of corpora) {
    const engine = await Lantern.open({ embedders: { trigrams: async (texts) => texts.map(trigramVector) } });
    const client = engine.client();
    const indexName = corpus.name;
    await client.setSettings({
      indexName,
      // embedders: Lantern's own setting, which the official client's settings type does not list
      indexSettings: /** @type {any} */ ({
        searchableAttributes: corpus.fields,
        embedders: { trigrams: { source: 'function', name: 'trigrams', dimensions: TRIGRAM_DIMENSIONS, documentTemplate: corpus.fields.map((f) => `{{doc.${f}}}`).join('. ') } },
      }),
    });
    await client.saveObjects({ indexName, objects: corpus.records, batchSize: 1000 });
    await engine.waitForEmbeddings();
    const base = { hitsPerPage: 100, attributesToRetrieve: ['objectID'], attributesToHighlight: [], attributesToSnippet: [] };
    /** @param {Record<string, unknown>} extra @param {string} query */
    const ids = async (query, extra) => (await client.searchSingleIndex({ indexName, searchParams: /** @type {any} */ ({ ...base, query, ...extra }) })).hits.map((h) => h.objectID);
    const { classes } = relevanceQueries(corpus, { seed: 23, perClass: Number(args['per-class']), keystrokes: 0 });
    for (const [name, queries] of Object.entries(classes)) {
      for (const q of queries) {
        const keyword = await ids(q.query, {});
        const vector = await ids(q.query, { hybrid: { embedder: 'trigrams', semanticRatio: 1 } });
        const score = await ids(q.query, { hybrid: { embedder: 'trigrams', semanticRatio: 0.5 } });
        const lists = { keyword, vector, 'score fusion': score, 'rank fusion': rankFused(keyword, vector, 0.5) };
        for (const [method, list] of Object.entries(lists)) {
          const byClass = /** @type {Map<string, Tally>} */ (tallies.get(method));
          if (!byClass.has(name)) byClass.set(name, new Tally());
          /** @type {Tally} */ (byClass.get(name)).add(list.slice(0, 10), list.length, q.relevant);
        }
      }
    }
    await engine.close();
  }
  const classes = [...(/** @type {Map<string, Tally>} */ (tallies.get('keyword'))).keys()];
  console.log(`\nQuality (${args.corpora}; ${args['per-class']} queries per class and corpus): MRR@10 / recall@1`);
  console.log(['class'.padEnd(12), ...METHODS.map((m) => m.padStart(16))].join(''));
  for (const name of [...classes, 'all']) {
    const cells = METHODS.map((method) => {
      const byClass = /** @type {Map<string, Tally>} */ (tallies.get(method));
      const tally = name === 'all' ? merged([...byClass.values()]) : /** @type {Tally} */ (byClass.get(name));
      const f = tally.figures();
      return `${f.mrr.toFixed(3)} / ${f.recall1.toFixed(2)}`.padStart(16);
    });
    console.log([name.padEnd(12), ...cells].join(''));
  }
}

/** @param {Tally[]} list */
function merged(list) {
  const out = new Tally();
  for (const t of list) for (const k of /** @type {const} */ (['queries', 'at1', 'at3', 'at10', 'reciprocal', 'zero'])) out[k] += t[k];
  return out;
}

/** @param {number[]} values @param {number} p */
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

async function speed() {
  const n = Number(args.n);
  const dimensions = Number(args.dimensions);
  const rng = mulberry32(7);
  const centres = Array.from({ length: 64 }, () => Float32Array.from({ length: dimensions }, () => rng() * 2 - 1));
  /** A vector near one of the centres. */
  const clustered = () => {
    const c = centres[Math.floor(rng() * centres.length)];
    return Array.from(c, (x) => Math.round((x + (rng() * 2 - 1) * 0.6) * 1e4) / 1e4);
  };
  const corpus = synthetic(n);
  const engine = await Lantern.open();
  const client = engine.client();
  const indexName = 'synthetic';
  await client.setSettings({ indexName, indexSettings: /** @type {any} */ ({ ...corpus.settings, embedders: { default: { source: 'userProvided', dimensions } } }) });
  const started = performance.now();
  for (let i = 0; i < corpus.records.length; i += 2000) {
    const objects = corpus.records.slice(i, i + 2000).map((r) => ({ ...r, _vectors: { default: clustered() } }));
    await client.saveObjects({ indexName, objects });
  }
  await engine.waitForTasks();
  const written = performance.now() - started;
  await engine.waitForVectorLinks();
  const linked = performance.now() - started;
  const words = corpus.records.slice(0, Number(args.queries)).map((r) => String(corpus.searchableText(r).find((t) => t) ?? '').split(/\s+/).slice(0, 2).join(' '));
  /** @param {(i: number) => Record<string, unknown>} params */
  const timed = async (params) => {
    const times = [];
    for (let i = 0; i < words.length; i++) {
      const t = performance.now();
      await client.searchSingleIndex({ indexName, searchParams: /** @type {any} */ ({ query: words[i], hitsPerPage: 20, ...params(i) }) });
      times.push(performance.now() - t);
    }
    return times;
  };
  const vectors = words.map(() => clustered());
  const keyword = await timed(() => ({}));
  const hybrid = await timed((i) => ({ vector: vectors[i], hybrid: { semanticRatio: 0.5 } }));
  const semantic = await timed((i) => ({ query: '', vector: vectors[i] }));
  console.log(`\nSpeed: ${n} records, ${dimensions} dimensions; written and searchable in ${(written / 1000).toFixed(1)} s, linked in ${(linked / 1000).toFixed(1)} s`);
  for (const [name, t] of /** @type {const} */ ([['keyword', keyword], ['hybrid 0.5', hybrid], ['vector only', semantic]])) {
    console.log(`${name.padEnd(12)} p50 ${percentile(t, 0.5).toFixed(2)} ms  p95 ${percentile(t, 0.95).toFixed(2)} ms  (x${(percentile(t, 0.5) / percentile(keyword, 0.5)).toFixed(2)} keyword)`);
  }
  await engine.close();
}

if (!args.skip.includes('quality')) await quality();
if (!args.skip.includes('speed')) await speed();
