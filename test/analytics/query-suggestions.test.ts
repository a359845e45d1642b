// Query suggestions through the official client's query suggestions
// sub-client: searches of the TED talks sent by many users, a build, and the
// suggestions index checked against figures computed here from those
// searches (minHits, minLetters, exclude, plurals, facets, generate); the
// index searched as-you-type; the build log, status, validation, persistence.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Lantern } from '../../src/lantern.js';
import { ADMIN_HEADERS, expectError, sender } from '../api/helpers.js';
import { cleanup, closeEngine, openAt, tempDir } from '../persistence/helpers.js';
import { ADMIN_KEY, APP_ID, clientsFor, INDEX, loadTalks, openWithTalks, statusOf } from './helpers.js';

const SUGGESTIONS = 'talks_query_suggestions';
const GENERATED = 'talks_tag_suggestions';

/** How many users search each query (each search by a user of its own). */
const SEARCHED: Array<[string, number]> = [
  ['climate change', 4], ['giver', 3], ['ocean', 2], ['dreams', 2], ['dream', 1], ['music', 1],
  ['ai', 2], ['zzqxvw', 1], ['design', 2], ['politics', 1], ['is ai dangerous?', 1],
];
/** Typed by one user, keystroke after keystroke: only the final query counts. */
const KEYSTROKES = ['robo', 'robot'];
const CONFIG = {
  indexName: SUGGESTIONS,
  sourceIndices: [{ indexName: INDEX, minHits: 5, minLetters: 4, facets: [{ attribute: 'tags', amount: 2 }] }],
  languages: ['en'],
  exclude: ['design', 'poli.*'],
};
/** What the service calls special characters: anything but letters, digits, spaces, apostrophes and dashes. */
const SPECIAL = /[^\p{L}\p{N}\s'-]/u;
/** Singular and plural pairs among the searched queries (only the more searched one stays). */
const PLURALS = [['dream', 'dreams']];

/** A record of a suggestions index. */
interface Suggestion { query: string; popularity: number; nb_words: number; [sourceIndex: string]: unknown }

let engine: Lantern;
let c: ReturnType<typeof clientsFor>;
const popularity = new Map<string, number>();

const hitsOf = async (query: string) =>
  (await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query, analytics: false, hitsPerPage: 0 } })).nbHits ?? 0;

async function sendSearches(): Promise<void> {
  let user = 0;
  for (const [query, users] of SEARCHED) {
    for (let i = 0; i < users; i++) {
      const filters = query === 'ocean' && i === 0 ? 'tags:oceans' : undefined;
      await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query, userToken: `user${user++}`, ...(filters ? { filters } : {}) } });
    }
    popularity.set(query, users);
  }
  for (const query of KEYSTROKES) await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query, userToken: 'typist' } });
  popularity.set(KEYSTROKES.at(-1)!, 1);
}

/** The top `amount` tags of the talks a query finds, as the client's facet counts give them. */
async function topTags(query: string, amount: number) {
  const { facets } = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query, analytics: false, hitsPerPage: 0, facets: ['tags'] } });
  return Object.entries(facets!.tags).map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, amount);
}

async function browseAll(indexName: string) {
  const { hits } = await c.client.browse<Suggestion>({ indexName, browseParams: { hitsPerPage: 1000 } });
  return hits.sort((a, b) => (a.objectID < b.objectID ? -1 : 1));
}

/** The whole build log: JSON Lines, as a caller that does not ask for JSON gets it (the official client gets its last line). */
async function logOf(indexName: string): Promise<Array<Record<string, any>>> {
  const response = await engine.request({ method: 'GET', path: `/1/logs/${indexName}`, headers: ADMIN_HEADERS });
  return (response.body as string).trimEnd().split('\n').map((line) => JSON.parse(line));
}
const skipped = (log: Array<Record<string, any>>) => log.filter((l) => l.level === 'SKIP').map((l) => l.message as string);

beforeAll(async () => {
  engine = await openWithTalks();
  c = clientsFor(engine);
  await sendSearches();
  await c.querySuggestions.createConfig(CONFIG);
  await engine.buildQuerySuggestions(SUGGESTIONS);
});
afterAll(() => engine.close());

describe('the suggestions index', () => {
  it('holds the popular searches that pass minLetters, exclude, special characters, minHits and plurals', async () => {
    const expected = [];
    for (const [query, count] of popularity) {
      const excluded = CONFIG.exclude.some((p) => new RegExp(`^(?:${p})$`).test(query));
      const lessPopularPlural = PLURALS.some((pair) => pair.includes(query) && pair.some((other) => (popularity.get(other) ?? 0) > count));
      if (query.length < 4 || excluded || SPECIAL.test(query) || lessPopularPlural) continue;
      const nbHits = await hitsOf(query);
      if (nbHits < 5) continue;
      const analytics = query === 'ocean' ? [{ attribute: 'tags', operator: ':', value: 'oceans', count: 1 }] : [];
      expected.push({
        objectID: query, query, nb_words: query.split(' ').length, popularity: count,
        [INDEX]: { exact_nb_hits: nbHits, facets: { exact_matches: { tags: await topTags(query, 2) }, analytics: { tags: analytics } } },
      });
    }
    expect(expected.map((r) => r.query).sort()).toEqual(['climate change', 'dreams', 'giver', 'music', 'ocean', 'robot']);
    expect(await browseAll(SUGGESTIONS)).toEqual(expected.sort((a, b) => (a.objectID < b.objectID ? -1 : 1)));
  });

  it('is searched as-you-type, the most popular first', async () => {
    const first = async (query: string) => (await c.client.searchSingleIndex<Suggestion>({ indexName: SUGGESTIONS, searchParams: { query } })).hits[0]?.query;
    expect([await first('clim'), await first('gi'), await first('oce'), await first('rob')]).toEqual(['climate change', 'giver', 'ocean', 'robot']);
    const { hits } = await c.client.searchSingleIndex<Suggestion>({ indexName: SUGGESTIONS, searchParams: { query: '' } });
    expect(hits.map((h) => h.popularity)).toEqual(hits.map((h) => h.popularity).sort((a, b) => b - a));
    expect(hits.slice(0, 2).map((h) => h.query)).toEqual(['climate change', 'giver']);
  });

  it('generate: facet values become suggestions, with the popularity of their searches', async () => {
    await c.querySuggestions.createConfig({ indexName: GENERATED, sourceIndices: [{ indexName: INDEX, minHits: 30, generate: [['tags']] }] });
    // the build runs in the background: a search is answered while it is under way
    await hitsOf('giver');
    expect(engine.analytics.suggestions.status(GENERATED).isRunning).toBe(true);
    await engine.buildQuerySuggestions(GENERATED);

    const { facets } = await c.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: '', hitsPerPage: 0, facets: ['tags'], maxValuesPerFacet: 1000, analytics: false } });
    const candidates = new Set([...Object.keys(facets!.tags).map((t) => t.toLowerCase()), ...popularity.keys()]);
    const expected = new Map<string, number>();
    for (const query of candidates) {
      if (query.length >= 4 && !SPECIAL.test(query) && (await hitsOf(query)) >= 30) expected.set(query, popularity.get(query) ?? 0);
    }
    const records = await browseAll(GENERATED);
    expect(new Map(records.map((r) => [r.query, r.popularity]))).toEqual(expected);
    expect(expected.get('climate change')).toBe(4);
    expect(skipped(await logOf(GENERATED))).toContain('skipping query "ai": not enough letters, got 2, expected 4');
  });
});

describe('status and log', () => {
  it('status: running while a build is under way, then the times of the last build', async () => {
    const build = engine.buildQuerySuggestions(SUGGESTIONS);
    expect(engine.analytics.suggestions.status(SUGGESTIONS).isRunning).toBe(true);
    await build;
    const status = await c.querySuggestions.getConfigStatus({ indexName: SUGGESTIONS });
    expect(status).toEqual({
      indexName: SUGGESTIONS, isRunning: false, lastBuiltAt: expect.any(String),
      lastSuccessfulBuiltAt: status.lastBuiltAt, lastSuccessfulBuildDuration: expect.stringMatching(/^\d+\.\d{3}$/),
    });
    expect(new Date(status.lastBuiltAt!).toISOString()).toBe(status.lastBuiltAt);
  });

  it('the log: a SKIP line per refused query, with its reason, under its source index', async () => {
    const log = await logOf(SUGGESTIONS);
    expect(skipped(log).sort()).toEqual([
      'skipping query "ai": not enough letters, got 2, expected 4',
      'skipping query "design": excluded by "design"',
      'skipping query "dream": plural variant of "dreams", which is at least as popular',
      'skipping query "is ai dangerous?": special characters are not allowed',
      'skipping query "politics": excluded by "poli.*"',
      `skipping query "zzqxvw": not enough search results, got ${await hitsOf('zzqxvw')}, expected 5`,
    ]);
    expect(log[0]).toMatchObject({ level: 'INFO', contextLevel: 0 });
    expect(log.at(-1)).toMatchObject({ level: 'INFO', contextLevel: 0, message: '6 suggestions built' });
    log.forEach((line, i) => {
      expect(Object.keys(line).sort()).toEqual(['contextLevel', 'level', 'message', 'timestamp']);
      expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp);
      expect(line.contextLevel).toBeLessThanOrEqual(i === 0 ? 0 : log[i - 1].contextLevel + 1);
    });
    const sourceLine = log.findIndex((l) => l.message === `source index "${INDEX}"`);
    expect(log[sourceLine].contextLevel).toBe(1);
    expect(log.findIndex((l) => l.message.startsWith('skipping query "ai"'))).toBeGreaterThan(sourceLine);
  });

  it('the log is JSON Lines for a caller that does not ask for JSON', async () => {
    const response = await engine.request({ method: 'GET', path: `/1/logs/${SUGGESTIONS}`, headers: ADMIN_HEADERS });
    expect(response.headers?.['content-type']).toMatch(/^application\/x-ndjson/);
    const text = response.body as string;
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThan(2);
    // the official client asks for JSON: the spec's one log entry, the last, which says how the build ended
    expect(await c.querySuggestions.getLogFile({ indexName: SUGGESTIONS })).toEqual(lines.at(-1));
  });

  it('a missing source index is an ERROR line; the index keeps its records', async () => {
    const before = await browseAll(GENERATED);
    await c.querySuggestions.updateConfig({ indexName: GENERATED, configuration: { sourceIndices: [{ indexName: 'no_such_index' }] } });
    await engine.buildQuerySuggestions(GENERATED);
    const log = await logOf(GENERATED);
    expect(log.filter((l) => l.level === 'ERROR').map((l) => l.message)).toContain('source index "no_such_index" does not exist');
    const status = await c.querySuggestions.getConfigStatus({ indexName: GENERATED });
    expect(status.lastSuccessfulBuiltAt! < status.lastBuiltAt!).toBe(true);
    expect(await browseAll(GENERATED)).toEqual(before);
  });
});

describe('configurations', () => {
  it('read back with the defaults filled in; what a GET answers can be PUT back', async () => {
    const config = await c.querySuggestions.getConfig({ indexName: SUGGESTIONS });
    expect(config).toEqual({
      appID: APP_ID, ...CONFIG, enablePersonalization: false, allowSpecialCharacters: false,
      sourceIndices: [{ ...CONFIG.sourceIndices[0], replicas: false, analyticsTags: null, generate: null, external: null }],
    });
    await c.querySuggestions.updateConfig({ indexName: SUGGESTIONS, configuration: config });
    expect(await c.querySuggestions.getConfig({ indexName: SUGGESTIONS })).toEqual(config);
    expect((await c.querySuggestions.getAllConfigs()).map((x) => x.indexName).sort()).toEqual([SUGGESTIONS, GENERATED].sort());
    await engine.buildQuerySuggestions(SUGGESTIONS);
  });

  it('an update rebuilds with the new rules; a delete stops updates and keeps the index', async () => {
    await c.querySuggestions.updateConfig({ indexName: SUGGESTIONS, configuration: { sourceIndices: [{ indexName: INDEX, minHits: 70 }] } });
    await engine.buildQuerySuggestions(SUGGESTIONS);
    const kept = [];
    for (const query of popularity.keys()) if (query.length >= 4 && !SPECIAL.test(query) && (await hitsOf(query)) >= 70) kept.push(query);
    const records = await browseAll(SUGGESTIONS);
    expect(records.map((r) => r.query).sort()).toEqual(kept.sort());

    const { message } = await c.querySuggestions.deleteConfig({ indexName: SUGGESTIONS });
    expect(message).toMatch(/deleted/);
    expect(await statusOf(c.querySuggestions.getConfig({ indexName: SUGGESTIONS }))).toBe(404);
    expect(await browseAll(SUGGESTIONS)).toEqual(records);
    // the spec's PUT creates it again
    await c.querySuggestions.updateConfig({ indexName: SUGGESTIONS, configuration: CONFIG });
    await engine.buildQuerySuggestions(SUGGESTIONS);
    expect((await browseAll(SUGGESTIONS)).length).toBe(6);
  });

  it('invalid configurations are 400 with a message; a duplicate is 422; unknown names 404', async () => {
    const create = (body: Record<string, unknown>) => statusOf(c.querySuggestions.createConfig(body as never));
    const source = { indexName: INDEX };
    expect(await create({ indexName: 'qs_a', sourceIndices: [] })).toBe(400);
    expect(await create({ indexName: 'qs_a' })).toBe(400);
    expect(await create({ sourceIndices: [source] })).toBe(400);
    expect(await create({ indexName: 'qs_a', sourceIndices: [{ ...source, minHits: -1 }] })).toBe(400);
    expect(await create({ indexName: 'qs_a', sourceIndices: [{ ...source, minLetters: 'four' }] })).toBe(400);
    expect(await create({ indexName: 'qs_a', sourceIndices: [{ ...source, colour: 'red' }] })).toBe(400);
    expect(await create({ indexName: 'qs_a', sourceIndices: [{ ...source, facets: [{ amount: 2 }] }] })).toBe(400);
    expect(await create({ indexName: 'qs_a', sourceIndices: [source], exclude: ['(unclosed'] })).toBe(400);
    expect(await create({ indexName: INDEX, sourceIndices: [source] })).toBe(400);
    expect(await create({ indexName: 'qs_a', sourceIndices: [source], languages: 'en' })).toBe(400);
    expect(await create({ indexName: GENERATED, sourceIndices: [source] })).toBe(422);
    const send = sender(engine);
    expectError(await send('POST', '/1/configs', { indexName: GENERATED, sourceIndices: [source] }), 422, /already exists/);
    expectError(await send('PUT', '/1/configs/qs_a', { indexName: 'qs_b', sourceIndices: [source] }), 400, /differs/);
    expectError(await send('GET', '/1/configs/qs_none'), 404);
    expectError(await send('GET', '/1/configs/qs_none/status'), 404);
    expectError(await send('DELETE', '/1/configs/qs_none'), 404);
    expectError(await send('GET', '/1/logs/qs_none'), 404);
    expect((await c.querySuggestions.getAllConfigs()).map((x) => x.indexName)).not.toContain('qs_a');
  });

  it('only the admin key manages query suggestions', async () => {
    const { key } = await c.client.addApiKey({ acl: ['search', 'settings', 'editSettings', 'analytics'] });
    const other = clientsFor(engine, '127.0.0.1', key).querySuggestions;
    expect(await statusOf(other.getAllConfigs())).toBe(403);
    expect(await statusOf(other.createConfig({ indexName: 'qs_c', sourceIndices: [{ indexName: INDEX }] }))).toBe(403);
  });
});

describe('persistence', () => {
  afterEach(cleanup);

  it('configurations, build outcomes and the suggestions index come back from the log, then from a snapshot', async () => {
    const dir = tempDir();
    const options = { appId: APP_ID, adminKey: ADMIN_KEY, snapshotEvery: 0 };
    const first = await openAt(dir, options);
    await loadTalks(first);
    const q = clientsFor(first);
    for (let i = 0; i < 3; i++) await q.client.searchSingleIndex({ indexName: INDEX, searchParams: { query: 'giver', userToken: `p${i}` } });
    await q.querySuggestions.createConfig({ indexName: SUGGESTIONS, sourceIndices: [{ indexName: INDEX }] });
    await first.buildQuerySuggestions(SUGGESTIONS);
    const fingerprint = async (e: Lantern) => {
      const x = clientsFor(e);
      return {
        configs: await x.querySuggestions.getAllConfigs(),
        status: await x.querySuggestions.getConfigStatus({ indexName: SUGGESTIONS }),
        log: await x.querySuggestions.getLogFile({ indexName: SUGGESTIONS }),
        asYouType: (await x.client.searchSingleIndex<Suggestion>({ indexName: SUGGESTIONS, searchParams: { query: 'giv' } })).hits.map((h) => [h.query, h.popularity]),
      };
    };
    const expected = await fingerprint(first);
    expect(expected.asYouType).toEqual([['giver', 3]]);
    await closeEngine(first);

    const fromLog = await openAt(dir, options);
    expect(await fingerprint(fromLog)).toEqual(expected);
    await fromLog.snapshot();
    await closeEngine(fromLog);

    const fromSnapshot = await openAt(dir, options);
    expect(await fingerprint(fromSnapshot)).toEqual(expected);
  }, 60_000);
});
