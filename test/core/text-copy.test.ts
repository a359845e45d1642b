// Texts reach the core in one native copy where the platform has one (Node's
// Buffer, src/platform/platform.node.ts) and a unit at a time elsewhere (the
// web build): the core must index and highlight the same either way, whatever
// the text holds (accents, CJK, an emoji, a lone surrogate, Thai words broken
// apart before they are written). Texts long enough in all are written one
// by one rather than joined (APART_AVERAGE_UNITS): their tokens are the same.
import { beforeAll, describe, expect, it } from 'vitest';
import { platform } from '../../src/platform/platform.js';
import { APART_AVERAGE_UNITS, TEXT_EVERY_TOKEN, type CoreIndex } from '../../src/core/core-index.js';
import { build, ids, ready, type Doc } from './helpers.js';

beforeAll(ready);

const DOCS: Doc[] = [
  ['Café naïve résumé', 'crème brûlée'],
  ['東京タワーの夜景', 'emoji 🔦 torch'],
  ['ภาษาไทยไม่มีช่องว่าง', 'lone \ud800 half'],
  ['plain ascii words', 'and more plain words'],
];

/** The core's snapshot and its highlight tokens of the docs' texts, with the platform's copy or without it. */
/** Runs `work` with the platform's native copy, or without it. */
function withCopy<T>(native: boolean, work: () => T): T {
  const writeUtf16 = platform.writeUtf16;
  if (!native) platform.writeUtf16 = undefined;
  try {
    return work();
  } finally {
    platform.writeUtf16 = writeUtf16;
  }
}

/** Every token of each text, highlighted in one call. */
const everyToken = (core: CoreIndex, texts: string[]): number[] => [...core.highlightTexts(texts, texts.map(() => TEXT_EVERY_TOKEN))];

async function indexed(native: boolean): Promise<{ snapshot: Uint8Array[]; tokens: number[] }> {
  const writeUtf16 = platform.writeUtf16;
  if (!native) platform.writeUtf16 = undefined;
  try {
    const core = build(DOCS);
    const texts = DOCS.flat(2);
    const tokens = [...core.highlightTexts(texts, texts.map(() => 0))];
    return { snapshot: await core.exportSnapshot(), tokens };
  } finally {
    platform.writeUtf16 = writeUtf16;
  }
}

describe('texts written into the core', () => {
  it('in one native copy index and highlight as written a unit at a time', async () => {
    expect(platform.writeUtf16).toBeTypeOf('function'); // the tests run the Node platform
    const copied = await indexed(true);
    const unitByUnit = await indexed(false);
    expect(copied.tokens.length).toBeGreaterThan(0);
    expect(copied.tokens).toEqual(unitByUnit.tokens);
    expect(copied.snapshot).toEqual(unitByUnit.snapshot);
  });
});

describe('long texts written into the core one by one', () => {
  // each docs' text repeated to ~3,000 units: a page of long documents, a Thai run among them
  const long = DOCS.flat(2).map((text) => Array.from({ length: Math.ceil(3000 / text.length) }, () => text).join(' '));

  it('give the tokens each text gives highlighted alone (joined), natively or a unit at a time', () => {
    const core = build(DOCS);
    for (const text of long) expect(text.length).toBeGreaterThanOrEqual(APART_AVERAGE_UNITS);
    const alone = long.flatMap((text) => everyToken(core, [text]));
    expect(alone.length).toBeGreaterThan(long.length * 1000);
    expect(withCopy(true, () => everyToken(core, long))).toEqual(alone);
    expect(withCopy(false, () => everyToken(core, long))).toEqual(alone);
  });

  it('index a batch of long documents as written a unit at a time', async () => {
    const longDocs: Doc[] = DOCS.map((doc, d) => (doc as string[]).map((_, a) => long[d * 2 + a]));
    const snapshotOf = (native: boolean) => withCopy(native, () => build(longDocs)).exportSnapshot();
    const [copied, unitByUnit] = [await snapshotOf(true), await snapshotOf(false)];
    expect(copied).toEqual(unitByUnit);
    // the Thai run was broken into its words as it was written: one of them finds its record
    for (const native of [true, false]) expect(withCopy(native, () => ids(build(longDocs), 'ไทย'))).toEqual([2]);
  });
});
