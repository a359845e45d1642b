// browse with `page`: the service answers that page (hitsPerPage records
// after `page` pages), with a cursor only while records remain after it; the
// official helpers (v3 browseAll, v4 browseObjects, v5 browseObjects) given a
// page and a page size then end, each record read once. Against `lantern
// serve`'s HTTP server (v3, v4) and the in-process requester (v5), on 2,500
// records.
//
// Properties:
// 1. POST and GET browse with page p answer page p (the records a search by
//    pages would skip, in browse order), its page number, and a cursor that
//    continues after it; the last page has no cursor, a page past the end no hits;
// 2. the three helpers complete with page 0 and a page size, every record once;
// 3. a helper started at page 2 reads every record but the first two pages.
import algoliasearchV3 from 'algoliasearch-v3';
import algoliasearchV4 from 'algoliasearch-v4';
import { algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lanternRequester } from '../../src/requester.js';
import { ADMIN_KEY, APP_ID, startLantern, type Running } from './products.js';

const TOTAL = 2500;
const RECORDS = Array.from({ length: TOTAL }, (_, i) => ({ objectID: `r${i}`, title: `record ${i}`, group: i % 3 === 0 ? 'three' : 'other' }));
const ALL_IDS = RECORDS.map((r) => r.objectID).sort();

let lantern: Running;

const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'application/json' };

async function browse(body: Record<string, unknown>): Promise<{ hits: Array<{ objectID: string }>; cursor?: string; page: number; nbHits: number }> {
  const response = await fetch(`${lantern.origin}/1/indexes/pages/browse`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.json();
}

/** Every record in browse order, by cursor from the start. */
async function browseOrder(): Promise<string[]> {
  const ids: string[] = [];
  let page = await browse({ hitsPerPage: 1000 });
  ids.push(...page.hits.map((h) => h.objectID));
  while (page.cursor) {
    page = await browse({ cursor: page.cursor });
    ids.push(...page.hits.map((h) => h.objectID));
  }
  return ids;
}

beforeAll(async () => {
  lantern = await startLantern();
  const client = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(lantern.engine) });
  await client.setSettings({ indexName: 'pages', indexSettings: { attributesForFaceting: ['group'] } });
  await client.saveObjects({ indexName: 'pages', objects: RECORDS });
  await lantern.engine.waitForTasks();
});

afterAll(() => lantern?.close());

describe('browse with page', () => {
  it('answers the page asked for, with a cursor while records remain after it', async () => {
    const order = await browseOrder();
    expect([...order].sort()).toEqual(ALL_IDS);
    const third = await browse({ page: 3, hitsPerPage: 200 });
    expect(third.page).toBe(3);
    expect(third.hits.map((h) => h.objectID)).toEqual(order.slice(600, 800));
    expect(typeof third.cursor).toBe('string');
    const next = await browse({ cursor: third.cursor });
    expect(next.page).toBe(4);
    expect(next.hits.map((h) => h.objectID)).toEqual(order.slice(800, 1000));
    const viaGet = await fetch(`${lantern.origin}/1/indexes/pages/browse?page=3&hitsPerPage=200`, { headers });
    expect((await viaGet.json()).hits.map((h: { objectID: string }) => h.objectID)).toEqual(order.slice(600, 800));
    const last = await browse({ page: 12, hitsPerPage: 200 });
    expect(last.hits.map((h) => h.objectID)).toEqual(order.slice(2400));
    expect(last.cursor).toBeUndefined();
    const past = await browse({ page: 13, hitsPerPage: 200 });
    expect(past.hits).toEqual([]);
    expect(past.cursor).toBeUndefined();
    expect(past.nbHits).toBe(TOTAL);
  });

  it('pages filtered records the same way', async () => {
    const filtered = await browse({ filters: 'group:three', page: 1, hitsPerPage: 500 });
    expect(filtered.nbHits).toBe(834);
    expect(filtered.hits).toHaveLength(334);
    expect(filtered.cursor).toBeUndefined();
  });

  it('v3 browseAll completes with page and hitsPerPage, every record once', async () => {
    const client = algoliasearchV3(APP_ID, ADMIN_KEY, { hosts: [`127.0.0.1:${lantern.port}`], protocol: 'http:', _useCache: false } as never);
    const index = client.initIndex('pages');
    const seen: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const browser = index.browseAll('', { page: 0, hitsPerPage: 300 });
      browser.on('result', (r: { hits: Array<{ objectID: string }> }) => seen.push(...r.hits.map((h) => h.objectID)));
      browser.on('end', () => resolve());
      browser.on('error', reject);
    });
    expect(seen.sort()).toEqual(ALL_IDS);
  });

  it('v4 browseObjects completes with page and hitsPerPage, every record once', async () => {
    const client = algoliasearchV4(APP_ID, ADMIN_KEY, { hosts: [{ url: `127.0.0.1:${lantern.port}`, protocol: 'http' }] });
    const seen: string[] = [];
    await client.initIndex('pages').browseObjects({ page: 0, hitsPerPage: 300, batch: (hits: Array<{ objectID: string }>) => seen.push(...hits.map((h) => h.objectID)) } as never);
    expect(seen.sort()).toEqual(ALL_IDS);
  });

  it('v5 browseObjects completes with page and hitsPerPage, every record once', async () => {
    const client = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(lantern.engine) });
    const seen: string[] = [];
    await client.browseObjects({ indexName: 'pages', browseParams: { page: 0, hitsPerPage: 300 }, aggregator: (r) => seen.push(...r.hits.map((h) => h.objectID)) });
    expect(seen.sort()).toEqual(ALL_IDS);
  });

  it('a helper started at page 2 reads the records after the first two pages', async () => {
    const order = await browseOrder();
    const client = algoliasearch(APP_ID, ADMIN_KEY, { requester: lanternRequester(lantern.engine) });
    const seen: string[] = [];
    await client.browseObjects({ indexName: 'pages', browseParams: { page: 2, hitsPerPage: 400 }, aggregator: (r) => seen.push(...r.hits.map((h) => h.objectID)) });
    expect(seen).toEqual(order.slice(800));
  });
});
