// The engine in this process, its data in a folder of the system's temp
// directory (an app keeps it with its other data): index a few talks, search
// them with a typo, and find them again on the next run.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Lantern } from 'lantern-search';
import { fsStorage } from 'lantern-search/node';

const dataDir = process.argv[2] ?? join(tmpdir(), 'lantern-example-node-in-process');
const engine = await Lantern.open({ storage: fsStorage(dataDir) });
const client = engine.client();

const talks = [
  { objectID: '2652', name: 'Are you a giver or a taker?', speakers: ['Adam Grant'], tags: ['work', 'business'] },
  { objectID: '1', name: 'Do schools kill creativity?', speakers: ['Ken Robinson'], tags: ['education', 'creativity'] },
  { objectID: '2', name: 'The power of vulnerability', speakers: ['Brené Brown'], tags: ['psychology'] },
];
const { items } = await client.listIndices();
const firstRun = !items.some((index) => index.name === 'talks');
if (firstRun) {
  await client.setSettings({ indexName: 'talks', indexSettings: { searchableAttributes: ['name', 'speakers'], attributesForFaceting: ['searchable(tags)'] } });
  await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
}

const { hits, nbHits } = await client.searchSingleIndex({ indexName: 'talks', searchParams: { query: 'gvier', facets: ['tags'] } });
const highlight = hits[0]?._highlightResult?.name;
console.log(JSON.stringify({ firstRun, nbHits, first: hits[0]?.name, highlighted: isHighlightedText(highlight) ? highlight.value : undefined }));
await engine.close();

/**
 * Whether an attribute's highlight is a text's (a string attribute's: it has
 * the highlighted `value`); an array's or an object's holds one per item.
 * @param {unknown} highlight
 * @returns {highlight is { value: string }}
 */
function isHighlightedText(highlight) {
  return typeof highlight === 'object' && highlight !== null && 'value' in highlight && typeof highlight.value === 'string';
}
