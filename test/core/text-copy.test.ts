// Texts reach the core in one native copy where the platform has one (Node's
// Buffer, src/platform/platform.node.ts) and a unit at a time elsewhere (the
// web build): the core must index and highlight the same either way, whatever
// the text holds (accents, CJK, an emoji, a lone surrogate, Thai words broken
// apart before they are written).
import { beforeAll, describe, expect, it } from 'vitest';
import { platform } from '../../src/platform/platform.js';
import { build, ready, type Doc } from './helpers.js';

beforeAll(ready);

const DOCS: Doc[] = [
  ['Café naïve résumé', 'crème brûlée'],
  ['東京タワーの夜景', 'emoji 🔦 torch'],
  ['ภาษาไทยไม่มีช่องว่าง', 'lone \ud800 half'],
  ['plain ascii words', 'and more plain words'],
];

/** The core's snapshot and its highlight tokens of the docs' texts, with the platform's copy or without it. */
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
