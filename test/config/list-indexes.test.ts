// Listing indexes: every field of compatibility.md, pending tasks per index,
// 100 per page when a page is asked for.
import { describe, expect, it } from 'vitest';
import { openWithClient, readFixture } from '../api/helpers.js';

const talks: Array<Record<string, any>> = readFixture('talks.json');

describe('listing indexes', () => {
  it('every field, with pending tasks counted per index', async () => {
    const { engine, client } = await openWithClient();
    const before = Date.now();
    await client.setSettings({ indexName: 'talks', indexSettings: { replicas: ['talks_by_date'] } });
    await client.saveObjects({ indexName: 'talks', objects: talks, waitForTasks: true });
    await client.saveObjects({ indexName: 'other', objects: talks.slice(0, 10), waitForTasks: true });

    // three writes queued on `other`, none on `talks`
    for (let i = 0; i < 3; i++) await client.saveObject({ indexName: 'other', body: { objectID: `q${i}` } });
    const { items, nbPages } = await client.listIndices();
    const byName = Object.fromEntries(items.map((i: any) => [i.name, i]));
    expect(nbPages).toBe(1);
    expect(Object.keys(byName).sort()).toEqual(['other', 'talks', 'talks_by_date']);
    expect(byName.talks).toMatchObject({ entries: talks.length, numberOfPendingTasks: 0, pendingTask: false, replicas: ['talks_by_date'] });
    expect(byName.other).toMatchObject({ entries: 10, numberOfPendingTasks: 3, pendingTask: true });
    expect(byName.talks_by_date).toMatchObject({ entries: talks.length, primary: 'talks' });
    for (const item of items as any[]) {
      expect(Date.parse(item.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(item.updatedAt)).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
      expect(item.dataSize).toBeGreaterThan(0);
      expect(item.fileSize).toBeGreaterThan(0);
      expect(typeof item.lastBuildTimeS).toBe('number');
    }
    await engine.waitForTasks();
    expect((await client.listIndices()).items.find((i: any) => i.name === 'other')).toMatchObject({ entries: 13, numberOfPendingTasks: 0 });
  });

  it('100 per page when a page is given, all of them otherwise', async () => {
    const { engine, client, send } = await openWithClient();
    const names = Array.from({ length: 105 }, (_, i) => `index_${String(i).padStart(3, '0')}`);
    for (const indexName of names) await client.saveObject({ indexName, body: { objectID: '1' } });
    await engine.waitForTasks();
    expect((await client.listIndices()).items).toHaveLength(105);
    const first = await client.listIndices({ page: 0 });
    const second = await client.listIndices({ page: 1 });
    expect(first.items.map((i: any) => i.name)).toEqual(names.slice(0, 100));
    expect(second.items.map((i: any) => i.name)).toEqual(names.slice(100));
    expect([first.nbPages, second.nbPages]).toEqual([2, 2]);
    const bad = await send('GET', '/1/indexes?page=-1');
    expect(bad.status).toBe(400);
  });
});
