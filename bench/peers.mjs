// The libraries the benchmark compares, behind one small interface, each set
// up for the same semantics as far as it can go: every query word required,
// the last word a prefix, typos by word length as the corpus's settings say
// (corpus.peer.typos), every match counted.
//
//   library = { name, version, can: { typo, prefix, filter, facets, snapshot }, build(corpus), prepare()? }
//   prepare() (optional) imports what build needs, before any timing
//   can.X === true, or a short reason why the library cannot do X
//   build(corpus) → instance: search(query) → { ids (top 10), count },
//     filtered(query, filter, facets) → { ids, count, facets? } (when can.filter),
//     save() → string | Uint8Array, load(saved) → instance (when can.snapshot), close()
// An instance's methods may return promises; the harness awaits only those.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tokens } from './corpus.mjs';

/**
 * @typedef {import('./corpus.mjs').Corpus} Corpus
 * @typedef {import('./corpus.mjs').PeerSpec} PeerSpec
 * @typedef {import('./corpus.mjs').BenchRecord} BenchRecord
 * @typedef {import('lantern-search').Lantern} Lantern
 * @typedef {ReturnType<Lantern['index']>} LanternIndex
 * @typedef {Parameters<LanternIndex['coreIndex']['search']>[0]} CoreQuery
 * @typedef {Record<string, any>} FlatDoc A flat document (flatDocument): id, fields as strings, tags, the number.
 * @typedef {Corpus & { documents: FlatDoc[] }} PeerCorpus A corpus and its flat documents, made before any build.
 * @typedef {{ tag: string, min: number, tagAttribute: string, numeric: string }} Filter
 * @typedef {{ ids: string[], count: number, facets?: unknown }} Hits
 * @typedef {'typo' | 'prefix' | 'filter' | 'facets' | 'snapshot'} Feature
 * @typedef {Record<Feature, true | string>} Can
 */
/**
 * @template T
 * @typedef {T | Promise<T>} MaybePromise
 */
/**
 * An index a library built (methods, so that a library's own snapshot type narrows `Saved`).
 * @template {string | Uint8Array} [Saved=string | Uint8Array]
 * @typedef {{
 *   search(query: string): MaybePromise<Hits>,
 *   filtered?(query: string, filter: Filter, facets: boolean): MaybePromise<Hits>,
 *   save(): MaybePromise<Saved>,
 *   load(saved: Saved): MaybePromise<Instance<Saved>>,
 *   close(): unknown,
 * }} Instance
 */
/**
 * Lantern's instance: the engine and the index, and the core alone.
 * @typedef {Instance<Uint8Array> & { engine: Lantern, index: LanternIndex, coreSearch(query: string): unknown, answer(body: Record<string, unknown>): Promise<import('lantern-search').ApiResponse> }} LanternInstance
 */
/**
 * @typedef {object} Library
 * @property {string} name
 * @property {string} version
 * @property {Can} can
 * @property {(corpus: PeerCorpus) => MaybePromise<Instance>} build
 * @property {() => Promise<unknown>} [prepare]
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** An installed package's version (read from its folder: not every package exports package.json). */
/** @type {(pkg: string) => string} */
const versionOf = (pkg) => JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;

export const TOP = 10;

/**
 * Query words, and whether the last one is still being typed (a prefix).
 * @param {string} query
 */
export function queryWords(query) {
  return { words: tokens(query), lastIsPrefix: !/\s$/.test(query) };
}

/**
 * How a peer indexes a corpus under Lantern's `settings`: the corpus's own
 * spec, with the first field boosted 2x where the searchable attributes are
 * ordered (the peers know no attribute order; a boost is their nearest).
 * @param {PeerSpec} peer
 * @param {Record<string, any>} settings
 * @returns {PeerSpec}
 */
export function peerFor(peer, settings) {
  const first = settings.searchableAttributes?.[0];
  const ordered = first !== undefined && !String(first).startsWith('unordered(');
  return ordered ? { ...peer, boost: { [peer.fields[0]]: 2 } } : peer;
}

/**
 * The flat document every peer indexes: id, each searchable field as one
 * string, the tag field as an array and the numeric field (see corpus.peer).
 * @param {BenchRecord} record
 * @param {PeerSpec} peer
 * @returns {FlatDoc}
 */
export function flatDocument(record, peer) {
  /** @type {FlatDoc} */
  const doc = { id: String(record.objectID) };
  for (const f of peer.fields) {
    const v = record[f];
    doc[f] = Array.isArray(v) ? v.join(' ') : v == null ? '' : String(v);
  }
  const tag = record[peer.tag];
  doc[peer.tagField] = Array.isArray(tag) ? tag.map(String) : tag == null ? [] : [String(tag)];
  doc[peer.numeric] = Number(record[peer.numeric]) || 0;
  return doc;
}

/** A filter: { tag, min } (tag value required, numeric ≥ min). @type {(doc: FlatDoc, peer: PeerSpec, filter: Filter) => boolean} */
const passes = (doc, peer, filter) => doc[peer.numeric] >= filter.min && doc[peer.tagField].includes(filter.tag);

/** @type {<T>(ids: T[]) => T[]} */
const top = (ids) => ids.slice(0, TOP);

// ---------------------------------------------------------------- Lantern

/**
 * Lantern through its API (the official client's methods, in process).
 * @param {string} distDir
 * @returns {Library}
 */
export function lanternLibrary(distDir) {
  /** @type {(typeof import('lantern-search') & { version: string }) | undefined} */
  let modules;
  const load = async () => (modules ??= {
    ...(await import(pathToFileURL(join(distDir, 'index.js')).href)),
    version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
  });

  /**
   * Storage that keeps only the latest snapshot, in memory: the snapshot's size and reload, without disk
   * noise. No log (no append), like the peers and Lantern in memory: writes are not encoded for one.
   * @param {import('lantern-search').Entry} [initial]
   * @returns {import('lantern-search').Storage & { state: { snapshot: import('lantern-search').Entry | undefined } }}
   */
  const snapshotStorage = (initial) => {
    const state = { snapshot: initial };
    return {
      state,
      open: async () => {
        const stored = state.snapshot;
        return { snapshots: stored ? [{ taskID: stored.taskID, read: async () => stored.bytes }] : [], log: [], damage: [], needsSnapshot: false };
      },
      // proven as every stored snapshot is (it loads back) before it counts as saved
      writeSnapshot: async ({ taskID, pieces }, prove) => {
        /** @type {Uint8Array[]} */
        const read = [];
        for await (const piece of pieces) read.push(piece);
        const bytes = new Uint8Array(Buffer.concat(read));
        await prove({ taskID, read: async () => bytes });
        state.snapshot = { taskID, bytes };
      },
      close: async () => {},
    };
  };

  /** @type {(engine: Lantern, storage: ReturnType<typeof snapshotStorage>, indexName: string) => LanternInstance} */
  const instance = (engine, storage, indexName) => {
    const client = engine.client();
    let savedTaskID = 0;
    const index = engine.index(indexName);
    /** @type {(r: { hits: { objectID: string }[], nbHits?: number, facets?: unknown }) => Hits} */
    const hitsOf = (r) => ({ ids: r.hits.map((h) => h.objectID), count: r.nbHits ?? NaN, facets: r.facets });
    const base = { hitsPerPage: TOP, attributesToRetrieve: ['objectID'], attributesToHighlight: [], attributesToSnippet: [] };
    return {
      engine,
      index,
      search: (query) => client.searchSingleIndex({ indexName, searchParams: { ...base, query } }).then(hitsOf),
      filtered: (query, filter, facets) => client.searchSingleIndex({
        indexName,
        searchParams: {
          ...base,
          query,
          filters: `${filter.tagAttribute}:${JSON.stringify(filter.tag)} AND ${filter.numeric} >= ${filter.min}`,
          ...(facets ? { facets: [filter.tagAttribute] } : {}),
        },
      }).then(hitsOf),
      /** The API's answer to a query's `body` (its defaults for what the body leaves out). */
      answer: (body) => engine.request({ method: 'POST', path: `/1/indexes/${indexName}/query`, body }),
      /**
       * The core alone, as the engine would call it for `query` (no API layer, no records read): with the
       * index's ranks in the core, as a search puts them (idle time after an import may have put them already).
       */
      coreSearch: (query) => {
        index.prepareRanks();
        return index.coreIndex.search(coreQueryFor(index, query, TOP));
      },
      async save() {
        await engine.snapshot();
        // handed over like a peer's serialised index, not kept by the storage (it would count as the index's memory)
        const stored = storage.state.snapshot;
        if (!stored) throw new Error('the snapshot was not stored');
        const { taskID, bytes } = stored;
        storage.state.snapshot = undefined;
        savedTaskID = taskID;
        return bytes;
      },
      async load(bytes) {
        const { Lantern } = await load();
        const reopened = snapshotStorage({ taskID: savedTaskID, bytes });
        return instance(await Lantern.open({ storage: reopened, snapshotEvery: 0 }), reopened, indexName);
      },
      close: () => engine.close(),
    };
  };

  return {
    name: 'Lantern',
    get version() { return modules?.version ?? '?'; },
    /** Imports the bundle, outside any timing (each peer's module is imported when it is loaded). */
    prepare: load,
    can: { typo: true, prefix: true, filter: true, facets: true, snapshot: true },
    async build(corpus) {
      const { Lantern } = await load();
      const storage = snapshotStorage();
      const engine = await Lantern.open({ storage, snapshotEvery: 0 });
      const client = engine.client();
      await client.setSettings({ indexName: corpus.name, indexSettings: corpus.settings });
      await engine.waitForTasks();
      await client.saveObjects({ indexName: corpus.name, objects: corpus.records, waitForTasks: false, batchSize: 1000 });
      await engine.waitForTasks();
      return instance(engine, storage, corpus.name);
    },
  };
}

/**
 * The core query the engine would build for `query` on `index` (same settings, `length` hits).
 * @param {LanternIndex} index
 * @param {string} query
 * @returns {CoreQuery}
 */
export function coreQueryFor(index, query, length = 20) {
  /** @type {Record<string, any>} the settings as stored (a value may be a string where a boolean is meant) */
  const s = index.settings;
  /** @type {(name: string, fallback: unknown) => any} */
  const get = (name, fallback) => (s[name] === undefined || s[name] === null ? fallback : s[name]);
  const typo = get('typoTolerance', true);
  return {
    query,
    queryType: get('queryType', 'prefixLast'),
    typoMode: typo === false || typo === 'false' ? 'off' : typo === 'min' ? 'min' : typo === 'strict' ? 'strict' : 'on',
    minWordSizefor1Typo: get('minWordSizefor1Typo', 4),
    minWordSizefor2Typos: get('minWordSizefor2Typos', 8),
    allowTyposOnNumericTokens: get('allowTyposOnNumericTokens', true),
    exactOnSingleWordQuery: get('exactOnSingleWordQuery', 'attribute'),
    minProximity: get('minProximity', 1),
    criteria: index.ranking.criteria,
    offset: 0,
    length,
    // distinct as the index's settings ask (groups were set up by prepareRanks)
    distinct: s.attributeForDistinct ? (s.distinct === true ? 1 : Number(s.distinct) || 0) : 0,
  };
}

// ---------------------------------------------------------------- MiniSearch

/** @returns {Promise<Library>} */
async function miniSearch() {
  const { default: MiniSearch } = await import('minisearch');
  /** @type {(peer: PeerSpec) => import('minisearch').Options<FlatDoc>} */
  const make = (peer) => ({ idField: 'id', fields: peer.fields, storeFields: [peer.tagField, peer.numeric] });
  /** @type {(query: string, peer: PeerSpec) => import('minisearch').SearchOptions} */
  const searchOptions = (query, peer) => {
    const { lastIsPrefix } = queryWords(query);
    return {
      combineWith: 'AND',
      prefix: (term, i, terms) => lastIsPrefix && i === terms.length - 1,
      fuzzy: (term) => peer.typos(term) || false,
      ...(peer.boost ? { boost: peer.boost } : {}),
    };
  };
  /** @type {(ms: import('minisearch').default<FlatDoc>, peer: PeerSpec) => Instance<string>} */
  const instance = (ms, peer) => {
    /** @type {(query: string, options: import('minisearch').SearchOptions) => Hits} */
    const run = (query, options) => {
      const results = ms.search(query, options);
      return { ids: top(results.map((r) => r.id)), count: results.length };
    };
    return {
      search: (query) => run(query, searchOptions(query, peer)),
      filtered: (query, filter) => run(query, { ...searchOptions(query, peer), filter: (r) => passes(r, peer, filter) }),
      save: () => JSON.stringify(ms),
      load: (json) => instance(MiniSearch.loadJSON(json, make(peer)), peer),
      close() {},
    };
  };
  return {
    name: 'MiniSearch',
    version: versionOf('minisearch'),
    can: { typo: true, prefix: true, filter: true, facets: 'no facet counts', snapshot: true },
    build(corpus) {
      const ms = new MiniSearch(make(corpus.peer));
      ms.addAll(corpus.documents);
      return instance(ms, corpus.peer);
    },
  };
}

// ---------------------------------------------------------------- FlexSearch

/** @returns {Promise<Library>} */
async function flexSearch() {
  const { Document, Charset } = await import('flexsearch');
  /** @type {(peer: PeerSpec) => import('flexsearch').DocumentOptions} */
  const make = (peer) => ({
    document: {
      id: 'id',
      index: peer.fields.map((field) => ({ field, tokenize: /** @type {const} */ ('forward'), encoder: Charset.LatinBalance })),
      tag: [peer.tagField],
    },
  });
  /** @type {(index: import('flexsearch').Document, peer: PeerSpec, limit: number) => Instance<string>} */
  const instance = (index, peer, limit) => {
    /** @type {(query: string, options: object) => Hits} */
    const run = (query, options) => {
      // every match, to count them (the others count every match too)
      const results = index.search(query, { limit, merge: true, suggest: false, ...options });
      return { ids: top(results.map((r) => String(r.id))), count: results.length };
    };
    return {
      search: (query) => run(query, {}),
      save() {
        /** @type {Record<string, unknown>} */
        const parts = {};
        index.export((key, data) => { parts[key] = data; });
        return JSON.stringify(parts);
      },
      load(json) {
        const copy = new Document(make(peer));
        for (const [key, data] of Object.entries(JSON.parse(json))) copy.import(key, data);
        return instance(copy, peer, limit);
      },
      close() {},
    };
  };
  return {
    name: 'FlexSearch',
    version: versionOf('flexsearch'),
    can: { typo: 'no typo tolerance', prefix: true, filter: 'no numeric ranges', facets: 'no facet counts', snapshot: true },
    build(corpus) {
      const index = new Document(make(corpus.peer));
      for (const doc of corpus.documents) index.add(doc);
      return instance(index, corpus.peer, corpus.documents.length);
    },
  };
}

// ---------------------------------------------------------------- Orama

/** @returns {Promise<Library>} */
async function orama() {
  const { create, insertMultiple, search, save, load } = await import('@orama/orama');
  /** @type {(peer: PeerSpec) => import('@orama/orama').AnySchema} */
  const schemaOf = (peer) => ({
    id: 'string',
    ...Object.fromEntries(peer.fields.map((f) => [f, /** @type {const} */ ('string')])),
    [peer.tagField]: 'enum[]',
    [peer.numeric]: 'number',
  });
  /** @type {(db: import('@orama/orama').AnyOrama, peer: PeerSpec) => Instance<string>} */
  const instance = (db, peer) => {
    /** @type {(query: string, extra: object) => Promise<Hits>} */
    const run = async (query, extra) => {
      const { words } = queryWords(query);
      // one tolerance for the whole query: the smallest any of its words allows
      const tolerance = Math.min(...words.map(peer.typos), 2);
      const r = await search(db, { term: query, properties: peer.fields, tolerance, threshold: 0, limit: TOP, ...extra });
      return { ids: r.hits.map((h) => h.id), count: r.count, facets: r.facets };
    };
    return {
      search: (query) => run(query, {}),
      filtered: (query, filter, facets) => run(query, {
        where: { [peer.numeric]: { gte: filter.min }, [peer.tagField]: { containsAll: [filter.tag] } },
        ...(facets ? { facets: { [peer.tagField]: { limit: 10 } } } : {}),
      }),
      save: () => JSON.stringify(save(db)),
      async load(json) {
        const copy = create({ schema: schemaOf(peer) });
        load(copy, JSON.parse(json));
        return instance(copy, peer);
      },
      close() {},
    };
  };
  return {
    name: 'Orama',
    version: versionOf('@orama/orama'),
    can: { typo: true, prefix: true, filter: true, facets: true, snapshot: true },
    async build(corpus) {
      const db = create({ schema: schemaOf(corpus.peer) });
      await insertMultiple(db, corpus.documents, 1000);
      return instance(db, corpus.peer);
    },
  };
}

// ---------------------------------------------------------------- Lunr

/** @returns {Promise<Library>} */
async function lunrLibrary() {
  const { default: lunr } = await import('lunr');
  /** @type {(idx: import('lunr').Index, peer: PeerSpec) => Instance<string>} */
  const instance = (idx, peer) => ({
    search(query) {
      const { words, lastIsPrefix } = queryWords(query);
      if (words.length === 0) return { ids: [], count: 0 };
      // Lunr cannot combine a wildcard with an edit distance in one term: the
      // last word is a prefix while it is too short for typos, fuzzy after.
      const results = idx.query((q) => words.forEach((w, i) => {
        const typos = peer.typos(w);
        const prefix = lastIsPrefix && i === words.length - 1 && typos === 0;
        q.term(w, {
          presence: lunr.Query.presence.REQUIRED,
          editDistance: prefix ? 0 : typos,
          wildcard: prefix ? lunr.Query.wildcard.TRAILING : lunr.Query.wildcard.NONE,
        });
      }));
      return { ids: top(results.map((r) => r.ref)), count: results.length };
    },
    save: () => JSON.stringify(idx),
    load: (json) => instance(lunr.Index.load(JSON.parse(json)), peer),
    close() {},
  });
  return {
    name: 'Lunr',
    version: versionOf('lunr'),
    can: { typo: true, prefix: true, filter: 'no filters', facets: 'no facet counts', snapshot: true },
    build(corpus) {
      const { fields } = corpus.peer;
      return instance(lunr(function () {
        this.ref('id');
        for (const f of fields) this.field(f);
        for (const doc of corpus.documents) this.add(doc);
      }), corpus.peer);
    },
  };
}

// ---------------------------------------------------------------- Fuse.js

/** @returns {Promise<Library>} */
async function fuseLibrary() {
  const { default: Fuse } = await import('fuse.js');
  // Fuse scores approximate substring matches of the whole query (Bitap); 0.3
  // is about one typo in a short word. It keeps no inverted index: every
  // query scans every document.
  /** @type {(peer: PeerSpec) => import('fuse.js').IFuseOptions<FlatDoc> & { keys: string[] }} */
  const optionsOf = (peer) => ({ keys: peer.fields, threshold: 0.3, ignoreLocation: true });
  /** @type {(fuse: import('fuse.js').default<FlatDoc>, docs: FlatDoc[], peer: PeerSpec) => Instance<string>} */
  const instance = (fuse, docs, peer) => ({
    search(query) {
      const results = fuse.search(query.trim());
      return { ids: top(results.map((r) => r.item.id)), count: results.length };
    },
    // the index only: Fuse needs the documents beside it to load
    save: () => JSON.stringify(fuse.getIndex().toJSON()),
    load: (json) => instance(new Fuse(docs, optionsOf(peer), Fuse.parseIndex(JSON.parse(json))), docs, peer),
    close() {},
  });
  return {
    name: 'Fuse.js',
    version: versionOf('fuse.js'),
    can: { typo: true, prefix: true, filter: 'no filters', facets: 'no facet counts', snapshot: true },
    build(corpus) {
      const options = optionsOf(corpus.peer);
      const index = Fuse.createIndex(options.keys, corpus.documents);
      return instance(new Fuse(corpus.documents, options, index), corpus.documents, corpus.peer);
    },
  };
}

/** @type {Record<string, () => Promise<Library>>} */
const PEERS = { minisearch: miniSearch, flexsearch: flexSearch, orama, lunr: lunrLibrary, fuse: fuseLibrary };
export const LIBRARY_KEYS = ['lantern', ...Object.keys(PEERS)];

/**
 * The libraries named in `keys` (LIBRARY_KEYS order), Lantern from the bundle in `distDir`.
 * @param {string[]} keys
 * @param {string} distDir
 */
export async function loadLibraries(keys, distDir) {
  /** @type {(Library & { key: string })[]} */
  const out = [];
  for (const key of LIBRARY_KEYS.filter((k) => keys.includes(k))) {
    const library = key === 'lantern' ? lanternLibrary(distDir) : await PEERS[key]();
    await library.prepare?.();
    out.push(Object.assign(library, { key }));
  }
  return out;
}
