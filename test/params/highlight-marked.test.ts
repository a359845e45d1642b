// Highlighting without the core where a hit's attribute holds no matched
// term: the forward lists say which attributes of a hit hold a term the
// search marked (CoreIndex.markedAttributes), and the values of the other
// attributes are answered unmatched without being tokenised. Every answer
// must equal what highlighting every value in full gives: a page's values,
// highlighted and snippeted, go to the core in one call that lists only
// the highlighted values' matched tokens; the reference marks each value
// alone from every token.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CoreIndex } from '../../src/core/core-index.js';
import { highlightText, mapLeaves, snippetLeaf, type HighlightOptions } from '../../src/query/highlight.js';
import { TOKEN_STRIDE } from '../../src/core/core-index.js';
import type { Json } from '../../src/index/records.js';
import { fixture, openEngine, type Send, type Talk } from './helpers.js';
import type { Lantern } from '../../src/index.js';

let engine: Lantern;
let send: Send;
let talks: Talk[];

beforeAll(async () => {
  ({ engine, send } = await openEngine());
  talks = fixture<Talk[]>('talks.json');
  const client = engine.client();
  // one index with searchable attributes (one of them unordered, one an array), one where every attribute is searchable
  await client.setSettings({ indexName: 'listed', indexSettings: { searchableAttributes: ['name', 'unordered(description)', 'speakers', 'tags'] } });
  await client.saveObjects({ indexName: 'listed', objects: talks as any });
  await client.saveObjects({ indexName: 'every', objects: talks.map(({ objectID, name, speakers, tags, event_name }) => ({ objectID, name, speakers, tags, event: { name: event_name } })) as any });
  await engine.waitForTasks();
});

/** Queries from the talks' names: whole words, a typo, prefixes, two words. */
function queries(): string[] {
  const words = talks.slice(0, 60).flatMap((t) => t.name.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 5));
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length && out.length < 80; i += 3) {
    const [w, v] = [words[i], words[i + 1]];
    out.push(w, `${w.slice(0, 2)}x${w.slice(3)}`, w.slice(0, 3), `${w} ${v.slice(0, 3)}`);
  }
  return out;
}

/** Snippets asked for: sizes in words, an attribute missing from some records, an array. */
const SNIPPETS = ['description:8', 'name:3', 'tags:2'];

/**
 * The snippet of one value from every token of it (the reference the core's
 * window is held to): `size` tokens from a quarter of them before the
 * first matched one, or from the start, kept within the text.
 */
function snippetText(core: CoreIndex, text: string, size: number, ellipsis: string, o: HighlightOptions, indexed: boolean) {
  const tokens = core.highlight(text, indexed);
  const count = tokens.length / TOKEN_STRIDE;
  let matched = 0;
  while (matched < count && tokens[matched * TOKEN_STRIDE + 2] === 0) matched++;
  const first = count <= size ? 0 : Math.max(0, Math.min((matched === count ? 0 : matched) - Math.floor(size / 4), count - size));
  const listed = Math.min(size, count - first);
  return snippetLeaf(text, tokens.subarray(first * TOKEN_STRIDE, (first + listed) * TOKEN_STRIDE), 0, listed, count, first, ellipsis, o);
}

/** The snippets of a hit, each value snippeted alone from every token. */
function fullSnippets(indexName: string, objectID: string, words: string[]): Record<string, unknown> {
  const index = engine.catalog.index(indexName);
  const record = index.get(objectID)! as Record<string, Json>;
  const options: HighlightOptions = { preTag: '<em>', postTag: '</em>', words };
  const out: Record<string, unknown> = {};
  for (const spec of SNIPPETS) {
    const [name, size] = spec.split(':');
    if (record[name] != null) out[name] = mapLeaves(record[name], (t) => snippetText(index.coreIndex, t, Number(size), '…', options, index.indexesWhole(name)));
  }
  return out;
}

/** The highlight of every attribute of a hit, each value highlighted in full by the core (the way without the forward lists). */
function fullHighlight(indexName: string, objectID: string, highlighted: string[], words: string[]): Record<string, unknown> {
  const index = engine.catalog.index(indexName);
  const record = index.get(objectID)! as Record<string, Json>;
  const options: HighlightOptions = { preTag: '<em>', postTag: '</em>', words };
  return Object.fromEntries(highlighted.map((a) => [a, mapLeaves(record[a], (t) => highlightText(index.coreIndex, t, options, index.indexesWhole(a)))]));
}

describe('highlighting from the forward lists', () => {
  for (const indexName of ['listed', 'every']) {
    it(`${indexName}: every answer equals full highlighting, and values of unmatched attributes are never tokenised`, async () => {
      const tokenised = vi.spyOn(CoreIndex.prototype, 'highlightTexts');
      /** Leaves of the answers highlighted without the core. */
      let spared = 0;
      let checked = 0;
      let cutAndMarked = 0;
      for (const query of queries()) {
        tokenised.mockClear();
        const r = await send('POST', `/1/indexes/${indexName}/query`, { query, hitsPerPage: 20, attributesToSnippet: SNIPPETS });
        expect(r.status).toBe(200);
        const hits = (r.body as { hits: Array<{ objectID: string; _highlightResult: Record<string, unknown>; _snippetResult: Record<string, unknown> }> }).hits;
        const leaves = hits.reduce((n, hit) => n + JSON.stringify(hit._highlightResult).split('"matchLevel"').length - 1, 0);
        // one call per page at most, of the values the core must tokenise
        expect(tokenised.mock.calls.length).toBeLessThanOrEqual(1);
        const snippeted = hits.reduce((n, hit) => n + JSON.stringify(hit._snippetResult).split('"matchLevel"').length - 1, 0);
        spared += leaves + snippeted - tokenised.mock.calls.reduce((n, [texts]) => n + texts.length, 0);
        for (const hit of hits) {
          // the core still holds this search's marks: nothing else ran on it since
          expect(hit._highlightResult, `${query} → ${hit.objectID}`).toEqual(fullHighlight(indexName, hit.objectID, Object.keys(hit._highlightResult), query.split(' ')));
          expect(hit._snippetResult, `snippets: ${query} → ${hit.objectID}`).toEqual(fullSnippets(indexName, hit.objectID, query.split(' ')));
          if (/….*<em>|<em>.*…/.test(JSON.stringify(hit._snippetResult))) cutAndMarked++;
          checked++;
        }
      }
      tokenised.mockRestore();
      expect(checked).toBeGreaterThan(500);
      // the snippets compared were cut and marked, not only whole values
      expect(cutAndMarked).toBeGreaterThan(100);
      expect(spared).toBeGreaterThan(checked);
    });
  }

  it('answers leaves as plain objects, their keys in the order of the wire', async () => {
    // leaves are not made from literals (see newLeaf): in process they must still be what JSON.parse would give
    const r = await send('POST', '/1/indexes/listed/query', { query: 'giver', attributesToSnippet: ['description:8'] });
    const hit = r.body.hits[0];
    const keysOf = (leaves: unknown) => Object.values(leaves as object).flat().map((leaf: object) => {
      expect(Object.getPrototypeOf(leaf)).toBe(Object.prototype);
      return Object.keys(leaf).join(',');
    });
    const highlighted = keysOf(hit._highlightResult);
    expect(highlighted).toContain('value,matchLevel,matchedWords,fullyHighlighted');
    expect(highlighted).toContain('value,matchLevel,matchedWords');
    expect(new Set(highlighted).size).toBe(2);
    expect(keysOf(hit._snippetResult)).toEqual(['value,matchLevel']);
  });

  it('answers the ids of the attributes holding a marked term, and nothing for a record removed since', async () => {
    const index = engine.catalog.index('listed');
    const giver = talks.find((t) => /giver/i.test(t.name))!;
    await send('POST', '/1/indexes/listed/query', { query: 'giver' });
    const id = index.idOf(giver.objectID)!;
    const [marked] = index.coreIndex.markedAttributes([id])!;
    expect([...marked]).toContain(index.attributeIds(['name'])[0]);
    expect([...marked]).not.toContain(index.attributeIds(['speakers'])[0]);
    await send('DELETE', `/1/indexes/listed/${giver.objectID}`);
    await engine.waitForTasks();
    await send('POST', '/1/indexes/listed/query', { query: 'giver' });
    expect([...index.coreIndex.markedAttributes([id])![0]]).toEqual([]);
  });
});
