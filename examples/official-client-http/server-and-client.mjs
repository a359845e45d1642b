// Lantern's REST API over HTTP (serve), and the official algoliasearch client
// talking to it as it would to the hosted service: only its hosts change.
import { algoliasearch } from 'algoliasearch';
import { Lantern } from 'lantern-search';
import { serve } from 'lantern-search/node';

const engine = await Lantern.open({ appId: 'APP', adminKey: 'ADMIN' });
const server = await serve(engine, { port: 0 });
// listening on a port (not a pipe), the server's address is an AddressInfo
const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());

const client = algoliasearch('APP', 'ADMIN', {
  hosts: [{ url: `127.0.0.1:${port}`, protocol: 'http', accept: 'readWrite' }],
});
await client.saveObjects({
  indexName: 'cities',
  objects: [{ objectID: 'par', name: 'Paris', country: 'France' }, { objectID: 'ber', name: 'Berlin', country: 'Germany' }],
  waitForTasks: true,
});
const { hits } = await client.searchSingleIndex({ indexName: 'cities', searchParams: { query: 'berln' } });
console.log(JSON.stringify({ port, first: hits[0]?.name }));

// a wrong key is refused as the service refuses it
const intruder = algoliasearch('APP', 'WRONG', { hosts: [{ url: `127.0.0.1:${port}`, protocol: 'http', accept: 'readWrite' }] });
const refused = await intruder.searchSingleIndex({ indexName: 'cities', searchParams: { query: 'paris' } }).catch((e) => e.status);
console.log(JSON.stringify({ refused }));

server.close();
await engine.close();
