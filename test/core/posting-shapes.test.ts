// A posting is a record gap and an attribute key, each a varint. The common
// shapes (a gap of one or two bytes, a key of one or two) are read from one
// load, the others (a gap of 16,384 records or more, a rank from 7 on, whose
// key escapes it) byte by byte. Every shape, read by each reader of postings
// (a light term's key log, a bounded last word's decoding within the
// candidates, a frequent term, decoded and then through its cached entry), must rank as a direct
// computation does: by the attribute and position of the word's first
// occurrence, then by a custom rank.
import { beforeAll, describe, expect, it } from 'vitest';
import { CRITERION, build, ready, search } from './helpers.js';

beforeAll(ready);

const RECORDS = 40000;
/** Attribute i ranks i: from rank 7 on a stored key escapes its rank; the common word sits in the last, ranked after every other. */
const ATTRIBUTES = 11;
const COMMON_ATTRIBUTE = ATTRIBUTES - 1;
/** Positions of one byte (below 16) and of two in a stored key, and past 1023, where a key's position is capped. */
const POSITIONS = [0, 1, 7, 8, 15, 16, 17, 63, 127, 128, 300];
const FAR = [1022, 1023, 1100];

/** Record ids by runs: gaps of one record, of one or two bytes around 128, the largest of two bytes, one of three. */
function needleIds(): number[] {
  const ids: number[] = [];
  for (let id = 0; id < 100; id++) ids.push(id);
  const steps = [127, 128, 129, 300, 2];
  for (let id = 100, s = 0; id < 3000; id += steps[s++ % steps.length]) ids.push(id);
  const last = ids[ids.length - 1];
  ids.push(last + 16383, last + 16383 + 16384);
  for (let id = ids[ids.length - 1] + 1; id < RECORDS - 4000; id++) ids.push(id);
  ids.push(RECORDS - 1);
  return ids;
}
/** A frequent word (read through a cached entry): seven records in eight, none in [20000, 37000). */
const isHaystack = (id: number) => id % 8 !== 0 && (id < 20000 || id >= 37000);
/** The first word of two-word queries: three records in four. */
const isCommon = (id: number) => id % 4 !== 3;

/** Places `word` in record `id`'s attributes, at an attribute and a position drawn from the id. */
function place(attributes: string[][], id: number, word: string, salt: number) {
  const attribute = (id * 7 + salt) % (ATTRIBUTES - 1);
  const position = id % 97 === salt ? FAR[id % FAR.length] : POSITIONS[(id * 13 + salt) % POSITIONS.length];
  const tokens = attributes[attribute];
  while (tokens.length < position) tokens.push('zz');
  tokens.splice(position, 0, word);
}

describe('postings of every shape, through every reader', () => {
  const needles = new Set(needleIds());
  const docs = Array.from({ length: RECORDS }, (_, id) => {
    const attributes = Array.from({ length: ATTRIBUTES }, (): string[] => []);
    if (needles.has(id)) place(attributes, id, 'needle', 0);
    if (isHaystack(id)) place(attributes, id, 'haystack', 1);
    if (isCommon(id)) attributes[COMMON_ATTRIBUTE].push('common');
    return attributes;
  });
  const ranks = Int32Array.from({ length: RECORDS }, (_, id) => (id * 2654435761) % 1000003);
  let core: ReturnType<typeof build>;
  beforeAll(() => {
    core = build(docs.map((attributes) => attributes.map((tokens) => tokens.join(' '))));
    core.setRanks(0, ranks);
  });

  /** The records holding every one of `words`, by their best key (attribute rank * 1024 + position, capped), then rank. */
  function expected(words: string[]) {
    const hits: Array<{ id: number; key: number }> = [];
    docs.forEach((attributes, id) => {
      let best = Infinity;
      for (const word of words) {
        const attribute = attributes.findIndex((tokens) => tokens.includes(word));
        if (attribute < 0) return;
        best = Math.min(best, attribute * 1024 + Math.min(attributes[attribute].indexOf(word), 1023));
      }
      hits.push({ id, key: best });
    });
    return hits.sort((a, b) => a.key - b.key || ranks[a.id] - ranks[b.id] || a.id - b.id);
  }

  function check(text: string, length: number) {
    const want = expected(text.split(' '));
    const got = search(core, text, {
      queryType: 'prefixNone', typoMode: 'off', criteria: [CRITERION.attribute, CRITERION.custom], offset: 0, length,
    });
    expect(got.nbHits).toBe(want.length);
    expect(got.hits.map((h) => h.attributeRank * 1024 + h.attributePosition)).toEqual(want.slice(0, length).map((h) => h.key));
    expect(got.hits.map((h) => h.id)).toEqual(want.slice(0, length).map((h) => h.id));
  }

  it('a light term, its keys logged', () => check('needle', 1000));
  it('a light last word, decoded within the first word\'s candidates', () => check('common needle', 1000));
  // asked twice: the first ask decodes the term, the second builds its entry and reads it
  it('a frequent term, decoded, then read into its cached entry', () => {
    check('haystack', 200);
    check('haystack', 200);
  });
});
