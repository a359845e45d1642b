// The best attribute key of a record is worked out once its query's
// candidates are listed, for the listed ones only: from a log of the light
// terms' postings, from the cached entries of heavy ones, or as 0 for the
// records matched in the lead place. Every way a query can list its
// candidates (the lead place, a key cut, all of them; few or most of the
// records) must give the page a direct computation gives.
import { beforeAll, describe, expect, it } from 'vitest';
import { CRITERION, build, ready, search } from './helpers.js';
import { prng } from '../support/random.js';

beforeAll(ready);

const RECORDS = 12000;
const FILLER = ['alpha', 'bravo', 'delta', 'echo', 'golf', 'india', 'kilo', 'lima', 'oscar', 'papa', 'romeo', 'sierra', 'tango', 'victor', 'yankee', 'zulu'];
/** Words one typo from the query word: each in a few hundred records (too few for the cache), together in thousands. */
const HOUSES = [...'abcdfghijklmnopqrtuvwxyz'].map((c) => `hous${c}`);
const PLANTS = [...'abcdefghijklmnopqrsuvwxyz'].map((c) => `plan${c}`);

describe('best attribute keys, whichever way the candidates are listed', () => {
  const rnd = prng(17);
  const pickFrom = (words: string[]) => words[Math.floor(rnd() * words.length)];
  const word = () => {
    const r = rnd();
    if (r < 0.05) return pickFrom(HOUSES);
    if (r < 0.07) return pickFrom(PLANTS);
    return pickFrom(FILLER);
  };
  /** Titles rarely start with a house word, a little less rarely with a plant; "echo" starts one in sixteen. */
  const docs = Array.from({ length: RECORDS }, () => {
    const title = Array.from({ length: 4 }, (_, i) => (i === 0 ? pickFrom(FILLER) : word()));
    const lead = rnd();
    if (lead < 0.002) title[0] = pickFrom(HOUSES);
    else if (lead < 0.012) title[0] = pickFrom(PLANTS);
    const body = Array.from({ length: 8 }, word);
    return [title.join(' '), body.join(' ')];
  });
  const ranks = Int32Array.from({ length: RECORDS }, () => Math.floor(rnd() * 1000000));
  let core: ReturnType<typeof build>;
  beforeAll(() => {
    core = build(docs);
    core.setRanks(0, ranks);
  });

  type Tokens = (token: string) => boolean;

  /** Records `kept` with a token `matches` accepts, by the (attribute, position) of the first, then custom rank, then id. */
  function expected(matches: Tokens, kept: (tokens: string[]) => boolean) {
    const hits: Array<{ id: number; key: number }> = [];
    docs.forEach(([title, body], id) => {
      if (!kept(`${title} ${body}`.split(' '))) return;
      const inTitle = title.split(' ').findIndex(matches);
      const inBody = body.split(' ').findIndex(matches);
      const key = inTitle >= 0 ? inTitle : inBody >= 0 ? 1024 + inBody : -1;
      if (key >= 0) hits.push({ id, key });
    });
    hits.sort((a, b) => a.key - b.key || ranks[a.id] - ranks[b.id] || a.id - b.id);
    return hits;
  }

  function page(text: string, length: number, typos: boolean) {
    const result = search(core, text, {
      queryType: 'prefixNone', typoMode: typos ? 'on' : 'off', criteria: [CRITERION.attribute, CRITERION.custom], offset: 0, length,
    });
    return { nbHits: result.nbHits, ids: result.hits.map((h) => h.id), keys: result.hits.map((h) => h.attributeRank * 1024 + h.attributePosition) };
  }

  function check(text: string, matches: Tokens, length: number, kept = (tokens: string[]) => tokens.some(matches), typos = true) {
    const want = expected(matches, kept);
    const got = page(text, length, typos);
    expect(got.nbHits).toBe(want.length);
    expect(got.keys).toEqual(want.slice(0, length).map((h) => h.key));
    expect(got.ids).toEqual(want.slice(0, length).map((h) => h.id));
    return want;
  }

  const house = (t: string) => t.length === 5 && t.startsWith('hous');
  const plant = (t: string) => t.length === 5 && t.startsWith('plan');

  it('a key cut over thousands of candidates, few of them in the lead place, from light terms', () => {
    const want = check('house', house, 50);
    expect(want.length).toBeGreaterThan(4096);
    expect(want.filter((h) => h.key === 0).length).toBeGreaterThan(0);
    expect(want.filter((h) => h.key === 0).length).toBeLessThan(50);
  });

  it('the lead place alone fills the page of a heavy (cached) word', () => {
    const want = check('echo', (t) => t === 'echo', 50);
    expect(want.filter((h) => h.key === 0).length).toBeGreaterThanOrEqual(50);
    check('echo', (t) => t === 'echo', 2000);
  });

  it('every candidate listed: most of the records, then a few of them', () => {
    // under 4096 candidates: no cut; over an eighth of the records: keys folded over all of them
    const plants = check('plant', plant, 3000);
    expect(plants.length).toBeLessThan(4096);
    expect(plants.length).toBeGreaterThan(RECORDS / 8);
    expect(plants.filter((h) => h.key === 0).length).toBeGreaterThan(0);
    const few = check('planz', (t) => t === 'planz', 100, undefined, false);
    expect(few.length).toBeLessThan(RECORDS / 8);
  });

  it('two words: the best key over both, for the records holding both', () => {
    const want = check('plant echo', (t) => plant(t) || t === 'echo', 100, (tokens) => tokens.some(plant) && tokens.includes('echo'));
    expect(want.length).toBeGreaterThan(100);
    expect(want.filter((h) => h.key === 0).length).toBeGreaterThan(0);
  });

  it('a second query does not inherit the first one\'s keys', () => {
    check('house', house, 50);
    check('plant', plant, 200);
    check('house', house, 300);
  });
});

describe('postings of every size', () => {
  // a posting is a record gap of one to three bytes and a key of one or two
  // (position << 3 | rank, ranks from 7 on followed by a second byte); each
  // size is decoded its own way and must give the same record and key
  const GAPS = [1, 5, 127, 128, 300, 16383, 16384, 20000];
  const POSITIONS = [0, 2, 15, 16, 200];
  const ATTRIBUTES = 10;
  const needles: Array<{ id: number; attribute: number; position: number }> = [];
  for (let id = 0, i = 0; id < 60000; id += GAPS[i % GAPS.length], i++) {
    needles.push({ id, attribute: (i * 3) % ATTRIBUTES, position: POSITIONS[i % POSITIONS.length] });
  }
  const docs: Array<string | string[]> = Array.from({ length: 60000 }, () => 'hay');
  for (const { id, attribute, position } of needles) {
    const doc = Array.from({ length: ATTRIBUTES }, () => 'hay');
    doc[attribute] = [...Array.from({ length: position }, () => 'hay'), 'needle'].join(' ');
    docs[id] = doc;
  }

  it('gives each record its attribute and position', () => {
    const core = build(docs);
    for (const text of ['needle', 'needl']) {
      const r = search(core, text, { length: 2000 });
      const got = r.hits.map((h) => ({ id: h.id, attribute: h.attributeRank, position: h.attributePosition })).sort((a, b) => a.id - b.id);
      expect(got, text).toEqual(needles);
    }
  });
});
