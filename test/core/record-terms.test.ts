// A long record's proximity scan reads its term index (assembly/
// record-terms.ts): the marked terms' tokens looked up, not every token
// read. It must note the same matches the full read would. Each record is
// indexed twice: as itself, and with a long attribute of words no query
// reaches between its title and its body (tags and the body then sit
// after a segment of hundreds of tokens). Only the second has an index,
// and every hit must rank alike in both, with the same proximity and the
// same best attribute and position: a token placed at the wrong ordinal,
// attribute or position, or one missed, shows there. Queries as typed (a
// typo in the first word, the last a prefix), of one to three words, some
// words optional, per-attribute rules and phrases (which read a record
// whole, never stopping at its first match); after a snapshot (indexes are rebuilt from the loaded
// lists), and after records are replaced and removed. A broad query's
// candidates are scanned from its marked terms' tokens gathered at once
// from the position lists (assembly/term-positions.ts, listed a step at a
// time as an index does while writes pause), a narrow one's one by one
// through their indexes: both must rank as the full read does.
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { concat } from '../../src/util/bytes.js';
import { prng } from '../support/random.js';
import { build, ready, search, segmentsOf, syllableVocabulary, type Doc } from './helpers.js';

beforeAll(ready);

const rnd = prng(7);
/** Words sharing prefixes, the first ones the most frequent. */
const VOCABULARY = syllableVocabulary(300);
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * rnd() ** 2)];
const phrase = (min: number, max: number) => Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, word).join(' ');
/** Words no query word reaches, even with two typos: six letters none of the vocabulary's. */
const FILLER = Array.from({ length: 40 }, (_, i) => `zq${'bcfghj'[i % 6]}${'wxy'[i % 3]}${'bcfghjwxyz'[Math.floor(i / 4) % 10]}z`);
const filler = (n: number) => Array.from({ length: n }, () => FILLER[Math.floor(rnd() * FILLER.length)]).join(' ');

/** A title, an array of short tags, the filler's place, a body of 60-200 words: under the tokens that make a record long. */
const record = (): Doc => [phrase(2, 6), Array.from({ length: Math.floor(rnd() * 4) }, () => phrase(1, 3)), '', phrase(60, 200)];
const records: Doc[] = Array.from({ length: 1500 }, record);
const withFiller = (doc: Doc, n: number): Doc => { const d = [...(doc as Array<string | string[]>)]; d[2] = filler(n); return d; };
const ATTRIBUTES = [{ rank: 0 }, { rank: 1 }, { rank: 2 }, { rank: 3 }];

/** Words taken from a record's title or body, the first with an inner letter replaced, the last cut to a prefix. */
function typedQuery(count: number): string {
  const doc = records[Math.floor(rnd() * records.length)] as [string, string[], string, string];
  const words = (rnd() < 0.3 ? doc[0] : doc[3]).split(' ');
  const at = Math.floor(rnd() * Math.max(1, words.length - count));
  const picked = words.slice(at, at + count);
  if (picked[0].length > 4) {
    const inner = 1 + Math.floor(rnd() * (picked[0].length - 2));
    picked[0] = `${picked[0].slice(0, inner)}${picked[0][inner] === 'x' ? 'y' : 'x'}${picked[0].slice(inner + 1)}`;
  }
  const last = picked.length - 1;
  if (last > 0) picked[last] = picked[last].slice(0, 2 + Math.floor(rnd() * (picked[last].length - 1)));
  return picked.join(' ');
}
const QUERIES = [1, 2, 2, 2, 3].flatMap((count) => Array.from({ length: 30 }, () => typedQuery(count)));

/** Every hit of `text`, as what its proximity scan found. */
const ranked = (core: CoreIndex, text: string, extra = {}) =>
  search(core, text, { length: 5000, ...extra }).hits.map((h) => [h.id, h.proximity, h.attributeRank, h.attributePosition, h.exactWords]);

/** Lists every long record's tokens term by term, as an index does a step at a time while writes pause; returns the steps taken. */
function listAll(core: CoreIndex): number {
  let steps = 1;
  while (!core.listRecordPositions()) steps++;
  return steps;
}

/** Expects `core` to rank every query's hits as `reference` does; returns how many hits were compared. */
function expectSameHits(reference: CoreIndex, core: CoreIndex, queries: string[], extra = {}): number {
  let compared = 0;
  for (const text of queries) {
    const expected = ranked(reference, text, extra);
    expect(ranked(core, text, extra), text).toEqual(expected);
    compared += expected.length;
  }
  return compared;
}

/** expectSameHits over QUERIES; returns how many hits, and how many of the indexed core's records were scanned from tokens the position lists gave meanwhile. */
function expectAlike(plain: CoreIndex, indexed: CoreIndex, extra = {}): { compared: number; atOnce: number } {
  const before = indexed.positionLists.scannedAtOnce;
  const compared = expectSameHits(plain, indexed, QUERIES, extra);
  expect(compared).toBeGreaterThan(5000);
  return { compared, atOnce: indexed.positionLists.scannedAtOnce - before };
}

describe('term indexes of long records', () => {
  let plain: CoreIndex;
  let indexed: CoreIndex;
  beforeAll(() => {
    plain = build(records, { attributes: ATTRIBUTES });
    indexed = build(records.map((d) => withFiller(d, 1200)), { attributes: ATTRIBUTES });
    expect(indexed.positionLists.listed).toBe(0);
    // ~2M tokens, 64k a step
    expect(listAll(indexed)).toBeGreaterThan(20);
  });

  it('are made for long records only', () => {
    expect(plain.termIndexedRecords).toBe(0);
    expect(indexed.termIndexedRecords).toBe(records.length);
    // 255 and 256 tokens (a record long from 256 on), and a short one
    const some = build([['kalo', [], filler(254), ''], ['kalo', [], filler(255), ''], 'kalo'], { attributes: ATTRIBUTES });
    expect(some.termIndexedRecords).toBe(1);
  });

  it('rank every hit as reading the whole record would', () => {
    expectAlike(plain, indexed);
  });

  it('list their tokens term by term, read for many candidates at once, ranking alike', () => {
    expect(plain.positionLists.listed).toBe(0);
    expect(indexed.positionLists.listed).toBe(records.length);
    const { compared, atOnce } = expectAlike(plain, indexed);
    // broad queries scanned from the lists, narrow ones one by one
    expect(atOnce).toBeGreaterThan(compared / 4);
    expect(atOnce).toBeLessThan(compared);
    // the first pages only: proximity ranked lazily, the lists read once the rounds would cost more
    const firstPages = QUERIES.map((text) => search(indexed, text, { length: 20 }).hits.map((h) => h.id));
    expect(firstPages).toEqual(QUERIES.map((text) => search(plain, text, { length: 20 }).hits.map((h) => h.id)));
  });

  it('rank alike with optional words, exact words counted by the scan, per-attribute rules and phrases', () => {
    expectAlike(plain, indexed, { optionalWords: 0b110 });
    expectAlike(plain, indexed, { noExactAttributes: [1] });
    expectAlike(plain, indexed, { allowedAttributes: [0, 2, 3], noTypoAttributes: [3] });
    expectAlike(plain, indexed, { phrasePairs: 0b1 });
  });

  it('are rebuilt from the lists a snapshot loads', async () => {
    const loaded = new CoreIndex();
    loaded.setAttributes(ATTRIBUTES.map((a) => ({ rank: a.rank, unordered: false })));
    expect(await loaded.importSnapshot([concat(await indexed.exportSnapshot())])).toBe(true);
    expect(loaded.termIndexedRecords).toBe(records.length);
    listAll(loaded);
    expect(loaded.positionLists.listed).toBe(records.length);
    expect(expectAlike(plain, loaded).atOnce).toBeGreaterThan(0);
  });

  it('follow records replaced and removed', () => {
    // a record replaced is removed, and added again under a new id
    const added = Array.from({ length: 300 }, record);
    const changed = build(records.map((d) => withFiller(d, 1200)), { attributes: ATTRIBUTES });
    listAll(changed);
    changed.addDocuments(added.map((doc, i) => ({ id: records.length + i, segments: segmentsOf(withFiller(doc, 1200)) })));
    listAll(changed);
    const reference = build([...records, ...added], { attributes: ATTRIBUTES });
    for (let id = 0; id < 400; id++) { changed.removeDocument(id); reference.removeDocument(id); }
    expect(changed.termIndexedRecords).toBe(records.length + 300 - 400);
    expect(changed.positionLists.listed).toBe(records.length + 300 - 400);
    expectAlike(reference, changed);
    // compaction drops the removed records' entries from the lists
    const bytes = changed.postingBytes();
    expect(changed.compactSome(0, 2 ** 30)).toBe(changed.termCount);
    expect(changed.postingBytes()).toBeLessThan(bytes);
    expect(expectAlike(reference, changed).atOnce).toBeGreaterThan(0);
  });

  it('scan through their index the records holding hundreds of a query\'s tokens, the others from the lists', () => {
    // a record's gathered tokens are sorted by insertion: past 256 its scan looks them up in its index instead
    const docs: Doc[] = Array.from({ length: 1200 }, (_, i) =>
      [phrase(2, 4), [], '', i % 60 === 0 ? `${'sala '.repeat(300)}${phrase(20, 40)} kemo` : `sala ${phrase(40, 80)} kemo ${phrase(5, 10)}`]);
    const plain = build(docs, { attributes: ATTRIBUTES });
    const indexed = build(docs.map((d) => withFiller(d, 1200)), { attributes: ATTRIBUTES });
    listAll(indexed);
    const before = indexed.positionLists.scannedAtOnce;
    expect(expectSameHits(plain, indexed, ['sala kemo', 'kemo sala', 'salx kem'])).toBeGreaterThan(2000);
    expect(indexed.positionLists.scannedAtOnce - before).toBeGreaterThan(1000);
  });

  it('scan one by one the records not listed: indexed under ids the listing had passed', () => {
    // the listing goes through ids in order: records added under lower ids once it passed them are left out
    const n = records.length, half = n / 2;
    const added = (core: CoreIndex, from: number, to: number, filler: number) =>
      core.addDocuments(records.slice(from, to).map((doc, i) => ({ id: from + i, segments: segmentsOf(filler ? withFiller(doc, filler) : doc) })));
    const late = build([], { attributes: ATTRIBUTES });
    added(late, half, n, 1200);
    listAll(late);
    added(late, 0, half, 1200);
    listAll(late);
    expect(late.termIndexedRecords).toBe(n);
    expect(late.positionLists.listed).toBe(n - half);
    // added in the same order (a prefix's terms are capped in the order they came)
    const reference = build([], { attributes: ATTRIBUTES });
    added(reference, half, n, 0);
    added(reference, 0, half, 0);
    const { atOnce } = expectAlike(reference, late);
    expect(atOnce).toBeGreaterThan(0);
  });
});

describe('term indexes over a large dictionary', () => {
  // 70,000 terms, one a record, before the long records: a long record holds terms more than 65,535
  // apart, which one group of its index cannot hold (a group's terms are its first plus a u16)
  const LETTERS = 'bcdfghjklmnpqrstvwz';
  const unique = (i: number) => `x${Array.from({ length: 5 }, (_, k) => LETTERS[Math.floor(i / LETTERS.length ** k) % LETTERS.length]).join('')}`;
  const uniques = Array.from({ length: 70_000 }, (_, i) => unique(i));
  const spread = () => uniques[Math.floor(rnd() * uniques.length)];
  const long: Doc[] = Array.from({ length: 300 }, () => [phrase(2, 6), [], '', `${phrase(30, 80)} ${Array.from({ length: 12 }, spread).join(' ')} ${phrase(30, 80)}`]);
  const queries = Array.from({ length: 80 }, (_, i) => {
    const words = ((long[i % long.length] as string[])[3]).split(' ').filter((w) => w.startsWith('x'));
    return i % 2 ? `${words[i % words.length]} ${words[(i + 5) % words.length]}` : `${phrase(1, 1)} ${words[i % words.length]}`;
  });

  it('rank every hit as reading the whole record would', () => {
    const plain = build([...uniques, ...long], { attributes: ATTRIBUTES });
    const indexed = build([...uniques, ...long.map((d) => withFiller(d, 1200))], { attributes: ATTRIBUTES });
    listAll(indexed);
    expect(indexed.termIndexedRecords).toBe(long.length);
    expect(indexed.positionLists.listed).toBe(long.length);
    expect(expectSameHits(plain, indexed, queries)).toBeGreaterThan(100);
  });
});

