// Compaction drops removed records' postings a step at a time (store.ts
// compactSome), with searches and writes between steps. Every answer must be
// the one an index holding only the live records gives, and a finished pass
// must leave exactly the posting lists that index has.
import { beforeAll, describe, expect, it } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { compactAll, ready, search, segmentsOf, type Doc } from './helpers.js';
import { readFixture } from '../support/fixtures.js';
import { prng } from '../support/random.js';

beforeAll(ready);

interface Talk { name: string; speakers?: string[]; event_name?: string; tags?: string[] }

const talks = readFixture<Talk[]>('talks.json');
// nine attributes: ranks from 7 on take a second varint in a posting's key
const docOf = (t: Talk): Doc => [t.name, t.speakers ?? [], '', '', '', '', '', t.event_name ?? '', t.tags ?? []];
const ATTRIBUTES = Array.from({ length: 9 }, (_, rank) => ({ rank, unordered: false }));
const QUERIES = ['the', 'design', 'scien', 'brian', 'music power', 'ted2', 'climate chang', 'wh', 'a'];

/** An index of `docs` under their ids (sparse ids: the live records of another index). */
function indexOf(docs: Map<number, Doc>): CoreIndex {
  const core = new CoreIndex();
  core.setAttributes(ATTRIBUTES);
  core.addDocuments([...docs].map(([id, doc]) => ({ id, segments: segmentsOf(doc) })));
  return core;
}

const answer = (core: CoreIndex, text: string) => {
  const r = search(core, text, { length: 50 });
  return { nbHits: r.nbHits, hits: r.hits.map((h) => [h.id, h.typos, h.proximity, h.words, h.attributeRank, h.attributePosition, h.exactWords]) };
};

const expectSameAnswers = (core: CoreIndex, live: Map<number, Doc>) => {
  const fresh = indexOf(live);
  for (const q of QUERIES) expect(answer(core, q), q).toEqual(answer(fresh, q));
};

describe('stepwise compaction', () => {
  it('answers as an index of the live records does, between steps and after', () => {
    const random = prng(7);
    const live = new Map<number, Doc>(talks.map((t, id) => [id, docOf(t)]));
    const core = indexOf(live);
    for (const id of [...live.keys()]) {
      if (random() < 0.6) { core.removeDocument(id); live.delete(id); }
    }
    const before = core.postingBytes();
    let term = 0;
    let steps = 0;
    while (term < core.termCount) {
      term = core.compactSome(term, 2048);
      if (steps++ % 25 === 0) expectSameAnswers(core, live);
    }
    expect(steps).toBeGreaterThan(20);
    expectSameAnswers(core, live);
    // exactly the lists of an index that never held the removed records
    expect(core.postingBytes()).toBe(indexOf(live).postingBytes());
    expect(core.postingBytes()).toBeLessThan(before * 0.6);
  });

  it('keeps appending and removing right after a pass (each list knows its last record)', () => {
    const live = new Map<number, Doc>(talks.slice(0, 400).map((t, id) => [id, docOf(t)]));
    const core = indexOf(live);
    // the last records of many lists go, so a list's last record changes
    for (let id = 300; id < 400; id++) { core.removeDocument(id); live.delete(id); }
    compactAll(core, 4096);
    const added = new Map<number, Doc>(talks.slice(400, 500).map((t, i) => [400 + i, docOf(t)]));
    core.addDocuments([...added].map(([id, doc]) => ({ id, segments: segmentsOf(doc) })));
    for (const [id, doc] of added) live.set(id, doc);
    expectSameAnswers(core, live);
    for (let id = 0; id < 500; id += 3) { core.removeDocument(id); live.delete(id); }
    compactAll(core);
    expectSameAnswers(core, live);
    expect(core.postingBytes()).toBe(indexOf(live).postingBytes());
  });

  it('empties the lists of removed records', () => {
    const live = new Map<number, Doc>(talks.slice(0, 50).map((t, id) => [id, docOf(t)]));
    const core = indexOf(live);
    for (let id = 0; id < 50; id++) core.removeDocument(id);
    compactAll(core, 1);
    expect(core.postingBytes()).toBe(0);
    expect(search(core, 'the').nbHits).toBe(0);
  });
});
