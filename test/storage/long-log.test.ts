// A long log (no snapshot for a long time, snapshotEvery: 0): opening one of
// 150,000 records reads and replays every record (spreading them into one
// push overflowed the call stack).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Lantern } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import { frame } from '../../src/storage/log-frames.js';

const dir = mkdtempSync(join(tmpdir(), 'lantern-long-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a log of 150,000 records opens whole', async () => {
  const records = 150_000;
  const op = (i: number) => ({ type: 'key', action: 'sources', sources: [{ source: `10.0.${i >> 8 & 255}.${i & 255}/32`, description: `${i}` }] });
  const plain = (i: number) => {
    const json = new TextEncoder().encode(JSON.stringify(op(i)));
    const bytes = new Uint8Array(1 + json.length); // a leading 0: stored in clear
    bytes.set(json, 1);
    return bytes;
  };
  const frames = Array.from({ length: records }, (_, i) => frame({ taskID: i + 1, bytes: plain(i) }));
  writeFileSync(join(dir, 'log.bin'), Buffer.concat(frames));
  const engine = await Lantern.open({ storage: fsStorage(dir) });
  expect(engine.sources).toEqual([{ source: `10.0.${(records - 1) >> 8 & 255}.${(records - 1) & 255}/32`, description: `${records - 1}` }]);
  expect(engine.tasks.status(records)).toBe('published');
  await engine.close();
}, 60_000);
