// explain: ['match.alternatives'] (or ['*']): the query words and what each
// was matched through, as the service answers (docs/COMPATIBILITY.md,
// "explain"): { types, words, typos, offset, length }, offsets and lengths
// counted in query words, words folded.
import { beforeAll, describe, expect, it } from 'vitest';
import { openWithClient, type OfficialClient, type Send } from './helpers.js';
import type { Lantern } from '../../src/lantern.js';

let engine: Lantern;
let client: OfficialClient;
let send: Send;

interface Alternative { types: string[]; words: string[]; typos: number; offset: number; length: number }

beforeAll(async () => {
  ({ engine, client, send } = await openWithClient());
  await client.saveObjects({
    indexName: 'gear',
    objects: [
      { objectID: '1', title: 'Mountain bike for Hütten trips' },
      { objectID: '2', title: 'Leather sofa' },
      { objectID: '3', title: 'Smartphone case' },
      { objectID: '4', title: 'Ice cream maker' },
    ],
  });
  await client.saveSynonyms({ indexName: 'gear', synonymHit: [{ objectID: 'seats', type: 'synonym', synonyms: ['couch', 'sofa'] }] });
  await engine.waitForTasks();
});

async function explained(query: string, explain: string[] = ['match.alternatives']): Promise<Alternative[]> {
  const response = await send('POST', '/1/indexes/gear/query', { query, explain });
  expect(response.status).toBe(200);
  return (response.body as { explain: { match: { alternatives: Alternative[] } } }).explain.match.alternatives;
}

describe('explain match.alternatives', () => {
  it('answers each query word folded, with exactly the service\'s five fields', async () => {
    const alternatives = await explained('HÜTTEN bike', ['*']);
    for (const a of alternatives) expect(Object.keys(a).sort()).toEqual(['length', 'offset', 'types', 'typos', 'words']);
    expect(alternatives.slice(0, 2)).toEqual([
      { types: ['original'], words: ['hutten'], typos: 0, offset: 0, length: 1 },
      { types: ['original'], words: ['bike'], typos: 0, offset: 1, length: 1 },
    ]);
  });

  it('lists the typo alternative a record matched, with its typo count', async () => {
    const alternatives = await explained('montain');
    expect(alternatives).toContainEqual({ types: ['typo'], words: ['mountain'], typos: 1, offset: 0, length: 1 });
    // a word matched as typed is no typo
    expect((await explained('mountain')).filter((a) => a.types[0] === 'typo')).toEqual([]);
  });

  it('lists a synonym alternative', async () => {
    expect(await explained('couch')).toContainEqual({ types: ['synonym'], words: ['sofa'], typos: 0, offset: 0, length: 1 });
  });

  it('lists a concatenation of two query words and a split of one, when records matched them', async () => {
    expect(await explained('smart phone case')).toContainEqual({ types: ['concat'], words: ['smartphone'], typos: 0, offset: 0, length: 2 });
    const split = await explained('icecream maker');
    expect(split).toContainEqual({ types: ['split'], words: ['ice', 'cream'], typos: 0, offset: 0, length: 1 });
    // only the split that records matched, not every cut of the word
    expect(split.filter((a) => a.types[0] === 'split')).toHaveLength(1);
  });

  it('adds nothing without explain, and rejects a value it does not know', async () => {
    const plain = await send('POST', '/1/indexes/gear/query', { query: 'montain' });
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('explain');
    const wrong = await send('POST', '/1/indexes/gear/query', { query: 'x', explain: ['match.everything'] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/explain/);
  });
});
