import { it } from 'vitest';
import { Lantern } from '../src/lantern.js';
import { readFixture, talksSettings } from './api/helpers.js';
it('explore', async () => {
  const engine = await Lantern.open({});
  const c = engine.client();
  await c.setSettings({ indexName: 'talks', indexSettings: talksSettings() });
  await c.saveObjects({ indexName: 'talks', objects: readFixture('talks.json') });
  await engine.waitForTasks();
  const show = async (p: any) => {
    const r = await c.searchSingleIndex({ indexName: 'talks', searchParams: p });
    const { hits, ...rest } = r;
    console.log(JSON.stringify(rest), '\n', hits.slice(0, 5).map((h: any) => [h.objectID, h.name, h.speakers, h.date, JSON.stringify(h._highlightResult?.speakers), JSON.stringify(h._rankingInfo)].join(' | ')).join('\n'));
  };
  await show({ query: 'adam giver', attributesToRetrieve: ['name', 'speakers', 'date'], getRankingInfo: true });
  await show({ query: '', attributesToRetrieve: ['name', 'speakers', 'date'], hitsPerPage: 5 });
  await show({ query: 'gvier', attributesToRetrieve: ['name'], getRankingInfo: true });
  await show({ query: 'brene brown', attributesToRetrieve: ['name', 'speakers'], getRankingInfo: true });
  await show({ query: 'ken robinson', attributesToRetrieve: ['name', 'speakers'], getRankingInfo: true, hitsPerPage: 3 });
  await show({ query: 'school', attributesToRetrieve: ['name'], hitsPerPage: 0 });
});
