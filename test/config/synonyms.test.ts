// Synonyms on the TED talks: phrases on either side, highlighting with
// replaceSynonymsInHighlight, alternativesAsExact, atomic batches and
// forwarding, each checked against sets computed here from the records.
import { beforeAll, describe, expect, it } from 'vitest';
import { openWithClient, readFixture, type OfficialClient, type Send } from '../api/helpers.js';

const talks: Array<Record<string, any>> = readFixture('talks.json');
const SEARCHABLE = ['name', 'speakers', 'event_name', 'tags'];

/** The words of a talk's searchable attributes, folded as the engine folds them. */
function wordsOf(talk: Record<string, any>): Set<string> {
  const text = SEARCHABLE.flatMap((a) => [].concat(talk[a] ?? [])).join(' ');
  return new Set(text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').split(/[^\p{L}\p{N}]+/u));
}
const ids = (match: (words: Set<string>) => boolean) => new Set(talks.filter((t) => match(wordsOf(t))).map((t) => t.objectID));

let client: OfficialClient;
let send: Send;
const EXACTLY = { queryType: 'prefixNone' as const, typoTolerance: false, distinct: false, hitsPerPage: 1000, attributesToRetrieve: ['objectID'] };

async function settle(response: { taskID: number }, indexName = 'talks') {
  await client.waitForTask({ indexName, taskID: response.taskID });
}
async function found(query: string, extra: Record<string, unknown> = {}): Promise<Set<string>> {
  const r: any = await client.searchSingleIndex({ indexName: 'talks', searchParams: { query, ...EXACTLY, attributesToHighlight: [], ...extra } });
  return new Set(r.hits.map((h: any) => h.objectID));
}
/** The hit of record `id` among a query's hits. */
async function hitOf(query: string, id: string, extra: Record<string, unknown> = {}): Promise<any> {
  const r: any = await client.searchSingleIndex({ indexName: 'talks', searchParams: { query, ...EXACTLY, ...extra } });
  return r.hits.find((h: any) => h.objectID === id);
}
async function useSynonyms(synonymHit: any[]) {
  await settle(await client.saveSynonyms({ indexName: 'talks', synonymHit, replaceExistingSynonyms: true, forwardToReplicas: true }));
}

beforeAll(async () => {
  ({ client, send } = await openWithClient());
  const settings = readFixture('talks_settings.json');
  settings.slaves = ['talks_by_views'];
  await settle(await client.setSettings({ indexName: 'talks', indexSettings: settings }));
  await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
});

describe('phrase synonyms', () => {
  const nyc = ids((w) => w.has('nyc'));
  const newYork = ids((w) => w.has('new') && w.has('york'));
  const either = new Set([...nyc, ...newYork]);

  it('the data holds both forms (the test means something)', () => {
    expect(nyc.size).toBeGreaterThan(3);
    expect(newYork.size).toBeGreaterThan(3);
    expect(either.size).toBeLessThan(nyc.size + newYork.size + 1);
  });

  it('a multi-way synonym with a phrase works from the word and from the phrase', async () => {
    await useSynonyms([{ objectID: 'ny', type: 'synonym', synonyms: ['NYC', 'New York'] }]);
    expect(await found('nyc')).toEqual(either);
    expect(await found('new york')).toEqual(either);
    expect(await found('nyc', { synonyms: false })).toEqual(nyc);
  });

  it('a one-way synonym to a phrase works one way only', async () => {
    await useSynonyms([{ objectID: 'ny', type: 'onewaysynonym', input: 'nyc', synonyms: ['new york'] }]);
    expect(await found('nyc')).toEqual(either);
    expect(await found('new york')).toEqual(newYork);
  });

  it('a record matched through the phrase counts every query word as matched, with no typo', async () => {
    await useSynonyms([{ objectID: 'ny', type: 'synonym', synonyms: ['nyc', 'new york'] }]);
    const onlyNyc = [...nyc].find((id) => !newYork.has(id))!;
    const hit = await hitOf('new york', onlyNyc, { getRankingInfo: true });
    expect(hit._rankingInfo).toMatchObject({ nbTypos: 0, words: 2 });
  });
});

describe('replaceSynonymsInHighlight', () => {
  const newYorkNamed = talks.find((t) => /\bnew york\b/i.test(t.name) && !/\bnyc\b/i.test(t.name))!;

  beforeAll(() => useSynonyms([{ objectID: 'ny', type: 'synonym', synonyms: ['nyc', 'new york'] }]));

  async function highlightedName(query: string, replace: boolean): Promise<string> {
    const hit = await hitOf(query, newYorkNamed.objectID, { attributesToHighlight: ['name'], replaceSynonymsInHighlight: replace });
    return hit._highlightResult.name.value;
  }

  it('off: the record\'s own words are highlighted', async () => {
    const value = await highlightedName('nyc', false);
    expect(value).toMatch(/<em>New<\/em> <em>York<\/em>/i);
    expect(value).not.toContain('nyc');
  });

  it('on: a one-word query replaces the phrase it matched, once', async () => {
    const value = await highlightedName('nyc', true);
    expect(value).toContain('<em>nyc</em>');
    expect(value).not.toMatch(/york/i);
    expect(value.replace('<em>nyc</em>', 'New York')).toBe(newYorkNamed.name);
  });

  it('on: a phrase of the query never replaces a shorter synonym, nor the words it typed', async () => {
    const value = await highlightedName('new york', true);
    expect(value).toMatch(/<em>New<\/em> <em>York<\/em>/i);
  });
});

describe('alternativesAsExact', () => {
  beforeAll(() => useSynonyms([
    // a single word counts as exact from 3 characters (exactOnSingleWordQuery word): "telly", not "tv"
    { objectID: 'single', type: 'synonym', synonyms: ['telly', 'television'] },
    { objectID: 'ny', type: 'synonym', synonyms: ['nyc', 'new york'] },
  ]));

  async function exactWords(query: string, only: string, asExact: string[]): Promise<number> {
    const hit = await hitOf(query, only, { getRankingInfo: true, alternativesAsExact: asExact });
    return hit._rankingInfo.nbExactWords;
  }

  it('singleWordSynonym makes a one-word synonym count as exact', async () => {
    const televisionOnly = [...ids((w) => w.has('television') && !w.has('telly'))][0];
    expect(televisionOnly).toBeDefined();
    expect(await exactWords('telly', televisionOnly, ['singleWordSynonym'])).toBe(1);
    expect(await exactWords('telly', televisionOnly, [])).toBe(0);
  });

  it('multiWordsSynonym makes a phrase synonym count as exact', async () => {
    const newYorkOnly = [...ids((w) => w.has('new') && w.has('york') && !w.has('nyc'))][0];
    expect(await exactWords('nyc', newYorkOnly, ['multiWordsSynonym'])).toBe(1);
    expect(await exactWords('nyc', newYorkOnly, ['singleWordSynonym'])).toBe(0);
  });
});

describe('managing synonyms', () => {

  it('a batch with one invalid synonym is refused whole; replaceExistingSynonyms replaces atomically', async () => {
    await useSynonyms([{ objectID: 'keep', type: 'synonym', synonyms: ['film', 'movie'] }]);
    const bad = await send('POST', '/1/indexes/talks/synonyms/batch?replaceExistingSynonyms=true', [
      { objectID: 'new1', type: 'synonym', synonyms: ['a', 'b'] },
      { objectID: 'new2', type: 'onewaysynonym', synonyms: ['no input'] },
    ]);
    expect(bad.status).toBe(400);
    expect((bad.body as any).message).toMatch(/new2/);
    const all = await client.searchSynonyms({ indexName: 'talks', searchSynonymsParams: { query: '' } });
    expect(all.hits.map((h: any) => h.objectID)).toEqual(['keep']);
  });

  it('forwardToReplicas reaches the replica; without it the replica keeps its own', async () => {
    await useSynonyms([{ objectID: 'fwd', type: 'synonym', synonyms: ['film', 'movie'] }]);
    expect((await client.getSynonym({ indexName: 'talks_by_views', objectID: 'fwd' })).type).toBe('synonym');
    await settle(await client.saveSynonym({ indexName: 'talks', objectID: 'mine', synonymHit: { objectID: 'mine', type: 'synonym', synonyms: ['x', 'y'] } }));
    await expect(client.getSynonym({ indexName: 'talks_by_views', objectID: 'mine' })).rejects.toThrow();
  });

  it('search pages through every type, hitsPerPage up to 100', async () => {
    const batch = Array.from({ length: 130 }, (_, i) => ({ objectID: `s${i}`, type: 'synonym', synonyms: [`word${i}`, `other${i}`] }));
    batch.push({ objectID: 'ph', type: 'placeholder', placeholder: '<number>', replacements: ['one', 'two'] } as any);
    await useSynonyms(batch);
    const page0 = await client.searchSynonyms({ indexName: 'talks', searchSynonymsParams: { query: '', hitsPerPage: 100 } });
    const page1 = await client.searchSynonyms({ indexName: 'talks', searchSynonymsParams: { query: '', hitsPerPage: 100, page: 1 } });
    expect(page0.nbHits).toBe(131);
    expect(page0.hits).toHaveLength(100);
    expect(page1.hits).toHaveLength(31);
    const placeholders = await client.searchSynonyms({ indexName: 'talks', searchSynonymsParams: { query: '', type: 'placeholder' } });
    expect(placeholders.hits.map((h: any) => h.objectID)).toEqual(['ph']);
    expect((await send('POST', '/1/indexes/talks/synonyms/search', { hitsPerPage: 1001 })).status).toBe(400);
  });
});
