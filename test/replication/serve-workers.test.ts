// `lantern serve --workers 2` (dist/cli.js) over HTTP: reads answered by two
// worker threads holding replicas, writes by the main thread. Every answer
// a worker gave names it (`X-Lantern-Worker`), so each test checks that both
// workers answered what it asserts.
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type Served } from '../support/serve.js';

const APP = 'WORKERSAPP';
const KEY = 'workers-admin-key';

let served: Served;
let url: URL;

beforeAll(async () => {
  served = await startServe(['--memory', '--app-id', APP, '--admin-key', KEY, '--workers', '2']);
  url = new URL(served.url);
});

afterAll(() => served.stop());

const ADMIN = { 'x-algolia-application-id': APP, 'x-algolia-api-key': KEY };

interface Answer { status: number; worker: string | null; body: any }

async function call(method: string, path: string, body?: unknown, key = KEY): Promise<Answer> {
  const response = await fetch(new URL(path, url), {
    method, headers: { ...ADMIN, 'x-algolia-api-key': key }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, worker: response.headers.get('x-lantern-worker'), body: await response.json() };
}

const search = (indexName: string, params: Record<string, unknown>, key = KEY) => call('POST', `/1/indexes/${indexName}/query`, params, key);

async function waitForTask(indexName: string, taskID: number): Promise<void> {
  while ((await call('GET', `/1/indexes/${indexName}/task/${taskID}`)).body.status !== 'published') await new Promise((r) => setTimeout(r, 5));
}

/** `count` sequential searches: their answers, which must come from both workers. */
async function onBothWorkers(indexName: string, params: Record<string, unknown>, count = 4, key = KEY): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) answers.push(await search(indexName, params, key));
  expect(new Set(answers.map((a) => a.worker))).toEqual(new Set(['1', '2']));
  return answers;
}

const records = (from: number, count: number, word: string) =>
  Array.from({ length: count }, (_, i) => ({ objectID: String(from + i), title: `${word} record ${from + i}`, n: from + i }));

const batch = (indexName: string, objects: object[]) =>
  call('POST', `/1/indexes/${indexName}/batch`, { requests: objects.map((body) => ({ action: 'addObject', body })) });

describe('lantern serve --workers 2', () => {
  it('after waitForTask every worker answers the new state', async () => {
    // large batches: the replicas apply them in slices, as the writer does, so publishing early would show
    for (let round = 0; round < 6; round++) {
      const word = `round${round}`;
      const { body } = await batch('rounds', records(round * 3000, 3000, word));
      await waitForTask('rounds', body.taskID);
      const answers = await onBothWorkers('rounds', { query: word, hitsPerPage: 1, typoTolerance: false });
      for (const a of answers) expect([a.status, a.body.nbHits]).toEqual([200, 3000]);
      const all = await onBothWorkers('rounds', { query: '', hitsPerPage: 0 });
      for (const a of all) expect(a.body.nbHits).toBe((round + 1) * 3000);
    }
  }, 60_000);

  it('answers searches during concurrent writes, and every worker converges to the same answers', async () => {
    let writing = true;
    let lastTask = 0;
    const writer = (async () => {
      for (let b = 0; writing || b < 10; b++) {
        const { status, body } = await batch('busy', records(b * 500, 500, `w${b % 7}`));
        expect(status).toBe(200);
        lastTask = body.taskID;
      }
    })();
    const searched: Answer[] = [];
    const searcher = async () => {
      for (let i = 0; i < 40; i++) searched.push(await search('busy', { query: `w${i % 7}`, hitsPerPage: 5 }));
    };
    await Promise.all([searcher(), searcher(), searcher()]);
    writing = false;
    await writer;
    await waitForTask('busy', lastTask);
    // the index did not exist at the very start: 404 until the first batch is published, 200 after
    expect(searched.filter((a) => a.status !== 200 && a.status !== 404)).toEqual([]);
    expect(new Set(searched.filter((a) => a.status === 200).map((a) => a.worker))).toEqual(new Set(['1', '2']));
    const total = (await onBothWorkers('busy', { query: '' }))[0].body.nbHits;
    for (const query of ['w0', 'w3', 'record 42', '']) {
      const answers = await onBothWorkers('busy', { query, hitsPerPage: 20 });
      const shapes = answers.map((a) => JSON.stringify([a.body.nbHits, a.body.hits.map((h: { objectID: string }) => h.objectID)]));
      expect(new Set(shapes).size).toBe(1);
    }
    expect(total).toBeGreaterThanOrEqual(5000);
  }, 60_000);

  it('a key added is used at once on every worker, its restrictions applied there', async () => {
    const client = algoliasearch(APP, KEY, { hosts: [{ url: url.hostname, port: Number(url.port), protocol: 'http', accept: 'readWrite' }] });
    const { taskID } = await client.saveObjects({ indexName: 'keys', objects: records(0, 20, 'keyed') }).then((r) => r[0]);
    await client.waitForTask({ indexName: 'keys', taskID });
    const { key } = await client.addApiKey({ acl: ['search'], queryParameters: 'filters=n<5' });
    await client.waitForApiKey({ key, operation: 'add' });
    const answers = await onBothWorkers('keys', { query: 'keyed' }, 4, key);
    for (const a of answers) expect([a.status, a.body.nbHits]).toEqual([200, 5]);
    // and a key deleted is refused at once everywhere
    await client.deleteApiKey({ key });
    await client.waitForApiKey({ key, operation: 'delete' });
    for (let i = 0; i < 4; i++) expect((await search('keys', { query: 'keyed' }, key)).status).toBe(403);
  }, 30_000);

  it('the call log holds the searches workers answered', async () => {
    await waitForTask('logged', (await batch('logged', records(0, 5, 'logged'))).body.taskID);
    const queries = ['logged zero', 'logged one', 'logged two', 'logged three'];
    const workers = new Set<string | null>();
    for (const query of queries) workers.add((await search('logged', { query })).worker);
    expect(workers).toEqual(new Set(['1', '2']));
    const { body } = await call('GET', '/1/logs?length=20&indexName=logged');
    const logged = body.logs.filter((l: { url: string }) => l.url.endsWith('/query')).map((l: { query_body: string }) => JSON.parse(l.query_body).query);
    expect(logged).toEqual(expect.arrayContaining(queries));
  }, 30_000);

  it('what workers found is logged and counted, though responseFields leave nbHits out of their answers', async () => {
    await waitForTask('counted', (await batch('counted', records(0, 5, 'counted'))).body.taskID);
    const queries = ['counted', 'zzqxvw', 'counted', 'zzqxvw'];
    const answers = [];
    for (const query of queries) answers.push(await search('counted', { query, responseFields: ['hits'] }));
    expect(new Set(answers.map((a) => a.worker))).toEqual(new Set(['1', '2']));
    for (const answer of answers) expect(Object.keys(answer.body)).toEqual(['hits']);
    const { body } = await call('GET', '/1/logs?length=4&indexName=counted');
    expect(body.logs.map((l: { query_nb_hits: string }) => l.query_nb_hits)).toEqual(['0', '5', '0', '5']);
    const today = new Date().toISOString().slice(0, 10);
    const rate = await call('GET', `/2/searches/noResultRate?index=counted&startDate=${today}&endDate=${today}`);
    expect(rate.body).toMatchObject({ count: 4, noResultCount: 2, rate: 0.5 });
  }, 30_000);

  it('a rate limit counts the calls of every worker', async () => {
    await waitForTask('limited', (await batch('limited', records(0, 5, 'limited'))).body.taskID);
    const { body } = await call('POST', '/1/keys', { acl: ['search'], maxQueriesPerIPPerHour: 4 });
    await new Promise((r) => setTimeout(r, 50));
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await search('limited', { query: 'limited' }, body.key));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(new Set(answers.slice(0, 4).map((a) => a.worker))).toEqual(new Set(['1', '2']));
  }, 30_000);

  it('search events are recorded once, by the writer', async () => {
    await waitForTask('events', (await batch('events', records(0, 5, 'evented'))).body.taskID);
    for (let i = 0; i < 6; i++) await search('events', { query: `evented ${i % 2}`, clickAnalytics: true });
    const today = new Date().toISOString().slice(0, 10);
    const { body } = await call('GET', `/2/searches/count?index=events&startDate=${today}&endDate=${today}`);
    expect(body.count).toBe(6);
  }, 30_000);
});

describe('lantern serve --workers 2 --max-analytics-events 4', () => {
  it('workers keep the events the writer keeps: a personalised search ranks alike on each', async () => {
    const small = await startServe(['--memory', '--workers', '2', '--max-analytics-events', '4']);
    try {
      const base = new URL(small.url);
      const send = async (method: string, path: string, body: unknown) => {
        const response = await fetch(new URL(path, base), { method, body: JSON.stringify(body) });
        return { worker: response.headers.get('x-lantern-worker'), body: await response.json() };
      };
      await send('PUT', '/1/indexes/shop/settings', { attributesForFaceting: ['brand'] });
      await send('POST', '/1/strategies/personalization', {
        eventsScoring: [{ eventName: 'Clicked', eventType: 'click', score: 10 }], facetsScoring: [{ facetName: 'brand', score: 10 }], personalizationImpact: 100,
      });
      const click = (objectID: string) => ({ eventType: 'click', eventName: 'Clicked', index: 'shop', userToken: 'u', objectIDs: [objectID] });
      // six clicks on alpha, then four on beta: a room of four keeps beta's alone
      await send('POST', '/1/events', { events: Array.from({ length: 6 }, () => click('a')) });
      await new Promise((r) => setTimeout(r, 5));
      await send('POST', '/1/events', { events: Array.from({ length: 4 }, () => click('b')) });
      // published once both replicas applied it, and every event before it
      const { body } = await send('POST', '/1/indexes/shop/batch', { requests: [{ action: 'addObject', body: { objectID: 'a', title: 'shirt', brand: 'alpha' } }, { action: 'addObject', body: { objectID: 'b', title: 'shirt', brand: 'beta' } }] });
      while ((await fetch(new URL(`/1/indexes/shop/task/${body.taskID}`, base)).then((r) => r.json())).status !== 'published') await new Promise((r) => setTimeout(r, 5));
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await send('POST', '/1/indexes/shop/query', { query: 'shirt', userToken: 'u', enablePersonalization: true }));
      expect(new Set(answers.map((a) => a.worker))).toEqual(new Set(['1', '2']));
      expect(answers.map((a) => a.body.hits.map((h: { objectID: string }) => h.objectID))).toEqual(Array(4).fill(['b', 'a']));
    } finally {
      await small.stop();
    }
  }, 30_000);
});

describe('lantern serve --workers 1 (the default)', () => {
  it('answers everything on the main thread: no worker, nothing forwarded', async () => {
    const single = await startServe(['--memory', '--workers', '1']);
    try {
      const base = new URL(single.url);
      await fetch(new URL('/1/indexes/one/batch', base), { method: 'POST', body: JSON.stringify({ requests: [{ action: 'addObject', body: { objectID: '1', title: 'solo' } }] }) });
      await new Promise((r) => setTimeout(r, 100));
      const response = await fetch(new URL('/1/indexes/one/query', base), { method: 'POST', body: JSON.stringify({ query: 'solo' }) });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-lantern-worker')).toBeNull();
      expect((await response.json()).nbHits).toBe(1);
      expect(single.output()).not.toMatch(/worker threads/);
    } finally {
      await single.stop();
    }
  }, 30_000);

  it('refuses a --workers that is not a count, in one line', async () => {
    await expect(startServe(['--memory', '--workers', 'many'])).rejects.toThrow(/--workers needs a whole number from 1, or auto, not "many" \(lantern --help/);
  });
});
