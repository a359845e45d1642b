// What must not compile: each line below is one error the consumer test counts.
import { Lantern } from 'lantern-search';

const client = (await Lantern.open()).client();
await client.searchSingleIndx({ indexName: 'talks' });
await client.searchSingleIndex({ indexNme: 'talks' });
await client.saveObjects({ indexName: 'talks', objects: 'not a list' });
