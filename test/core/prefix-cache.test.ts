// Short prefixes over many records: the core reads large trie subtrees
// through a cache of their records and best attribute keys. Pages must be
// those of a direct computation, before and after writes replace the cache.
import { beforeAll, describe, expect, it } from 'vitest';
import { build, compactAll, ready, search, segmentsOf, type Doc } from './helpers.js';
import { CoreIndex } from '../../src/core/core-index.js';
import { WARM_STEP } from '../../src/core/abi.js';
import { prng } from '../support/random.js';

beforeAll(ready);


const RECORDS = 3990;
const VOCABULARY = ['the', 'this', 'that', 'time', 'tree', 'trust', 'to', 'alpha', 'bravo', 'delta', 'echo', 'golf', 'hotel'];

describe('short prefixes over many records', () => {
  const rnd = prng(9);
  const pick = () => VOCABULARY[Math.floor(rnd() * VOCABULARY.length)];
  const texts = new Map<number, string>();
  for (let id = 0; id < RECORDS; id++) texts.set(id, Array.from({ length: 2 + Math.floor(rnd() * 8) }, pick).join(' '));
  const ranks = Int32Array.from({ length: 5000 }, () => Math.floor(rnd() * 100000));

  /** Records with a word starting with `prefix`, by position of the first such word, then custom rank, then id. */
  function expected(prefix: string) {
    const hits: Array<{ id: number; position: number }> = [];
    for (const [id, text] of texts) {
      const position = text.split(' ').findIndex((w) => w.startsWith(prefix));
      if (position >= 0) hits.push({ id, position });
    }
    hits.sort((a, b) => a.position - b.position || ranks[a.id] - ranks[b.id] || a.id - b.id);
    return { nbHits: hits.length, ids: hits.map((h) => h.id) };
  }

  function page(core: ReturnType<typeof build>, prefix: string, offset: number, length: number) {
    const result = search(core, prefix, { offset, length });
    return { nbHits: result.nbHits, ids: result.hits.map((h) => h.id) };
  }

  it('pages of 1-2 letter prefixes, repeated, then after records are added and removed', () => {
    const core = build([...texts.values()]);
    core.setRanks(0, ranks);
    const check = () => {
      for (const prefix of ['t', 'th', 'tr', 't', 'th']) {
        const want = expected(prefix);
        expect(want.nbHits).toBeGreaterThan(1000);
        for (const [offset, length] of [[0, 10], [30, 20]]) {
          expect(page(core, prefix, offset, length), `${prefix} @${offset}`).toEqual({ nbHits: want.nbHits, ids: want.ids.slice(offset, offset + length) });
        }
      }
    };
    check();
    // the best records so far disappear, then new ones with a t-word first rank best
    // (new ids below the next multiple of 32: the cached bitmaps keep their size)
    for (const id of expected('t').ids.slice(0, 20)) { core.removeDocument(id); texts.delete(id); }
    check();
    const added = Array.from({ length: 10 }, (_, i) => ({ id: RECORDS + i, text: `trust ${i}` }));
    core.addDocuments(added.map((d) => ({ id: d.id, segments: [{ attribute: 0, text: d.text }] })));
    for (const [i, d] of added.entries()) { texts.set(d.id, d.text); ranks[d.id] = i; }
    core.setRanks(0, ranks);
    check();
    expect(page(core, 't', 0, 10).ids).toEqual(added.map((d) => d.id));
    compactAll(core, 16);
    check();
  });
});

// An entry is built on a subtree's second ask: the first decodes its terms
// (a query seen once never pays for an entry), and both rank alike. A
// subtree of a byte of postings a record or more (a short prefix, which the
// next keystrokes meet again) is cached at its first ask.
describe('entries built on the second ask', () => {
  const rnd = prng(5);
  const COMMON = ['bravo', 'bingo', 'beta', 'delta', 'echo', 'golf', 'hotel', 'india'];
  const RARE = ['quest', 'quiet', 'quick'];
  const pick = (from: string[]) => from[Math.floor(rnd() * from.length)];
  // a qu-word in one record in four: about half a byte of postings a record
  const docs = Array.from({ length: 20000 }, (_, id) => [pick(COMMON), pick(COMMON), id % 4 === 0 ? pick(RARE) : pick(COMMON)].join(' '));

  function pages(prefix: string) {
    const core = build(docs);
    const page = () => {
      const result = search(core, prefix, { length: 20 });
      return { nbHits: result.nbHits, ids: result.hits.map((h) => h.id) };
    };
    const first = page();
    const entriesAfterFirst = core.prefixCacheEntries;
    const second = page();
    return { first, second, entriesAfterFirst, entriesAfterSecond: core.prefixCacheEntries };
  }

  it('builds no entry for a subtree asked once, one on its second ask, and pages alike either way', () => {
    const { first, second, entriesAfterFirst, entriesAfterSecond } = pages('qu');
    expect(first.nbHits).toBe(5000);
    expect(entriesAfterFirst).toBe(0);
    expect(entriesAfterSecond).toBe(1);
    expect(second).toEqual(first);
  });

  it('caches a subtree of a byte of postings a record or more at its first ask', () => {
    const { first, second, entriesAfterFirst } = pages('b');
    expect(first.nbHits).toBeGreaterThan(5000);
    expect(entriesAfterFirst).toBe(1);
    expect(second).toEqual(first);
  });
});

// Over 4096 candidates ranked first by attribute, the core lists only those
// with the best attribute keys, and only the records matched in the first
// attribute when a page of them is there.
describe('broad prefixes ranked by attribute', () => {
  const RECORDS = 9000;
  const WORDS = ['table', 'theory', 'thunder', 'tiger', 'tower', 'alpha', 'bravo', 'delta', 'echo', 'golf', 'hotel', 'india'];
  const rnd = prng(21);
  const pick = (from: string[]) => from[Math.floor(rnd() * from.length)];
  const records = Array.from({ length: RECORDS }, (_, id) => {
    // a t-word in the title for a few records only: the first attribute may or may not fill a page
    const title = Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => pick(id % 97 === 0 ? WORDS : WORDS.slice(5)));
    const body = Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => pick(WORDS));
    return [title.join(' '), body.join(' ')];
  });
  const ranks = Int32Array.from({ length: RECORDS }, () => Math.floor(rnd() * 100000));

  /** Records with a word starting with `prefix`: by attribute, position in it, custom rank, id. */
  function expected(prefix: string) {
    const hits: Array<{ id: number; attribute: number; position: number }> = [];
    records.forEach((texts, id) => {
      for (const [attribute, text] of texts.entries()) {
        const position = text.split(' ').findIndex((w) => w.startsWith(prefix));
        if (position >= 0) { hits.push({ id, attribute, position }); return; }
      }
    });
    hits.sort((a, b) => a.attribute - b.attribute || a.position - b.position || ranks[a.id] - ranks[b.id] || a.id - b.id);
    return { nbHits: hits.length, ids: hits.map((h) => h.id) };
  }

  it('pages equal a direct ranking, whether the first attribute fills them or not', () => {
    const core = build(records);
    core.setRanks(0, ranks);
    for (const prefix of ['t', 'th', 't', 'th']) {
      const want = expected(prefix);
      expect(want.nbHits).toBeGreaterThan(4096);
      for (const [offset, length] of [[0, 10], [0, 80], [60, 40]]) {
        const result = search(core, prefix, { offset, length });
        expect({ nbHits: result.nbHits, ids: result.hits.map((h) => h.id) }, `${prefix} @${offset}+${length}`)
          .toEqual({ nbHits: want.nbHits, ids: want.ids.slice(offset, offset + length) });
      }
    }
  });
});

// The cache keeps its entries across writes: each added posting goes into the
// entries that hold its term. Whatever the writes (new words that renumber the
// trie's preorder copy, removals, replacements under new ids, a word at an
// attribute key too large for an entry), every answer must be the one a core
// built afresh from the live records gives.
describe('cached entries kept across writes', () => {
  const STEMS = ['t', 'th', 'tr', 'ta', 's', 'st', 'sh'];
  const ENDINGS = ['e', 'ee', 'en', 'ing', 'ust', 'ack', 'ow', 'ip', 'one'];
  const OTHER = ['alpha', 'bravo', 'delta', 'echo', 'golf'];
  /** Attribute 0 ranks first; attribute 1 ranks 66th, past the 16-bit keys an entry holds. */
  const ATTRIBUTES = [{ rank: 0 }, { rank: 66 }];

  function run(seed: number) {
    const rnd = prng(seed);
    const pick = <T>(from: T[]) => from[Math.floor(rnd() * from.length)];
    let coined = 0;
    /** A word of the shared vocabulary, now and then one never seen (a new trie node). */
    const word = () => (rnd() < 0.05 ? `${pick(STEMS)}x${coined++}` : rnd() < 0.8 ? pick(STEMS) + pick(ENDINGS) : pick(OTHER));
    const text = () => Array.from({ length: 2 + Math.floor(rnd() * 6) }, word).join(' ');
    const live = new Map<number, Doc>();
    let nextId = 0;
    const add = (far = false): { id: number; segments: ReturnType<typeof segmentsOf> } => {
      const doc: Doc = far ? ['alpha', text()] : [text()];
      const id = nextId++;
      live.set(id, doc);
      return { id, segments: segmentsOf(doc) };
    };
    const kept = build([], { attributes: ATTRIBUTES });
    kept.addDocuments(Array.from({ length: 3000 }, () => add()));
    const ranks = () => Int32Array.from({ length: nextId }, (_, id) => (id * 7919) % 1009);
    const queries = ['t', 'th', 'tr', 's', 'st', 'sh', 'ta', 'thee', 'trust', 'stack', 'shone'];

    const compare = (label: string) => {
      const fresh = build([], { attributes: ATTRIBUTES });
      fresh.addDocuments([...live].map(([id, doc]) => ({ id, segments: segmentsOf(doc) })));
      kept.setRanks(0, ranks());
      fresh.setRanks(0, ranks());
      for (const q of queries) {
        const page = (core: typeof kept) => {
          const r = search(core, q, { length: 30 });
          return { nbHits: r.nbHits, ids: r.hits.map((h) => h.id) };
        };
        expect(page(kept), `${label}: ${q}`).toEqual(page(fresh));
      }
    };

    compare('built');
    for (let round = 0; round < 12; round++) {
      // replacements (removed, then added under a new id), removals and additions, between searches
      const ids = [...live.keys()];
      const batch = [];
      for (let i = 0; i < 60; i++) {
        const id = pick(ids);
        if (!live.has(id)) continue;
        kept.removeDocument(id);
        live.delete(id);
        if (rnd() < 0.7) batch.push(add(round % 4 === 3 && i < 3));
      }
      for (let i = 0; i < 20; i++) batch.push(add());
      kept.addDocuments(batch);
      compare(`round ${round}`);
    }
    compactAll(kept, 64);
    compare('compacted');
  }

  it('answers like a core built afresh, round after round (3 seeds)', () => {
    for (const seed of [1, 2, 3]) run(seed);
  });
});

// A phrase alternative (a multi-word synonym, a split word) over frequent
// terms reads them through their cached entries, over rare ones from their
// postings (each decoded once for the records and their keys): hits, keys and
// order must be those of a direct computation, on first use and once the
// entries exist.
describe('phrase alternatives over frequent and rare terms', () => {
  const RECORDS = 8000;
  const rnd = prng(33);
  const words = ['ice', 'cream', 'the', 'alpha', 'bravo', 'delta', 'echo'];
  const texts = Array.from({ length: RECORDS }, (_, id) => {
    const text = Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => words[Math.floor(rnd() * words.length)]);
    if (id % 50 === 0) text.splice(Math.floor(rnd() * text.length), 0, 'gelato');
    return text.join(' ');
  });
  const ranks = Int32Array.from({ length: RECORDS }, () => Math.floor(rnd() * 100000));
  // the same records, where "ice" and "cream" are rare: too few postings for a cached entry
  const rareTexts = texts.map((text) => text.replace(/\bice\b/g, rnd() < 0.1 ? 'ice' : 'india').replace(/\bcream\b/g, rnd() < 0.3 ? 'cream' : 'crane'));

  /** Records of `corpus` holding `word`, or both `ice` and `cream`: by the first of those words' position, custom rank, id. */
  function expected(corpus: string[], word: string): number[] {
    const hits: Array<{ id: number; position: number }> = [];
    corpus.forEach((text, id) => {
      const tokens = text.split(' ');
      const viaPhrase = tokens.includes('ice') && tokens.includes('cream');
      if (!viaPhrase && !tokens.includes(word)) return;
      // every matched term keys the record: the phrase's words count wherever it holds them
      const position = tokens.findIndex((t) => t === word || t === 'ice' || t === 'cream');
      hits.push({ id, position });
    });
    hits.sort((a, b) => a.position - b.position || ranks[a.id] - ranks[b.id] || a.id - b.id);
    return hits.map((h) => h.id);
  }

  function expectDirect(corpus: string[], least: number): void {
    const core = build(corpus);
    core.setRanks(0, ranks);
    for (const [word, exact] of [['gelato', true], ['icecream', false], ['gelato', true], ['icecream', false]] as const) {
      const want = expected(corpus, word);
      expect(want.length).toBeGreaterThan(least);
      const result = search(core, word, { alternatives: [{ word: 0, text: 'ice cream', exact }], length: 50, typoMode: 'off' });
      expect({ nbHits: result.nbHits, ids: result.hits.map((h) => h.id) }, word).toEqual({ nbHits: want.length, ids: want.slice(0, 50) });
    }
  }

  it('equals a direct computation, before and after the terms are cached', () => {
    expectDirect(texts, 1000);
  });

  it('equals a direct computation over rare terms, read from their postings', () => {
    const phrased = rareTexts.filter((text) => /\bice\b/.test(text) && /\bcream\b/.test(text)).length;
    expect(phrased).toBeGreaterThan(20);
    // the phrase's records outrank gelato's where they hold its words first: their keys count
    expectDirect(rareTexts, 50);
  });
});

// A WebAssembly memory's growth counts as memory outside V8's heap, and every
// 64 MB of it starts a full marking of the JS heap: the caches' room is taken
// in one growth when a search first lays them out, not entry by entry as
// first-sight queries fill them.
describe('the caches fill memory reserved at the first search', () => {
  const rnd = prng(33);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = () => Array.from({ length: 4 + Math.floor(rnd() * 5) }, () => letters[Math.floor(rnd() * 26)]).join('');
  const vocabulary = Array.from({ length: 3000 }, word);
  const records = (count: number) => Array.from({ length: count }, () => Array.from({ length: 6 }, () => vocabulary[Math.floor(rnd() * vocabulary.length)]).join(' '));

  it('fills 26 subtree entries and the word memo without growing the memory', () => {
    const core = build(records(70000));
    search(core, 'zz', { offset: 0, length: 10 });
    const laidOut = core.memoryBytes;
    let hits = 0;
    for (const letter of letters) {
      // a typo'd word from the vocabulary (the memo), then one letter, a subtree worth caching
      const typo = vocabulary[letters.indexOf(letter) * 7].replace(/^(..)./, `$1${letter}`);
      hits += search(core, `${typo} ${letter}`, { offset: 0, length: 10 }).nbHits;
      const broad = search(core, letter, { offset: 0, length: 10 });
      expect(broad.nbHits, letter).toBeGreaterThan(4000);
      hits += broad.nbHits;
    }
    expect(hits).toBeGreaterThan(26 * 2000);
    expect(core.memoryBytes).toBe(laidOut);
  });

  it('reserves once: a layout outgrown by writes cuts its caches from the room the old ones leave', () => {
    const core = build(records(70000));
    const fill = () => { for (const letter of letters) expect(search(core, letter, { offset: 0, length: 10 }).nbHits).toBeGreaterThan(4000); };
    // asked twice: entries are built on a subtree's second ask
    fill();
    fill();
    expect(core.prefixCacheEntries).toBe(letters.length);
    const filled = core.memoryBytes;
    // 12,000 records more outgrow the layout's room (an eighth): the next search lays the caches out anew
    core.addDocuments(records(12000).map((text, i) => ({ id: 70000 + i, segments: segmentsOf(text) })));
    fill();
    // a second reservation would be the full caches at the new layout: 48 entries of 72 bytes per 32 records, ~10 MB
    const fullCaches = 48 * 72 * Math.ceil(82000 / 32);
    expect(core.memoryBytes - filled).toBeLessThan(fullCaches / 2);
  });

  it('reserves nothing for a small index', () => {
    const core = build(records(300));
    const before = core.memoryBytes;
    search(core, 'zz', { offset: 0, length: 10 });
    // the caches' room would be a megabyte at least (a layout has room for 8,192 records more)
    expect(core.memoryBytes - before).toBeLessThan(512 * 1024);
  });
});

// While idle, the engine builds the entries of one-letter prefixes ahead of
// their first ask (warmPrefixes, a step each): the letters worth caching,
// the costliest to decode first, up to half the cache. A warmed letter
// pages as a cold core's does, and its entry takes later writes.
describe('one-letter prefixes warmed ahead of their first ask', () => {
  const rnd = prng(13);
  // words under 30 first characters, the earlier ones in more records; many distinct words under each
  const FIRSTS = 'abcdefghijklmnopqrstuvwxyz0123';
  const word = () => {
    const first = FIRSTS[Math.floor(FIRSTS.length * rnd() * rnd())];
    return `${first}${Math.floor(rnd() * 400).toString(36)}x`;
  };
  const docs = Array.from({ length: 8000 }, () => Array.from({ length: 3 + Math.floor(rnd() * 4) }, word).join(' '));

  function page(core: ReturnType<typeof build>, prefix: string) {
    const result = search(core, prefix, { length: 20 });
    return { nbHits: result.nbHits, ids: result.hits.map((h) => h.id) };
  }

  function warmed(): { core: ReturnType<typeof build>; steps: number } {
    const core = build(docs);
    let steps = 0;
    while (core.warmPrefixes() === WARM_STEP.more) steps++;
    return { core, steps };
  }

  /** Records with a word starting with `prefix`, by the position of the first such word, then id (a direct computation: no cache). */
  function expected(prefix: string) {
    const hits: Array<{ id: number; position: number }> = [];
    docs.forEach((text, id) => {
      const position = text.split(' ').findIndex((w) => w.startsWith(prefix));
      if (position >= 0) hits.push({ id, position });
    });
    hits.sort((a, b) => a.position - b.position || a.id - b.id);
    return { nbHits: hits.length, ids: hits.slice(0, 20).map((h) => h.id) };
  }

  it('builds an entry a step, up to half the cache, and pages as a cold core and a direct ranking', () => {
    const { core, steps } = warmed();
    const cold = build(docs);
    expect(steps).toBe(24);
    expect(core.prefixCacheEntries).toBe(24);
    expect(core.warmPrefixes()).toBe(WARM_STEP.done);
    for (const letter of FIRSTS) {
      const entries = core.prefixCacheEntries;
      expect(page(core, letter), letter).toEqual(page(cold, letter));
      expect(page(core, letter), letter).toEqual(expected(letter));
      // the costliest letters were warmed: their first ask builds nothing
      if (FIRSTS.indexOf(letter) < 10) expect(core.prefixCacheEntries, letter).toBe(entries);
    }
  });

  it('the costliest letter first', () => {
    const core = build(docs);
    expect(core.warmPrefixes()).toBe(WARM_STEP.more);
    expect(core.prefixCacheEntries).toBe(1);
    page(core, 'a');
    page(core, 'a');
    expect(core.prefixCacheEntries).toBe(1);
    page(core, 'b');
    page(core, 'b');
    expect(core.prefixCacheEntries).toBe(2);
  });

  it('a warmed entry takes the records written after', () => {
    const { core } = warmed();
    const cold = build(docs);
    const added = Array.from({ length: 30 }, (_, i) => ({ id: docs.length + i, segments: segmentsOf(`a${i}new b${i}new`) }));
    for (const target of [core, cold]) {
      target.addDocuments(added);
      for (const id of [3, 17, 400]) target.removeDocument(id);
    }
    for (const letter of 'abcz') expect(page(core, letter), letter).toEqual(page(cold, letter));
    expect(page(core, 'a').nbHits).toBe(page(cold, 'a').nbHits);
  });

  it('leaves an index too small to cache alone', () => {
    const core = build(docs.slice(0, 50));
    expect(core.warmPrefixes()).toBe(WARM_STEP.done);
    expect(core.prefixCacheEntries).toBe(0);
  });
});

// A step holds the thread (a search arriving waits for it): a letter whose
// lists cost more than a step's budget (~5 ms of decoding, 2 MB of
// postings) is left to its first ask, which builds its entry at once.
describe('a letter too large for a warming step', () => {
  const rnd = prng(17);
  const docs = Array.from({ length: 60000 }, () => [
    ...Array.from({ length: 16 }, () => `a${Math.floor(rnd() * 3000).toString(36)}`),
    `b${Math.floor(rnd() * 3000).toString(36)}`,
  ].join(' '));

  it('is not warmed; the smaller one is, and the large one is cached at its first ask', () => {
    const core = build(docs);
    expect(core.postingBytes()).toBeGreaterThan(2 << 20);
    while (core.warmPrefixes() === WARM_STEP.more);
    expect(core.prefixCacheEntries).toBe(1);
    search(core, 'b');
    expect(core.prefixCacheEntries).toBe(1);
    search(core, 'a');
    expect(core.prefixCacheEntries).toBe(2);
  });
});

/** `count` records of one a-word each, added 10,000 at a time (build's spread of every record overflows the stack here). */
function words(count: number): CoreIndex {
  const core = new CoreIndex();
  core.setAttributes([{ rank: 0, unordered: false }]);
  for (let from = 0; from < count; from += 10000) {
    core.addDocuments(Array.from({ length: Math.min(10000, count - from) }, (_, i) => ({ id: from + i, segments: segmentsOf(`a${((from + i) % 5000).toString(36)}`) })));
  }
  return core;
}

// A step fills the entry it builds whole, ~2.5 bytes a record: past ~200k
// records (a 512 KB entry) no letter is warmed, whatever its postings.
describe('an index too large for warming steps', () => {
  it('warms no letter, where a smaller one warms it', () => {
    const large = words(240000);
    expect(large.warmPrefixes()).toBe(WARM_STEP.done);
    expect(large.prefixCacheEntries).toBe(0);
    const smaller = words(150000);
    // 65,536 records or more: the caches reserve their room when first laid out, which a search does
    expect(smaller.warmPrefixes()).toBe(WARM_STEP.unlaid);
    expect(smaller.prefixCacheEntries).toBe(0);
    search(smaller, 'b');
    expect(smaller.warmPrefixes()).toBe(WARM_STEP.more);
    expect(smaller.prefixCacheEntries).toBe(1);
  });
});

// A warming step makes the walk's copy of the trie (assembly/trie-order.ts)
// where it warms nothing too, so that the first search after an import
// does not (~100 ms for the 135k cities' trie); there, once until a search
// reads it: an index written in bursts and seldom searched would otherwise
// copy its whole trie again after each burst.
describe("the walk's copy of the trie made ahead of a search", () => {
  const ids = (core: CoreIndex, query: string) => search(core, query).hits.map((h) => h.id);

  it('is made by a step of an index too large to warm, again only once a search read it', () => {
    const core = words(240000);
    expect(core.walkCopyCurrent).toBe(false);
    expect(core.warmPrefixes()).toBe(WARM_STEP.done);
    expect(core.walkCopyCurrent).toBe(true);
    core.addDocuments([{ id: 240000, segments: segmentsOf('bnew') }]);
    expect(core.warmPrefixes()).toBe(WARM_STEP.done);
    expect(core.walkCopyCurrent).toBe(false);
    expect(ids(core, 'bnew')).toEqual([240000]);
    core.addDocuments([{ id: 240001, segments: segmentsOf('bother') }]);
    expect(core.warmPrefixes()).toBe(WARM_STEP.done);
    expect(core.walkCopyCurrent).toBe(true);
    expect(ids(core, 'bothr')).toEqual([240001]);
  });

  it('is made by a step of an index whose caches a search lays out', () => {
    const core = words(70000);
    expect(core.warmPrefixes()).toBe(WARM_STEP.unlaid);
    expect(core.walkCopyCurrent).toBe(true);
    expect(ids(core, 'a1')).toEqual(search(words(70000), 'a1').hits.map((h) => h.id));
  });
});

// Measuring the letters reads every node of the trie: a step reads 65,536
// nodes at most (a letter at least), and builds nothing until all are read.
describe('letters measured over several steps', () => {
  it('steps that build nothing, then the entries, paging as a cold core', () => {
    const rnd = prng(23);
    const word = () => `${'abcdefghij'[Math.floor(rnd() * 10)]}${Math.floor(rnd() * 36 ** 5).toString(36)}`;
    const docs = Array.from({ length: 30000 }, () => `${word()} ${word()} ${word()}`);
    const core = build(docs);
    const cold = build(docs);
    let measuring = 0;
    while (core.warmPrefixes() === WARM_STEP.more && core.prefixCacheEntries === 0) measuring++;
    expect(measuring).toBeGreaterThan(1);
    while (core.warmPrefixes() === WARM_STEP.more);
    expect(core.prefixCacheEntries).toBe(10);
    for (const letter of 'abcdefghij') expect(search(core, letter, { length: 20 }).hits.map((h) => h.id), letter).toEqual(search(cold, letter, { length: 20 }).hits.map((h) => h.id));
  });
});
