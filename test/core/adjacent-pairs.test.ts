// Broad queries rank lazily by proximity, and the records' adjacent-pair
// sketches (assembly/store.ts, adjacent-pairs.ts) let that ranking pass
// over records whose words cannot be side by side. A sketch that missed a
// pair would drop a record at the best proximity from its page: every page
// must be the page of the order ranked directly (a page as long as every
// hit is never ranked lazily). Where fewer records than a page are at the
// best proximity, the sketches find them all and the others are ranked at
// the next proximity: the pages must be the same. Queries as typed: a typo in the first word,
// the last one a prefix reaching terms of several classes; words found side
// by side in titles, bodies and array elements; after a snapshot, and after
// records are replaced.
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { prng } from '../support/random.js';
import { build, ready, search, syllableVocabulary, type Doc } from './helpers.js';

beforeAll(ready);

const rnd = prng(2026);
/** Words sharing prefixes, the first ones the most frequent (a query's words reach thousands of records). */
const VOCABULARY = syllableVocabulary(400);
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * rnd() ** 4)];
const phrase = (min: number, max: number) => Array.from({ length: min + Math.floor(rnd() * (max - min + 1)) }, word).join(' ');
/** A title, an array of short values, a body. */
const record = (): Doc => [phrase(3, 8), Array.from({ length: Math.floor(rnd() * 3) }, () => phrase(1, 3)), phrase(10, 30)];
const ATTRIBUTES = [{ rank: 0 }, { rank: 1, unordered: true }, { rank: 2 }];

/** Two words side by side in a record, the first with an inner letter replaced, the second cut to a prefix. */
function typedQuery(records: Doc[]): string {
  const doc = records[Math.floor(rnd() * records.length)] as [string, string[], string];
  const words = (rnd() < 0.5 ? doc[0] : doc[2]).split(' ');
  const at = Math.floor(rnd() * (words.length - 1));
  const [first, second] = [words[at], words[at + 1]];
  const inner = 1 + Math.floor(rnd() * (first.length - 2));
  const typo = `${first.slice(0, inner)}${first[inner] === 'x' ? 'y' : 'x'}${first.slice(inner + 1)}`;
  return `${typo} ${second.slice(0, 3 + Math.floor(rnd() * (second.length - 3)))}`;
}

const shape = (core: CoreIndex, text: string, offset: number, length: number, extra = {}) =>
  search(core, text, { offset, length, ...extra }).hits.map((h) => [h.id, h.proximity, h.attributeRank, h.attributePosition]);

/** Checks each query's first pages against its whole ranking; returns how many queries had candidate sets ranked lazily. */
function expectPagesOfTheWholeOrder(core: CoreIndex, queries: string[], extra = {}): number {
  let broad = 0;
  for (const text of queries) {
    const { nbHits } = search(core, text, { length: 0, ...extra });
    if (nbHits >= 512) broad++;
    const all = shape(core, text, 0, nbHits, extra);
    for (const [offset, length] of [[0, 20], [20, 10]]) {
      expect(shape(core, text, offset, length, extra), `${text} @${offset}`).toEqual(all.slice(offset, offset + length));
    }
  }
  return broad;
}

describe('adjacent-pair sketches', () => {
  const records = Array.from({ length: 8000 }, record);
  const queries = Array.from({ length: 60 }, () => typedQuery(records));
  let core: CoreIndex;
  beforeAll(() => { core = build(records, { attributes: ATTRIBUTES }); });

  it('pages of broad typo and prefix queries are the pages of the whole order', () => {
    expect(expectPagesOfTheWholeOrder(core, queries)).toBeGreaterThan(30);
  });

  it('three words, the middle one excluded: the pair of the other two', () => {
    const three = queries.map((q) => { const [a, b] = q.split(' '); return `${a} ${word()} ${b}`; });
    expect(expectPagesOfTheWholeOrder(core, three, { excludedWords: 0b010 })).toBeGreaterThan(10);
  });

  it('three words, each pair side by side', () => {
    const three = Array.from({ length: 60 }, () => {
      const body = (records[Math.floor(rnd() * records.length)] as [string, string[], string])[2].split(' ');
      const at = Math.floor(rnd() * (body.length - 2));
      return `${body[at]} ${body[at + 1]} ${body[at + 2].slice(0, 3)}`;
    });
    expect(expectPagesOfTheWholeOrder(core, three)).toBeGreaterThan(10);
  });

  it('a loaded snapshot computes the sketches its records need', async () => {
    const loaded = new CoreIndex();
    loaded.setAttributes(ATTRIBUTES.map(({ rank, unordered }) => ({ rank, unordered: unordered ?? false })));
    expect(await loaded.importSnapshot(await core.exportSnapshot())).toBe(true);
    for (const text of queries.slice(0, 30)) expect(shape(loaded, text, 0, 20), text).toEqual(shape(core, text, 0, 20));
    expectPagesOfTheWholeOrder(loaded, queries.slice(30));
  });

  it('a record replaced (removed, added again under a new id) gets the sketch of its new text', () => {
    const replaced = build(records, { attributes: ATTRIBUTES });
    // every other record takes the text of another: its old pairs are gone, new ones come
    const texts = records.map((doc, id) => (id % 2 === 0 ? records[(id * 7919 + 13) % records.length] : doc));
    for (let id = 0; id < records.length; id += 2) replaced.removeDocument(id);
    replaced.addDocuments(records.flatMap((_, id) => (id % 2 === 0 ? [{ id: records.length + id, segments: toSegments(texts[id]) }] : [])));
    expect(expectPagesOfTheWholeOrder(replaced, queries)).toBeGreaterThan(30);
  });
});

function toSegments(doc: Doc): Array<{ attribute: number; text: string }> {
  const [title, values, body] = doc as [string, string[], string];
  return [{ attribute: 0, text: title }, ...values.map((text) => ({ attribute: 1, text })), { attribute: 2, text: body }];
}
