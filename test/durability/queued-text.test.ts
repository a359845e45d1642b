// A large batch runs as it was given, each record beside its logged bytes
// (src/durability/batch-text.ts): what is applied must be what a replay of
// the log applies, even where an in-process caller sent members JSON has
// no text for.
import { rmSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { Lantern } from '../../src/index.js';
import { fsStorage } from '../../src/node.js';
import { tempDir } from '../persistence/helpers.js';

const dirs: string[] = [];
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

it('a large batch is applied as the log holds it: the same records before and after a restart', async () => {
  const dir = tempDir();
  dirs.push(dir);
  // an in-process caller may send members JSON has no text for (undefined): the log drops them
  const requests = Array.from({ length: 300 }, (_, i) => ({ action: 'addObject', body: { objectID: String(i), title: `talk ${i}`, dropped: undefined } }));
  let engine = await Lantern.open({ storage: fsStorage(dir) });
  const sent = await engine.request({ method: 'POST', path: '/1/indexes/talks/batch', body: { requests } });
  expect(sent.status).toBe(200);
  await engine.waitForTasks();
  const live = (await engine.request({ method: 'GET', path: '/1/indexes/talks/7' })).body as Record<string, unknown>;
  await engine.close();
  engine = await Lantern.open({ storage: fsStorage(dir) });
  const replayed = (await engine.request({ method: 'GET', path: '/1/indexes/talks/7' })).body as Record<string, unknown>;
  await engine.close();
  expect(Object.keys(live).sort()).toEqual(['objectID', 'title']);
  expect(live).toEqual(replayed);
});
