// The libraries the relevance benchmark compares, each set up as its own
// documentation recommends for a search box (not bench/peers.mjs's common
// semantics, which makes them comparable for speed): a library's defaults
// for matching several words, its documented typo and prefix options.
// Lantern runs three times: with the service's defaults, with the
// search-box recipe (removeWordsIfNoResults: allOptional, removeStopWords:
// true), and with allOptional alone (stop words kept in queries that have
// results; the relaxation weighs them less when it drops words).
//
//   library = { name, build(corpus) → { search(query) → { ids (top 10), count }, close() } }
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * @typedef {import('./corpora.mjs').RelevanceCorpus} RelevanceCorpus
 * @typedef {{ ids: string[], count: number }} Found
 * @typedef {{ search(query: string): Found | Promise<Found>, close(): unknown }} Searcher
 * @typedef {{ name: string, version: string, build(corpus: RelevanceCorpus): Promise<Searcher> }} RelevanceLibrary
 * @typedef {Record<string, string> & { id: string }} FlatDoc
 */

export const TOP = 10;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** @type {(pkg: string) => string} */
const versionOf = (pkg) => JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;

/** The search-box recipe (README, "Tuning relevance"). */
export const RECIPE = { removeWordsIfNoResults: 'allOptional', removeStopWords: true };

/**
 * Each record as the peers index it: its id and each searchable field as one string.
 * @param {RelevanceCorpus} corpus
 * @returns {FlatDoc[]}
 */
function flatDocuments(corpus) {
  return corpus.records.map((r) => {
    /** @type {FlatDoc} */
    const doc = { id: r.objectID };
    for (const f of corpus.fields) {
      const v = r[f];
      doc[f] = Array.isArray(v) ? v.join(' ') : v == null ? '' : String(v);
    }
    return doc;
  });
}

/**
 * Lantern from the bundle in `distDir`, through the official client's
 * methods, with `settings` over the corpus's searchable attributes.
 * @param {string} distDir
 * @param {string} name
 * @param {Record<string, unknown>} settings
 * @returns {RelevanceLibrary}
 */
export function lantern(distDir, name, settings) {
  return {
    name,
    version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
    async build(corpus) {
      /** @type {typeof import('lantern-search')} */
      const { Lantern } = await import(pathToFileURL(join(distDir, 'index.js')).href);
      const engine = await Lantern.open();
      const client = engine.client();
      const indexName = corpus.name;
      await client.setSettings({ indexName, indexSettings: { searchableAttributes: corpus.fields, ...settings } });
      await client.saveObjects({ indexName, objects: corpus.records, batchSize: 1000 });
      await engine.waitForTasks();
      const base = { hitsPerPage: TOP, attributesToRetrieve: ['objectID'], attributesToHighlight: [], attributesToSnippet: [] };
      return {
        async search(query) {
          const r = await client.searchSingleIndex({ indexName, searchParams: { ...base, query } });
          return { ids: r.hits.map((h) => h.objectID), count: r.nbHits ?? 0 };
        },
        close: () => engine.close(),
      };
    },
  };
}

/** MiniSearch, with the README's search options: prefix and fuzzy 0.2 (any word may match: OR). @returns {Promise<RelevanceLibrary>} */
async function miniSearch() {
  const { default: MiniSearch } = await import('minisearch');
  return {
    name: 'MiniSearch',
    version: versionOf('minisearch'),
    async build(corpus) {
      const ms = new MiniSearch({ fields: corpus.fields, searchOptions: { prefix: true, fuzzy: 0.2 } });
      ms.addAll(flatDocuments(corpus));
      return {
        search(query) {
          const results = ms.search(query);
          return { ids: results.slice(0, TOP).map((r) => String(r.id)), count: results.length };
        },
        close() {},
      };
    },
  };
}

/** Orama: full-text search over the fields with `tolerance: 1` (its typo tolerance), default threshold. @returns {Promise<RelevanceLibrary>} */
async function orama() {
  const { create, insertMultiple, search } = await import('@orama/orama');
  return {
    name: 'Orama',
    version: versionOf('@orama/orama'),
    async build(corpus) {
      const schema = Object.fromEntries([['id', 'string'], ...corpus.fields.map((f) => [f, 'string'])]);
      /** @type {import('@orama/orama').AnyOrama} */
      const db = create({ schema: /** @type {import('@orama/orama').AnySchema} */ (schema) });
      await insertMultiple(db, flatDocuments(corpus), 1000);
      return {
        async search(query) {
          const r = await search(db, { term: query, properties: corpus.fields, tolerance: 1, limit: TOP });
          return { ids: r.hits.map((h) => h.id), count: r.count };
        },
        close() {},
      };
    },
  };
}

/** FlexSearch: a Document index, `forward` tokenizing (as you type), the LatinBalance encoder, `suggest` for partial matches. @returns {Promise<RelevanceLibrary>} */
async function flexSearch() {
  const { Document, Charset } = await import('flexsearch');
  return {
    name: 'FlexSearch',
    version: versionOf('flexsearch'),
    async build(corpus) {
      const index = new Document({
        document: { id: 'id', index: corpus.fields.map((field) => ({ field, tokenize: /** @type {const} */ ('forward'), encoder: Charset.LatinBalance })) },
      });
      for (const doc of flatDocuments(corpus)) index.add(doc);
      return {
        search(query) {
          const results = index.search(query, { limit: corpus.records.length, suggest: true, merge: true });
          return { ids: results.slice(0, TOP).map((r) => String(r.id)), count: results.length };
        },
        close() {},
      };
    },
  };
}

/**
 * Lunr: each query word as its guide on searching combines it: the exact
 * term boosted, the term as a prefix, and with an edit distance of one
 * (two from 8 letters); words are optional (Lunr's default).
 * @returns {Promise<RelevanceLibrary>}
 */
async function lunrLibrary() {
  const { default: lunr } = await import('lunr');
  return {
    name: 'Lunr',
    version: versionOf('lunr'),
    async build(corpus) {
      const docs = flatDocuments(corpus);
      const idx = lunr(function () {
        this.ref('id');
        for (const f of corpus.fields) this.field(f);
        for (const doc of docs) this.add(doc);
      });
      return {
        search(query) {
          const words = lunr.tokenizer(query).map((t) => t.toString());
          const results = idx.query((q) => {
            for (const w of words) {
              q.term(w, { boost: 100 });
              q.term(w, { boost: 10, wildcard: lunr.Query.wildcard.TRAILING });
              q.term(w, { boost: 1, editDistance: w.length >= 8 ? 2 : 1 });
            }
          });
          return { ids: results.slice(0, TOP).map((r) => r.ref), count: results.length };
        },
        close() {},
      };
    },
  };
}

/** Fuse.js: its default threshold, the fields as keys, `ignoreLocation` (matches anywhere in long fields). @returns {Promise<RelevanceLibrary>} */
async function fuse() {
  const { default: Fuse } = await import('fuse.js');
  return {
    name: 'Fuse.js',
    version: versionOf('fuse.js'),
    async build(corpus) {
      const f = new Fuse(flatDocuments(corpus), { keys: corpus.fields, ignoreLocation: true });
      return {
        search(query) {
          const results = f.search(query);
          return { ids: results.slice(0, TOP).map((r) => r.item.id), count: results.length };
        },
        close() {},
      };
    },
  };
}

export const PEERS = { minisearch: miniSearch, orama, flexsearch: flexSearch, lunr: lunrLibrary, fuse };

/**
 * Lantern three times (defaults, recipe, allOptional alone) and the peers named in `keys`.
 * @param {string} distDir
 * @param {string[]} keys of PEERS
 */
export async function relevanceLibraries(distDir, keys) {
  /** @type {RelevanceLibrary[]} */
  const out = [
    lantern(distDir, 'Lantern (defaults)', {}),
    lantern(distDir, 'Lantern (recipe)', RECIPE),
    lantern(distDir, 'Lantern (allOptional)', { removeWordsIfNoResults: RECIPE.removeWordsIfNoResults }),
  ];
  for (const [key, make] of Object.entries(PEERS)) if (keys.includes(key)) out.push(await make());
  return out;
}
