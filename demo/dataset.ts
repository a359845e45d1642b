// The TED talks dataset of the demo: on the first visit it is imported into
// the engine (and so into IndexedDB) with its real settings (search-box
// settings inferred from the talks in place of its searchable attributes), a replica per
// date order and a query suggestions index; later visits find it there.
import type { RemoteLantern } from '../src/worker-client.js';
import { searchBoxSettings, type SearchBoxSettings } from '../src/index/search-box-settings.js';

export const TALKS = 'talks';
export const TALKS_OLDEST_FIRST = 'talks_date_asc';
export const TALKS_NEWEST_FIRST = 'talks_date_desc';
export const SUGGESTIONS = 'talks_query_suggestions';

const BATCH = 250;

type Talk = Record<string, unknown> & { objectID: string; tags?: string[] };
type Settings = Record<string, unknown>;
export interface Manifest { talks: number }

export type Progress = (done: number, total: number) => void;

async function fetchJson<T>(file: string): Promise<T> {
  const response = await fetch(new URL(`data/${file}`, document.baseURI));
  if (!response.ok) throw new Error(`data/${file}: HTTP ${response.status}`);
  return response.json() as Promise<T>;
}

export interface Inventory {
  /** The talks index holds the whole dataset (it is written last, so an import cut short is redone). */
  imported: boolean;
  indexes: Set<string>;
}

export async function inventory(engine: RemoteLantern): Promise<Inventory> {
  const [manifest, { items }] = await Promise.all([
    fetchJson<Manifest>('manifest.json'),
    engine.client().listIndices() as Promise<{ items: Array<{ name: string; entries: number }> }>,
  ]);
  return {
    imported: items.some((index) => index.name === TALKS && index.entries === manifest.talks),
    indexes: new Set(items.map((index) => index.name)),
  };
}

/**
 * The dataset's settings (facets, ranking) with search-box settings
 * inferred from the talks in place of its own searchable attributes (its
 * legacy `attributesToIndex`): every text attribute, the description (which
 * the demo snippets) last, and the recipe, as `lantern import` does without
 * --settings.
 */
function searchBox({ attributesToIndex: _own, ...settings }: Settings, inferred: SearchBoxSettings): Settings {
  return { ...settings, ...inferred };
}

/** The replica settings of the dataset with the date order first, so a date sort is a date sort. */
function byDate(replica: Settings, order: 'asc' | 'desc', inferred: SearchBoxSettings): Settings {
  const { master: _primary, ranking, ...settings } = searchBox(replica, inferred);
  const relevance = (ranking as string[]).filter((criterion) => !/^(asc|desc)\(/.test(criterion));
  return { ...settings, ranking: [`${order}(date)`, ...relevance], customRanking: null };
}

/** Each tag is a suggested query, as popular as the number of talks carrying it. */
export function suggestionsFrom(talks: Talk[]): Array<{ objectID: string; query: string; popularity: number }> {
  const counts = new Map<string, number>();
  for (const talk of talks) for (const tag of talk.tags ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts].map(([query, popularity]) => ({ objectID: query, query, popularity }));
}

async function write(engine: RemoteLantern, indexName: string, records: object[], onRecords: (n: number) => void): Promise<void> {
  const client = engine.client();
  for (let i = 0; i < records.length; i += BATCH) {
    const requests = records.slice(i, i + BATCH).map((body) => ({ action: 'addObject' as const, body: body as Record<string, unknown> }));
    const { taskID } = await client.batch({ indexName, batchWriteParams: { requests } });
    await client.waitForTask({ indexName, taskID });
    onRecords(Math.min(BATCH, records.length - i));
  }
}

export async function importDataset(engine: RemoteLantern, progress: Progress): Promise<void> {
  const client = engine.client();
  const [talks, settings, replica] = await Promise.all([
    fetchJson<Talk[]>('talks.json'),
    fetchJson<Settings>('talks_settings.json'),
    fetchJson<Settings>('talks_date_asc_settings.json'),
  ]);
  const suggestions = suggestionsFrom(talks);
  const inferred = searchBoxSettings(talks);
  const total = talks.length + suggestions.length;
  let done = 0;
  const advance = (n: number) => progress((done += n), total);
  progress(0, total);

  const { slaves: _replicas, ...primary } = settings;
  const wait = async (indexName: string, { taskID }: { taskID: number }) => client.waitForTask({ indexName, taskID });
  await wait(SUGGESTIONS, await client.setSettings({ indexName: SUGGESTIONS, indexSettings: { searchableAttributes: ['query'], customRanking: ['desc(popularity)'] } }));
  await write(engine, SUGGESTIONS, suggestions, advance);
  await wait(TALKS, await client.setSettings({ indexName: TALKS, indexSettings: { ...searchBox(primary, inferred), replicas: [TALKS_OLDEST_FIRST, TALKS_NEWEST_FIRST] } }));
  await wait(TALKS_OLDEST_FIRST, await client.setSettings({ indexName: TALKS_OLDEST_FIRST, indexSettings: byDate(replica, 'asc', inferred) }));
  await wait(TALKS_NEWEST_FIRST, await client.setSettings({ indexName: TALKS_NEWEST_FIRST, indexSettings: byDate(replica, 'desc', inferred) }));
  await write(engine, TALKS, talks, advance);
  // the next visit loads one snapshot instead of replaying every write
  await engine.snapshot();
}
