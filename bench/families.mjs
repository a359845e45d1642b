// Query families the shapes of shapes.mjs do not ask, each timed on the
// records it suits, one build or two A/B in one process: faceted searches
// over few and many matches (InstantSearch sends facets with every
// keystroke), distinct, scored filters, numeric filters right after a write
// (an app filtering by a range while records stream in), and searches around
// a point (the 135k cities' _geoloc), and highlights and snippets of long
// documents (the long records: a fifth of --records, ~1,000 words each).
// Prints per family and build the p50 and p99 (ms) of the answers after the
// first 20, and with two builds the ratio B/A at p50 and whether both
// answered alike (hits with their highlights and snippets, nbHits, facets,
// facets_stats, automaticRadius).
//
// Each build is imported through the batch API, then left 4 s for its idle
// work (packed records, ranks, the declared facets' columns). Each query is
// asked of the builds in turns, which one first alternating.
//
//   node --max-old-space-size=6000 bench/families.mjs [--dist dist] [--b DIST_B] [--records 100000] [--queries 200] [--families facets,distinct,scored,writes,geo,marks]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordSets } from './corpus.mjs';
import { settleHeap, stats } from './measure.mjs';
import { loadLibraries, peerFor } from './peers.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    b: { type: 'string' },
    records: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '200' },
    families: { type: 'string', default: 'facets,distinct,scored,writes,geo,marks' },
  },
});
const QUERIES = Number(values.queries);
const UNTIMED = 20;
const SETS = recordSets(Number(values.records));
const dists = [values.dist, values.b].filter((d) => d !== undefined).map((d) => resolve(/** @type {string} */ (d)));

const WORDS = ['love', 'world', 'water', 'people', 'future', 'brain', 'music', 'design'];
const TAGS = ['culture', 'science', 'technology', 'design', 'business', 'health', 'education', 'art'];
const LETTERS = 'abcdefghilmnoprstw';
const FACETS = ['tags', 'year', 'speaker'];
const PLACES = ['48.85,2.35', '40.71,-74.0', '35.68,139.69', '-33.86,151.2', '51.5,-0.12', '19.43,-99.13', '52.52,13.4', '55.75,37.61'];

/**
 * @typedef {{ name: string, body: (i: number) => Record<string, any>, write?: (i: number) => Record<string, any> }} Family
 *   `write`: a record saved (and its task waited for) before each query, untimed
 * @typedef {{ set: 'synthetic' | 'cities' | 'long', settings?: Record<string, any>, families: Family[] }} Group
 */

/** @type {Record<string, Group>} */
const GROUPS = {
  facets: {
    set: 'synthetic',
    families: [
      { name: 'empty query, 3 facets', body: (i) => ({ query: '', facets: FACETS, page: i % 5 }) },
      { name: 'one letter, 3 facets', body: (i) => ({ query: LETTERS[i % LETTERS.length], facets: FACETS }) },
      { name: 'one word, 3 facets', body: (i) => ({ query: WORDS[i % 8], facets: FACETS }) },
      { name: 'two words, 3 facets', body: (i) => ({ query: `${WORDS[i % 8]} ${WORDS[(i * 3 + 1) % 8]}`, facets: FACETS }) },
      { name: 'empty query, a year, 3 facets', body: (i) => ({ query: '', facets: FACETS, filters: `year=${1984 + (i % 34)}` }) },
    ],
  },
  distinct: {
    set: 'synthetic',
    settings: { attributeForDistinct: 'speaker' },
    families: [
      { name: 'empty query, distinct 1', body: (i) => ({ query: '', distinct: 1, page: i % 3 }) },
      { name: 'empty query, distinct 2', body: (i) => ({ query: '', distinct: 2, page: i % 3 }) },
      { name: 'one letter, distinct 1', body: (i) => ({ query: LETTERS[i % LETTERS.length], distinct: 1 }) },
      { name: 'one word, distinct 1', body: (i) => ({ query: WORDS[i % 8], distinct: 1 }) },
    ],
  },
  scored: {
    set: 'synthetic',
    families: [
      { name: 'one word, an optional filter', body: (i) => ({ query: WORDS[i % 8], optionalFilters: [`tags:${TAGS[i % 8]}`] }) },
      { name: 'one word, 3 optional filters', body: (i) => ({ query: WORDS[i % 8], optionalFilters: [`tags:${TAGS[i % 8]}`, `tags:${TAGS[(i + 1) % 8]}<score=2>`, 'speaker:x'] }) },
      { name: 'one word, scored OR filter', body: (i) => ({ query: WORDS[i % 8], filters: `tags:${TAGS[i % 8]}<score=2> OR tags:${TAGS[(i + 3) % 8]}` }) },
    ],
  },
  writes: {
    set: 'synthetic',
    families: [
      { name: 'year range after a write', body: (i) => ({ query: WORDS[i % 8], filters: 'year>2000' }), write: (i) => ({ objectID: `w${i}`, title: WORDS[i % 8], year: 2000 + (i % 10), views: 5000 + i }) },
      { name: 'views range after a write', body: (i) => ({ query: WORDS[i % 8], filters: 'views>1000' }), write: (i) => ({ objectID: `v${i}`, title: WORDS[i % 8], year: 2000 + (i % 10), views: 5000 + i }) },
    ],
  },
  geo: {
    set: 'cities',
    families: [
      { name: 'around, automatic radius', body: (i) => ({ query: '', aroundLatLng: PLACES[i % 8] }) },
      { name: 'around, a prefix, automatic', body: (i) => ({ query: ['san', 'par', 'lon', 'ber', 'new', 'mos'][i % 6], aroundLatLng: PLACES[i % 8] }) },
      { name: 'around, 50 km', body: (i) => ({ query: '', aroundLatLng: PLACES[i % 8], aroundRadius: 50000 }) },
      { name: 'around, radius "all"', body: (i) => ({ query: 'a', aroundLatLng: PLACES[i % 8], aroundRadius: 'all' }) },
      { name: 'inside a bounding box', body: (i) => ({ query: '', insideBoundingBox: [[40 + (i % 10), -10, 50 + (i % 10), 10]] }) },
    ],
  },
  marks: {
    set: 'long',
    families: [
      { name: 'two words, title and body highlighted', body: (i) => ({ query: `${WORDS[i % 8]} ${WORDS[(i * 3 + 1) % 8]}` }) },
      { name: 'two words, title highlighted, body:20 snippeted', body: (i) => ({ query: `${WORDS[i % 8]} ${WORDS[(i * 3 + 1) % 8]}`, attributesToHighlight: ['title'], attributesToSnippet: ['body:20'] }) },
      { name: 'a prefix, body:10 snippeted only', body: (i) => ({ query: WORDS[i % 8].slice(0, 4), attributesToHighlight: [], attributesToSnippet: ['body:10'] }) },
    ],
  },
};

const wanted = values.families.split(',');
for (const name of wanted) if (!GROUPS[name]) throw new Error(`--families: names among ${Object.keys(GROUPS).join(', ')}, not "${name}"`);

/** What two builds must answer alike (timings and ids of the answer aside). */
const answered = (/** @type {any} */ body) => JSON.stringify([
  body.nbHits, body.hits?.map((/** @type {any} */ h) => [h.objectID, h._highlightResult, h._snippetResult]), body.facets, body.facets_stats, body.automaticRadius,
]);

console.log(`${values.records} records (cities: all 135k), ${QUERIES} queries a family, ${dists.length === 2 ? `A ${dists[0]}, B ${dists[1]}` : dists[0]}`);
console.log(`| family | ${dists.length === 2 ? 'A p50 / p99 | B p50 / p99 | B/A p50 | alike' : 'p50 / p99'} |`);
console.log(dists.length === 2 ? '|---|---|---|---|---|' : '|---|---|');
for (const groupName of wanted) {
  const group = GROUPS[groupName];
  const corpus = SETS[group.set]();
  const settings = { ...corpus.settings, ...group.settings };
  const builds = [];
  for (const dist of dists) {
    const [lantern] = await loadLibraries(['lantern'], dist);
    builds.push(/** @type {import('./peers.mjs').LanternInstance} */ (await lantern.build({ ...corpus, settings, peer: peerFor(corpus.peer, settings), documents: [] })));
  }
  settleHeap();
  await new Promise((r) => setTimeout(r, 4000));
  for (const family of group.families) {
    const times = builds.map(() => /** @type {number[]} */ ([]));
    let alike = true;
    for (let i = 0; i < UNTIMED + QUERIES; i++) {
      const answers = [];
      for (let turn = 0; turn < builds.length; turn++) {
        const b = (i + turn) % builds.length;
        const { engine } = builds[b];
        const path = `/1/indexes/${corpus.name}`;
        if (family.write) {
          await engine.request({ method: 'POST', path: `${path}/batch`, body: { requests: [{ action: 'addObject', body: family.write(i) }] } });
          await engine.waitForTasks();
        }
        const started = performance.now();
        const response = await engine.request({ method: 'POST', path: `${path}/query`, body: { hitsPerPage: 10, ...family.body(i) } });
        if (i >= UNTIMED) times[b].push(performance.now() - started);
        if (response.status !== 200) throw new Error(`${family.name}: ${response.status} ${JSON.stringify(response.body)}`);
        answers[b] = answered(response.body);
      }
      if (answers.length === 2 && answers[0] !== answers[1]) alike = false;
    }
    const figures = times.map((t) => stats(t));
    const cells = figures.map((f) => `${f.p50.toFixed(2)} / ${f.p99.toFixed(2)} ms`);
    if (figures.length === 2) cells.push(`${(figures[1].p50 / figures[0].p50).toFixed(3)}`, alike ? 'yes' : 'no');
    console.log(`| ${family.name} | ${cells.join(' | ')} |`);
  }
  for (const build of builds) await build.close();
}
