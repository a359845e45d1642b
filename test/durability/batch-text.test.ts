// A large batch's log bytes are written an action at a time (src/durability/batch-text.ts),
// each record stringified once, and the batch then runs as it was given,
// each record with its bytes beside it: what the log stores must stay byte
// for byte JSON.stringify's of the whole batch, what runs what JSON.parse
// reads of those bytes (a replay), and each record's bytes in it the
// record's own JSON, since the record store packs them as they are.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { withLoggedTexts, writeBatch, type Batch } from '../../src/durability/batch-text.js';
import { LOGGED_TEXT } from '../../src/util/logged-text.js';
import { ByteWriter } from '../../src/util/bytes.js';
import { Lantern } from '../../src/index.js';
import { fsStorage } from '../../src/node.js';
import { tempDir } from '../persistence/helpers.js';
import { prng } from '../support/random.js';

const utf8 = new TextEncoder();
const decoder = new TextDecoder();

/** Strings JSON escapes or encodes in more than a byte: quotes, controls, accents, CJK, an emoji; what the API stores. */
const STORABLE = ['plain', 'quote " and \\ backslash', 'tab\tline\n', 'café naïve', '東京タワー', 'emoji 🔦', '\u2028\u2029', '"actions":[]'];
/** With a lone surrogate (not Unicode text: the API refuses it, JSON.stringify escapes it). */
const ODD = [...STORABLE, 'lone \ud800 half'];

function randomRecord(random: () => number, i: number, strings = ODD): Record<string, unknown> {
  const pick = () => strings[Math.floor(random() * strings.length)];
  const record: Record<string, unknown> = { objectID: `r${i} ${pick()}`, title: pick(), n: random() < 0.5 ? -0 : 1e21 * random() };
  if (random() < 0.3) record['10'] = 'an index key, written first';
  if (random() < 0.3) record.__proto__x = { nested: [pick(), null, true, { deep: pick() }] };
  if (random() < 0.3) record.dropped = undefined;
  if (random() < 0.2) Object.defineProperty(record, '__proto__', { value: { data: pick() }, enumerable: true });
  return record;
}

/** A batch of every kind of action, records of every shape the log may be given. */
function randomBatch(seed: number, length: number): { type: string; indexName: string; actions: unknown[]; userID?: string; at?: number } {
  const random = prng(seed);
  const actions = Array.from({ length }, (_, i): unknown => {
    const roll = random();
    if (roll < 0.5) return { action: 'addObject', body: randomRecord(random, i) };
    if (roll < 0.6) return { action: 'updateObject', body: randomRecord(random, i) };
    if (roll < 0.65) return { body: randomRecord(random, i), action: 'addObject' }; // keys the other way round
    if (roll < 0.7) return { action: 'addObject', body: randomRecord(random, i), extra: 1 };
    if (roll < 0.75) return { action: 'addObject', body: { objectID: String(i), toJSON: (key: string) => ({ key }) } };
    if (roll < 0.85) return { action: 'partialUpdateObject', objectID: String(i), body: { n: { _operation: 'Increment', value: 1 } } };
    if (roll < 0.95) return { action: 'deleteObject', objectID: `r${i}` };
    return { action: 'clear' };
  });
  return { type: 'batch', indexName: `index "actions":[] ${seed} ✓`, actions, ...(seed % 2 ? { userID: 'user ü' } : {}), at: 1_700_000_000_000 + seed };
}

/** The batch's bytes as writeBatch writes them, after `before` bytes already in the writer, and what it takes to read them back. */
function written(op: Batch, before = 0) {
  const writer = new ByteWriter(16);
  for (let i = 0; i < before; i++) writer.appendByte(0);
  const batch = writeBatch(op, writer);
  return { ...batch, utf8: writer.view().slice(before) };
}

/** The batch as it runs, after writeBatch wrote it. */
const ran = (op: Batch): Batch => withLoggedTexts(op, written(op));

/** The batch as it runs, its record actions without their texts (toEqual compares symbol keys too). */
function withoutTexts(op: Batch): Batch {
  const actions = op.actions.map((a) => {
    const { action, body, [LOGGED_TEXT]: text } = a as { action?: unknown; body?: unknown; [LOGGED_TEXT]?: Uint8Array };
    return text ? { action, body } : a;
  });
  return { ...op, actions };
}

describe('a large batch\'s log bytes', () => {
  it('are JSON.stringify\'s of the whole batch, byte for byte', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const op = randomBatch(seed, 1 + (seed * 7) % 150);
      expect(written(op, seed % 3).utf8).toEqual(utf8.encode(JSON.stringify(op)));
    }
  });

  it('run, for a batch of JSON\'s own (as the API hands every log), as JSON.parse reads them back', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const op = JSON.parse(JSON.stringify(randomBatch(seed, 1 + (seed * 7) % 150))) as Batch;
      const logged = written(op, seed % 3);
      const replayed = JSON.parse(decoder.decode(logged.utf8)) as Batch;
      const running = withLoggedTexts(op, logged);
      expect(withoutTexts(running)).toEqual(replayed);
      expect(Object.keys(running)).toEqual(Object.keys(replayed));
      running.actions.forEach((action, i) => expect(Object.keys(action as object)).toEqual(Object.keys(replayed.actions[i] as object)));
    }
  });

  it('give each record action its record\'s own JSON, and no other action any', () => {
    let carried = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const batch = randomBatch(seed, 1 + (seed * 7) % 150);
      const read = ran(batch);
      const sent = batch.actions as Array<{ action?: string; body?: unknown }>;
      (read.actions as Array<{ [LOGGED_TEXT]?: Uint8Array }>).forEach((action, i) => {
        const text = action[LOGGED_TEXT];
        const body = sent[i].body as { toJSON?: unknown } | undefined;
        const plain = Object.keys(sent[i]).join() === 'action,body' && typeof body === 'object' && typeof body.toJSON !== 'function' && (sent[i].action === 'addObject' || sent[i].action === 'updateObject');
        expect(text !== undefined).toBe(plain);
        if (!text) return;
        carried++;
        // against the record sent, not the one read back from these same bytes
        expect(decoder.decode(text)).toBe(JSON.stringify(sent[i].body));
      });
    }
    expect(carried).toBeGreaterThan(500);
  });

  it('refuse what JSON cannot hold as JSON.stringify does', () => {
    const cycle: Record<string, unknown> = { objectID: 'c' };
    cycle.self = cycle;
    expect(() => written({ actions: [{ action: 'addObject', body: cycle }] })).toThrow(TypeError);
    expect(() => written({ actions: [{ action: 'addObject', body: { objectID: 'b', n: 1n } }] })).toThrow(TypeError);
  });
});

describe('records packed from the log\'s text (file store)', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

  it('read back as sent, among other actions, in a small and a large batch, live and after a restart', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const random = prng(5);
    const sent = new Map<string, unknown>();
    const batch = (length: number) => Array.from({ length }, (_, i) => {
      if (i % 7 === 3) return { action: 'deleteObject', objectID: `gone ${i}` };
      if (i % 11 === 5) return { action: 'partialUpdateObjectNoCreate', objectID: `absent ${i}`, body: { title: 'never made' } };
      const record = JSON.parse(JSON.stringify(randomRecord(random, i, STORABLE))) as Record<string, unknown>;
      record.objectID = `${length}-${i} ${String(record.objectID)}`;
      sent.set(record.objectID as string, record);
      return { action: i % 2 ? 'updateObject' : 'addObject', objectID: record.objectID, body: record };
    });
    let engine = await Lantern.open({ storage: fsStorage(dir) });
    for (const requests of [batch(40), batch(300)]) {
      expect((await engine.request({ method: 'POST', path: '/1/indexes/odd/batch', body: JSON.stringify({ requests }) })).status).toBe(200);
    }
    await engine.waitForTasks();
    const readAll = async () => {
      const { body } = await engine.request({ method: 'POST', path: '/1/indexes/*/objects', body: { requests: [...sent.keys()].map((objectID) => ({ indexName: 'odd', objectID })) } });
      return (body as { results: unknown[] }).results;
    };
    expect(await readAll()).toEqual([...sent.values()]);
    await engine.close();
    engine = await Lantern.open({ storage: fsStorage(dir) });
    expect(await readAll()).toEqual([...sent.values()]);
    await engine.close();
  });
});
