// The README's Node quickstart, as a strict TypeScript user writes it: its
// records declared as an interface (no index signature), no "types" listed.
import { algoliasearch } from 'algoliasearch';
import { Lantern, lanternRequester, type LanternClient } from 'lantern-search';
import { fsStorage } from 'lantern-search/node';

interface Talk { objectID: string; name: string; speakers: string[]; tags: string[] }

const engine = await Lantern.open({ appId: 'APP', adminKey: 'ADMIN', storage: fsStorage(process.argv[2] ?? './data') });
const client: LanternClient = engine.client();
await client.setSettings({ indexName: 'talks', indexSettings: { searchableAttributes: ['name', 'speakers'], attributesForFaceting: ['searchable(tags)'] } });
const talk: Talk = { objectID: '2652', name: 'Are you a giver or a taker?', speakers: ['Adam Grant'], tags: ['work'] };
const talks: Talk[] = [talk];
await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
const { hits, facets } = await client.searchSingleIndex<Talk>({ indexName: 'talks', searchParams: { query: 'gvier', filters: 'tags:work', facets: ['tags'] } });
const first: string | undefined = hits[0]?.name;

const res = await engine.request({
  method: 'POST', path: '/1/indexes/talks/query',
  headers: { 'X-Algolia-Application-Id': 'APP', 'X-Algolia-API-Key': 'ADMIN' },
  body: { params: 'query=giver&hitsPerPage=5' },
});

// the official client, answered in-process
const official = algoliasearch('APP', 'ADMIN', { requester: lanternRequester(engine) });
const viaOfficial = await official.searchSingleIndex<Talk>({ indexName: 'talks', searchParams: { query: 'giver' } });
console.log(JSON.stringify({ first, facets, status: res.status, official: viaOfficial.hits[0]?.objectID }));
await engine.close();
