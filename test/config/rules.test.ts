// Query rules on the TED talks: anchoring, alternatives, filter conditions,
// automatic facet filters, validity, query edits and atomic batches.
import { beforeAll, describe, expect, it } from 'vitest';
import { openWithClient, readFixture, type OfficialClient, type Send } from '../api/helpers.js';

const talks: Array<Record<string, any>> = readFixture('talks.json');

let client: OfficialClient;
let call: Send;

async function settle(response: { taskID: number }) {
  await client.waitForTask({ indexName: 'talks', taskID: response.taskID });
}
async function useRules(rules: any[]) {
  await settle(await client.saveRules({ indexName: 'talks', rules, clearExistingRules: true }));
}
async function search(query: string, extra: Record<string, unknown> = {}): Promise<any> {
  return client.searchSingleIndex({ indexName: 'talks', searchParams: { query, distinct: false, attributesToHighlight: [], ...extra } });
}
const applied = async (query: string, extra: Record<string, unknown> = {}) =>
  ((await search(query, { hitsPerPage: 0, ...extra })).appliedRules ?? []).map((r: any) => r.objectID).sort();

beforeAll(async () => {
  ({ client, send: call } = await openWithClient());
  await settle(await client.setSettings({ indexName: 'talks', indexSettings: readFixture('talks_settings.json') }));
  await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
});

describe('patterns', () => {
  beforeAll(() => useRules([
    { objectID: 'is', conditions: [{ pattern: 'climate change', anchoring: 'is' }], consequence: { userData: 'is' } },
    { objectID: 'starts', conditions: [{ pattern: 'climate', anchoring: 'startsWith' }], consequence: { userData: 'starts' } },
    { objectID: 'ends', conditions: [{ pattern: 'change', anchoring: 'endsWith' }], consequence: { userData: 'ends' } },
    { objectID: 'contains', conditions: [{ pattern: 'change', anchoring: 'contains' }], consequence: { userData: 'contains' } },
    { objectID: 'alike', conditions: [{ pattern: 'robot', anchoring: 'contains', alternatives: true }], consequence: { userData: 'alike' } },
    { objectID: 'literal', conditions: [{ pattern: 'robot', anchoring: 'contains' }], consequence: { userData: 'literal' } },
  ]));

  it('each anchoring matches where it should', async () => {
    expect(await applied('climate change')).toEqual(['contains', 'ends', 'is', 'starts']);
    expect(await applied('Climate  Change now')).toEqual(['contains', 'starts']);
    expect(await applied('fast climate change')).toEqual(['contains', 'ends']);
    expect(await applied('changes')).toEqual([]);
  });

  it('alternatives: plurals and typos match the pattern too, and only when asked', async () => {
    expect(await applied('robots')).toEqual(['alike']);
    expect(await applied('robto')).toEqual(['alike']);
    expect(await applied('robot')).toEqual(['alike', 'literal']);
    expect(await applied('rabbit')).toEqual([]);
  });

  it('alternatives: the index\'s synonyms match the pattern', async () => {
    await settle(await client.saveSynonym({ indexName: 'talks', objectID: 'android', synonymHit: { objectID: 'android', type: 'synonym', synonyms: ['android', 'robot'] } }));
    expect(await applied('android')).toEqual(['alike']);
  });
});

describe('conditions on filters and facets', () => {
  beforeAll(() => useRules([
    { objectID: 'on-tag', conditions: [{ filters: 'tags:technology' }], consequence: { params: { hitsPerPage: 3 } } },
    {
      objectID: 'speaker', conditions: [{ pattern: '{facet:speakers}', anchoring: 'contains' }],
      consequence: { params: { automaticFacetFilters: [{ facet: 'speakers' }] } },
    },
  ]));

  it('a filters condition applies when the search filters on that facet value', async () => {
    expect((await search('brain', { filters: 'tags:technology' })).hits).toHaveLength(3);
    expect((await search('brain', { facetFilters: [['tags:technology']] })).hits).toHaveLength(3);
    expect((await search('brain', { filters: 'tags:science' })).appliedRules).toBeUndefined();
  });

  it('a {facet:attr} pattern filters on the facet value it found and removes it from the query', async () => {
    const speaker = 'Ken Robinson';
    const expected = talks.filter((t) => t.speakers.includes(speaker)).length;
    expect(expected).toBeGreaterThan(0);
    const r = await search(speaker, { hitsPerPage: 100 });
    expect(r.appliedRules).toEqual([{ objectID: 'speaker' }]);
    expect(r.nbHits).toBe(expected);
    expect(r.hits.every((h: any) => h.speakers.includes(speaker))).toBe(true);
    const unknown = await search('Nobody Atall', { hitsPerPage: 0 });
    expect(unknown.appliedRules).toBeUndefined();
  });
});

describe('validity, enabled and contexts', () => {
  it('a rule applies only inside one of its validity ranges', async () => {
    const now = Math.floor(Date.now() / 1000);
    await useRules([
      { objectID: 'past', conditions: [{ pattern: 'brain', anchoring: 'is' }], validity: [{ from: now - 7200, until: now - 3600 }], consequence: { userData: 1 } },
      { objectID: 'current', conditions: [{ pattern: 'brain', anchoring: 'is' }], validity: [{ from: now - 3600, until: now + 3600 }], consequence: { userData: 2 } },
      { objectID: 'off', enabled: false, conditions: [{ pattern: 'brain', anchoring: 'is' }], consequence: { userData: 3 } },
      { objectID: 'ctx', conditions: [{ pattern: 'brain', anchoring: 'is', context: 'kiosk' }], consequence: { userData: 4 } },
    ]);
    expect((await search('brain')).userData).toEqual([2]);
    expect((await search('brain', { ruleContexts: ['kiosk'] })).userData).toEqual([2, 4]);
    expect((await search('brain', { enableRules: false })).userData).toBeUndefined();
  });
});

describe('consequences', () => {
  it('edits replace and remove words; a query string replaces the query', async () => {
    await useRules([
      { objectID: 'edit', conditions: [{ pattern: 'cerveau', anchoring: 'contains' }], consequence: { params: { query: { edits: [{ type: 'replace', delete: 'cerveau', insert: 'brain' }] } } } },
      { objectID: 'replace', conditions: [{ pattern: 'whole', anchoring: 'is' }], consequence: { params: { query: 'ocean' } } },
    ]);
    const brain = await search('brain', { hitsPerPage: 0 });
    expect((await search('cerveau', { hitsPerPage: 0 })).nbHits).toBe(brain.nbHits);
    expect((await search('whole', { hitsPerPage: 0 })).nbHits).toBe((await search('ocean', { hitsPerPage: 0 })).nbHits);
  });

  it('promote several objectIDs from a position; filterPromotes keeps them only when they pass the filters', async () => {
    const [a, b] = talks.filter((t) => ![].concat(t.tags).includes('music' as never)).slice(0, 2);
    await useRules([{
      objectID: 'promo', conditions: [{ pattern: 'music', anchoring: 'contains' }],
      consequence: { promote: [{ objectIDs: [a.objectID, b.objectID], position: 1 }], filterPromotes: true },
    }]);
    const plain = await search('music', { hitsPerPage: 5, getRankingInfo: true });
    expect(plain.hits.slice(1, 3).map((h: any) => h.objectID)).toEqual([a.objectID, b.objectID]);
    // a promoted hit's userScore is the best there is: every record of the index
    expect(plain.hits.slice(1, 3).map((h: any) => [h._rankingInfo.promoted, h._rankingInfo.userScore])).toEqual([[true, talks.length], [true, talks.length]]);
    const filtered = await search('music', { hitsPerPage: 50, filters: 'tags:music' });
    expect(filtered.hits.map((h: any) => h.objectID)).not.toContain(a.objectID);
  });
});

describe('managing rules', () => {
  it('a batch with one invalid rule is refused whole; clearExistingRules replaces atomically', async () => {
    await useRules([{ objectID: 'keep', conditions: [{ pattern: 'x', anchoring: 'is' }], consequence: { userData: 1 } }]);
    const bad = await call('POST', '/1/indexes/talks/rules/batch?clearExistingRules=true', [
      { objectID: 'ok', conditions: [{ pattern: 'y', anchoring: 'is' }], consequence: { userData: 2 } },
      { objectID: 'broken', conditions: [{ pattern: 'z', anchoring: 'is', alternatives: 'yes' }], consequence: {} },
    ]);
    expect(bad.status).toBe(400);
    expect((bad.body as any).message).toMatch(/broken/);
    const all = await client.searchRules({ indexName: 'talks', searchRulesParams: { query: '' } });
    expect(all.hits.map((h: any) => h.objectID)).toEqual(['keep']);
  });

  it('a pattern without anchoring is taken as contains, and stored as sent (issue #49)', async () => {
    const saved = await call('PUT', '/1/indexes/talks/rules/bare', { conditions: [{ pattern: 'ocean' }], consequence: { userData: 'bare' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await settle(saved.body as { taskID: number });
    expect(await applied('deep ocean life')).toEqual(['bare']);
    expect(await applied('oceans')).toEqual([]);
    expect((await client.getRule({ indexName: 'talks', objectID: 'bare' })).conditions).toEqual([{ pattern: 'ocean' }]);
    const found = await client.searchRules({ indexName: 'talks', searchRulesParams: { query: '', anchoring: 'contains' } });
    expect(found.hits.map((h: any) => h.objectID)).toContain('bare');
    const lone = await call('PUT', '/1/indexes/talks/rules/lone', { conditions: [{ anchoring: 'is' }], consequence: { userData: 1 } });
    expect(lone.status).toBe(400);
    expect((lone.body as any).message).toMatch(/anchoring needs a pattern/);
  });

  it('bad filters in a condition are 400 naming the rule', async () => {
    const bad = await call('PUT', '/1/indexes/talks/rules/f', { conditions: [{ filters: 'tags:x AND' }], consequence: { userData: 1 } });
    expect(bad.status).toBe(400);
    expect((bad.body as any).message).toMatch(/Rule f|filters/);
  });

  it('clear removes every rule; search pages', async () => {
    await useRules(Array.from({ length: 25 }, (_, i) => ({ objectID: `r${i}`, conditions: [{ pattern: `w${i}`, anchoring: 'is' }], consequence: { userData: i } })));
    const page1 = await client.searchRules({ indexName: 'talks', searchRulesParams: { query: '', page: 1, hitsPerPage: 10 } });
    expect(page1.hits).toHaveLength(10);
    expect(page1.nbHits).toBe(25);
    await settle(await client.clearRules({ indexName: 'talks' }));
    expect((await client.searchRules({ indexName: 'talks', searchRulesParams: { query: '' } })).nbHits).toBe(0);
  });
});
