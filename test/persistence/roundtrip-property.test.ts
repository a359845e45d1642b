// Property: any JSON value the API accepts survives a snapshot and a restart
// byte for byte. Seeded rounds (the seed is in the test's name; set
// ROUNDTRIP_SEED to replay one) generate records with text from every script
// (combining marks, ZWJ, astral characters as surrogate pairs, C0 controls),
// names of every kind ("__proto__", "constructor", empty, dotted, numeric,
// unicode, very long), numbers at the edges and values nested up to the
// limit, send them as JSON text (as HTTP brings them) to an engine on disk,
// take a snapshot, write more (replacements, partial updates, new records:
// the log), reopen, and read every record back (getObject, browse) as the
// JSON text sent, after one JSON.parse/stringify (JSON writes -0 as 0, and
// objects put integer-like names first). A word of every text finds its
// record, with every attribute searchable and with unordered() over the
// top-level names, and top-level texts are facet values. (Lone surrogates,
// which a JSON body can spell, are refused: unstorable-writes.test.ts.)
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCore } from '../../src/core/wasm.js';
import { MAX_NESTING } from '../../src/index/storable.js';
import { caller, cleanup, closeEngine, openAt, prng, tempDir, type Call } from './helpers.js';

beforeAll(loadCore);
afterEach(cleanup);

const SEEDS = process.env.ROUNDTRIP_SEED ? [Number(process.env.ROUNDTRIP_SEED)] : [1, 2, 3, 4, 5];
const RECORDS = 50;

/** Letters of each script, as code point ranges (astral ones are surrogate pairs in JavaScript strings). */
const SCRIPTS: Array<[number, number]> = [
  [0x61, 0x7a], // Latin
  [0x100, 0x17f], // Latin Extended-A
  [0x180, 0x24f], // Latin Extended-B
  [0x250, 0x2af], // IPA
  [0x391, 0x3c9], // Greek
  [0x410, 0x44f], // Cyrillic
  [0x531, 0x556], // Armenian
  [0x5d0, 0x5ea], // Hebrew
  [0x621, 0x64a], // Arabic
  [0x905, 0x939], // Devanagari
  [0xe01, 0xe2e], // Thai
  [0x10d0, 0x10fa], // Georgian
  [0x1100, 0x1112], // Hangul Jamo
  [0x1e00, 0x1eff], // Latin Extended Additional
  [0x2f00, 0x2fd5], // Kangxi radicals
  [0x4e00, 0x9fff], // CJK
  [0xac00, 0xd7a3], // Hangul syllables
  [0xff21, 0xff5a], // fullwidth Latin
  [0x20000, 0x2a6df], // CJK Extension B
];

/** Pieces that are not words: emoji (with a ZWJ sequence), C0 controls, a combining mark alone, NUL. */
const NOISE = ['\u{1f600}', '\u{1f469}\u200d\u{1f4bb}', '\u200d', '\u0000', '\t\n\r', '\u0001\u001f', '\u0301', '\ufeff'];

/** Names a top-level attribute may have (each one can be listed in searchableAttributes). */
const TOP_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'title', 'é', 'ключ', '键', '\u{1f511}', '0', '123', 'k'.repeat(300)];
/** Names nested attributes may have besides those. */
const NESTED_NAMES = [...TOP_NAMES, '', 'a.b', '.', 'a b', 'objectID', '\u0000', 'x\u200dy', '"quoted"', '\\', '名'.repeat(200)];

const NUMBERS = [
  0, -0, 1, -1, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1, Number.MAX_SAFE_INTEGER + 2, -(Number.MAX_SAFE_INTEGER + 1), 1e-320, 0.1 + 0.2, 1e21, 1e-7,
];

class Generator {
  private readonly next: () => number;
  /** Per text generated: its words (what a search for it may use). */
  readonly words = new Map<string, string[]>();

  constructor(seed: number) { this.next = prng(seed); }

  int(below: number): number { return Math.floor(this.next() * below); }
  pick<T>(list: readonly T[]): T { return list[this.int(list.length)]; }

  word(): string {
    const [from, to] = this.pick(SCRIPTS);
    let word = '';
    for (let n = 1 + this.int(6); n > 0; n--) {
      word += String.fromCodePoint(from + this.int(to - from + 1));
      if (this.int(6) === 0) word += String.fromCodePoint(0x300 + this.int(0x70)); // a combining mark on the letter
    }
    return word;
  }

  text(): string {
    const pieces: string[] = [];
    const words: string[] = [];
    for (let n = 1 + this.int(5); n > 0; n--) {
      if (this.int(4) === 0) pieces.push(this.pick(NOISE));
      else words.push(pieces[pieces.push(this.word()) - 1]);
    }
    const text = pieces.join(' ');
    this.words.set(text, words);
    return text;
  }

  number(): number {
    return this.int(2) === 0 ? this.pick(NUMBERS) : (this.next() - 0.5) * 10 ** (this.int(600) - 300);
  }

  /** A JSON value that may nest `levels` more levels of objects and arrays. */
  value(levels: number): unknown {
    const kind = this.int(levels > 0 ? 20 : 10);
    if (kind < 5) return this.text();
    if (kind < 8) return this.number();
    if (kind === 8) return this.int(2) === 0;
    if (kind === 9) return null;
    if (kind === 10) return this.deep(levels);
    if (kind < 15) return Array.from({ length: this.int(4) }, () => this.value(Math.min(levels - 1, 3)));
    return this.object(NESTED_NAMES, 1 + this.int(4), Math.min(levels - 1, 3));
  }

  /** Objects and arrays `levels` deep (the most a value at this place may nest), a text at the bottom. */
  deep(levels: number): unknown {
    let value: unknown = this.text();
    for (let i = 0; i < levels; i++) value = this.int(2) === 0 ? [value] : { [this.pick(NESTED_NAMES)]: value };
    return value;
  }

  object(names: readonly string[], size: number, levels: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    for (let n = 0; n < size; n++) {
      Object.defineProperty(object, this.pick(names), { value: this.value(levels), enumerable: true, writable: true, configurable: true });
    }
    return object;
  }

  /** A record: its own attributes below a generated objectID (a record is the first of its MAX_NESTING levels). */
  record(objectID: string): Record<string, unknown> {
    return { objectID, ...this.object(TOP_NAMES, 1 + this.int(6), MAX_NESTING - 1) };
  }
}

/** What a record reads back as: the JSON text sent, after one parse and stringify. */
const normalized = (value: unknown) => JSON.stringify(JSON.parse(JSON.stringify(value)));

/** Every text of a value (its strings), in document order. */
function texts(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) texts(item, out);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) texts(item, out);
  return out;
}

async function send(call: Call, path: string, requests: unknown[]): Promise<void> {
  const r = await call('POST', path, JSON.stringify({ requests })); // JSON text, as an HTTP body
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** Writes the records, a snapshot, then replacements, partial updates and new records (the log); returns what each objectID must read back as. */
async function write(call: Call, snapshot: () => Promise<void>, g: Generator, seed: number): Promise<Map<string, Record<string, unknown>>> {
  const expected = new Map<string, Record<string, unknown>>();
  const add = (objectID: string) => {
    const record = g.record(objectID);
    expected.set(objectID, record);
    return { action: 'updateObject', body: record };
  };
  const ids = Array.from({ length: RECORDS }, (_, i) => `${seed}-${i}-${g.word()}`);
  const first = ids.slice(0, RECORDS - 10);
  await send(call, '/1/indexes/roundtrip/batch', first.map(add));
  await snapshot();

  const later: unknown[] = ids.slice(RECORDS - 10).map(add);
  for (const objectID of first.slice(0, 5)) later.push(add(objectID)); // replaced
  for (const objectID of first.slice(5, 10)) {
    const body = g.object(TOP_NAMES, 1 + g.int(3), 3);
    expected.set(objectID, { ...expected.get(objectID), ...body, objectID });
    later.push({ action: 'partialUpdateObject', objectID, body });
  }
  await send(call, '/1/indexes/roundtrip/batch', later);
  return expected;
}

async function expectReadBack(call: Call, expected: Map<string, Record<string, unknown>>): Promise<void> {
  for (const [objectID, record] of expected) {
    const r = await call('GET', `/1/indexes/roundtrip/${encodeURIComponent(objectID)}`);
    expect(JSON.stringify(r.body), objectID).toBe(normalized(record));
  }
  const hits: Array<{ objectID: string }> = (await call('POST', '/1/indexes/roundtrip/browse', { hitsPerPage: 1000 })).body.hits;
  const browsed = new Map(hits.map((hit) => [hit.objectID, JSON.stringify(hit)]));
  for (const [objectID, record] of expected) expect(browsed.get(objectID), `browse: ${objectID}`).toBe(normalized(record));
  expect(browsed.size).toBe(expected.size);
}

async function expectFound(call: Call, expected: Map<string, Record<string, unknown>>, g: Generator): Promise<void> {
  for (const [objectID, record] of expected) {
    for (const text of texts(record)) {
      const words = g.words.get(text) ?? [];
      if (words.length === 0) continue;
      const query = g.pick(words);
      const hits = (await call('POST', '/1/indexes/roundtrip/query', { query, hitsPerPage: 1000, attributesToRetrieve: [] })).body.hits;
      expect(hits.map((h: { objectID: string }) => h.objectID), `${objectID}: "${query}" of "${text}"`).toContain(objectID);
    }
  }
}

async function expectFacets(call: Call, expected: Map<string, Record<string, unknown>>): Promise<void> {
  const { facets } = (await call('POST', '/1/indexes/roundtrip/query', { query: '', facets: ['*'], maxValuesPerFacet: 1000, hitsPerPage: 0 })).body;
  for (const [objectID, record] of expected) {
    for (const [name, value] of Object.entries(record)) {
      if (name !== 'objectID' && typeof value === 'string') expect(Object.hasOwn(facets[name] ?? {}, value), `${objectID}: ${name}`).toBe(true);
    }
  }
}

describe('a snapshot and a restart keep every JSON value the API accepts', () => {
  it.each(SEEDS)('seed %i: records read back byte for byte, are found by each of their texts and counted in facets', async (seed) => {
    const g = new Generator(seed);
    const dir = tempDir();
    const engine = await openAt(dir);
    const call = caller(engine);
    const settings = {
      // every attribute searchable (unset), or unordered() over each top-level name
      searchableAttributes: seed % 2 === 0 ? null : TOP_NAMES.map((name) => `unordered(${name})`),
      attributesForFaceting: TOP_NAMES,
    };
    expect((await call('PUT', '/1/indexes/roundtrip/settings', settings)).status).toBe(200);
    const expected = await write(call, async () => {
      await engine.waitForTasks();
      await engine.snapshot();
    }, g, seed);
    await engine.waitForTasks();
    await closeEngine(engine);

    const reopened = caller(await openAt(dir));
    await expectReadBack(reopened, expected);
    await expectFound(reopened, expected, g);
    await expectFacets(reopened, expected);
  });
});
