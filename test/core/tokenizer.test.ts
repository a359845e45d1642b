// The core's normaliser and tokenizer, observed through search and highlight
// on a real WebAssembly instance.
import { beforeAll, describe, expect, it } from 'vitest';
import { build, ids, ready, search, tokensOf } from './helpers.js';
import { TEXT_HEADER, TEXT_INDEXED, TEXT_SNIPPET_SHIFT } from '../../src/core/core-index.js';

beforeAll(ready);

describe('case folding', () => {
  it('matches regardless of case, in records and queries', () => {
    const core = build(['Hello WORLD', 'nothing here']);
    expect(ids(core, 'hello world', { queryType: 'prefixNone' })).toEqual([0]);
    expect(ids(core, 'HELLO', { queryType: 'prefixNone' })).toEqual([0]);
    expect(ids(core, 'wOrLd', { queryType: 'prefixNone' })).toEqual([0]);
  });

  it('counts no typo and an exact word for a case difference', () => {
    const core = build(['Hello WORLD']);
    const [hit] = search(core, 'HeLLo WoRlD', { queryType: 'prefixNone' }).hits;
    expect(hit.typos).toBe(0);
    expect(hit.exactWords).toBe(2);
  });

  it('folds non-ASCII upper case (Greek, Cyrillic, accented Latin)', () => {
    const core = build(['ΩMEGA ДОМ ÉCOLE']);
    expect(ids(core, 'ωmega', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([0]);
    expect(ids(core, 'дом', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([0]);
    expect(ids(core, 'école', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([0]);
  });
});

describe('diacritics', () => {
  const docs = ['Café crème', 'Straße', 'Søren Kierkegaard', 'Österreich', 'plain words', 'Ærøskøbing', 'Cafe\u0301 decomposed'];
  const exact = { queryType: 'prefixNone' as const, typoMode: 'off' as const };

  it('folds é → e both ways, with no typo counted', () => {
    const core = build(docs);
    expect(ids(core, 'cafe creme', exact)).toEqual([0]);
    expect(ids(core, 'CRÈME', exact)).toEqual([0]);
    const [hit] = search(core, 'creme', exact).hits;
    expect(hit.typos).toBe(0);
  });

  it('folds ß → ss', () => {
    const core = build(docs);
    expect(ids(core, 'strasse', exact)).toEqual([1]);
    expect(ids(core, 'STRASSE', exact)).toEqual([1]);
    expect(ids(core, 'straße', exact)).toEqual([1]);
  });

  it('folds ø → o and æ → ae', () => {
    const core = build(docs);
    expect(ids(core, 'soren', exact)).toEqual([2]);
    expect(ids(core, 'aeroskobing', exact)).toEqual([5]);
  });

  it('folds until the form settles: ǽ and Ǽ → ae, ǿ → o, whichever form is typed', () => {
    const core = build(['ǽ', 'Ǽ', 'ǿ']);
    for (const typed of ['ae', 'æ', 'ǽ', 'Æ']) expect(ids(core, typed, exact), typed).toEqual([0, 1]);
    for (const typed of ['o', 'ø', 'ǿ']) expect(ids(core, typed, exact), typed).toEqual([2]);
  });

  it('folds Ö (capital with diaeresis) → o', () => {
    const core = build(docs);
    expect(ids(core, 'osterreich', exact)).toEqual([3]);
    expect(ids(core, 'ÖSTERREICH', exact)).toEqual([3]);
  });

  it('ignores combining marks inside a word (decomposed é)', () => {
    const core = build(docs);
    // "Cafe\u0301" (e + combining acute) is the same word as "café" and "cafe".
    expect(ids(core, 'cafe', exact).sort()).toEqual([0, 6]);
    expect(ids(core, 'decomposed', exact)).toEqual([6]);
  });
});

describe('separators', () => {
  it('splits words on punctuation', () => {
    const core = build(['foo-bar,baz.qux/quux(corge)', 'e-mail: someone@example.com']);
    for (const word of ['foo', 'bar', 'baz', 'qux', 'quux', 'corge']) {
      expect(ids(core, word, { queryType: 'prefixNone', typoMode: 'off' })).toEqual([0]);
    }
    expect(ids(core, 'example', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([1]);
    expect(ids(core, 'someone', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([1]);
    expect(tokensOf(core, 'foo-bar,baz.qux').map((t) => t.text)).toEqual(['foo', 'bar', 'baz', 'qux']);
  });

  it('treats punctuation in the query the same way', () => {
    const core = build(['foo bar', 'foobar']);
    expect(ids(core, 'foo-bar', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([0]);
    const result = search(core, 'foo...bar!!', { queryType: 'prefixNone', typoMode: 'off' });
    expect(result.words).toEqual([[0, 3], [6, 9]]);
  });

  it('splits on unicode punctuation and spaces (em dash, ideographic space, guillemets)', () => {
    const core = build(['alpha—beta\u3000gamma «delta»']);
    expect(tokensOf(core, 'alpha—beta\u3000gamma «delta»').map((t) => t.text)).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    expect(ids(core, 'gamma', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([0]);
  });

  it('a query made only of separators has no words', () => {
    const core = build(['one', 'two']);
    const result = search(core, ' - , . ');
    expect(result.words).toEqual([]);
  });
});

describe('digits', () => {
  it('keeps digits, alone and inside words', () => {
    const core = build(['iPhone 15 Pro', 'R2D2 and C3PO', 'version 2.0.1']);
    const exact = { queryType: 'prefixNone' as const, typoMode: 'off' as const };
    expect(ids(core, '15', exact)).toEqual([0]);
    expect(ids(core, 'r2d2', exact)).toEqual([1]);
    expect(ids(core, 'c3po', exact)).toEqual([1]);
    // "2.0.1" is three tokens: 2, 0, 1.
    expect(ids(core, '2 0 1', exact)).toEqual([2]);
    expect(tokensOf(core, 'R2D2 and C3PO').map((t) => t.text)).toEqual(['R2D2', 'and', 'C3PO']);
  });

  it('folds full-width letters and digits to ASCII', () => {
    const core = build(['ｉｐｈｏｎｅ １５']);
    expect(ids(core, 'iphone 15', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([0]);
  });
});

describe('CJK', () => {
  it('indexes every CJK character as a token of its own', () => {
    const core = build(['東京タワー', '京都', 'plain']);
    expect(tokensOf(core, '東京タワー').map((t) => t.text)).toEqual(['東', '京', 'タ', 'ワ', 'ー']);
    expect(ids(core, '京', { typoMode: 'off' }).sort()).toEqual([0, 1]);
    expect(ids(core, '東', { typoMode: 'off' })).toEqual([0]);
  });

  it('a multi-character CJK query is one word per character, adjacent in order', () => {
    const core = build(['東京タワー', '京都 東']);
    const result = search(core, '東京', { typoMode: 'off' });
    expect(result.words).toEqual([[0, 1], [1, 2]]);
    // both records contain both characters; the adjacent pair ranks first
    expect(result.hits.map((h) => h.id)).toEqual([0, 1]);
    expect(result.hits[0].proximity).toBe(1);
    expect(result.hits[1].proximity).toBeGreaterThan(1);
  });

  it('splits CJK from adjacent Latin letters', () => {
    const core = build(['abc東京def']);
    expect(tokensOf(core, 'abc東京def').map((t) => t.text)).toEqual(['abc', '東', '京', 'def']);
    expect(ids(core, 'def', { typoMode: 'off', queryType: 'prefixNone' })).toEqual([0]);
  });

  it('handles Hangul syllables one per token', () => {
    const core = build(['한국어 문서']);
    expect(tokensOf(core, '한국어').map((t) => t.text)).toEqual(['한', '국', '어']);
    expect(ids(core, '국', { typoMode: 'off' })).toEqual([0]);
  });
});

describe('separatorsToIndex (CoreIndex.setSeparators)', () => {
  it('without it, + and # are separators and a query of them matches everything', () => {
    const core = build(['C++ and C#', 'plain C']);
    expect(search(core, '#').words).toEqual([]);
    expect(search(core, '#').nbHits).toBe(2);
  });

  it('with it, the listed characters become searchable one-character tokens', () => {
    const core = build(['C++ and C#', 'plain C', 'hash # alone'], { separators: '+#' });
    expect(tokensOf(core, 'C++ and C#').map((t) => t.text)).toEqual(['C', '+', '+', 'and', 'C', '#']);
    expect(ids(core, '+', { typoMode: 'off' })).toEqual([0]);
    expect(ids(core, '#', { typoMode: 'off' }).sort()).toEqual([0, 2]);
    // "c#" is two words, adjacent in record 0
    const result = search(core, 'c#', { typoMode: 'off' });
    expect(result.words.length).toBe(2);
    expect(result.hits[0].id).toBe(0);
    expect(result.hits[0].proximity).toBe(1);
  });

  it('other punctuation still separates', () => {
    const core = build(['C++ and C#'], { separators: '+' });
    expect(tokensOf(core, 'C++ and C#').map((t) => t.text)).toEqual(['C', '+', '+', 'and', 'C']);
  });
});

describe('highlight offsets', () => {
  it('reports token offsets on the original text and the matched query words', () => {
    const core = build(['Hello, WORLD! hello again']);
    search(core, 'world hello', { queryType: 'prefixNone' });
    const tokens = tokensOf(core, 'Hello, WORLD! hello again');
    expect(tokens.map(({ start, end, mask }) => [start, end, mask])).toEqual([
      [0, 5, 2], [7, 12, 1], [14, 19, 2], [20, 25, 0],
    ]);
    for (const t of tokens.filter((x) => x.mask)) expect(t.highlightEnd).toBe(t.end);
  });

  it('offsets point to the original characters when folding changes the length', () => {
    const core = build(['Große Straße']);
    search(core, 'strasse', { queryType: 'prefixNone' });
    const text = 'Die Große Straße, bitte';
    const tokens = tokensOf(core, text);
    expect(tokens.map((t) => t.text)).toEqual(['Die', 'Große', 'Straße', 'bitte']);
    const matched = tokens.filter((t) => t.mask !== 0);
    expect(matched.map((t) => text.slice(t.start, t.highlightEnd))).toEqual(['Straße']);
  });

  it('covers combining marks of the word', () => {
    const core = build(['cafe']);
    search(core, 'cafe', { queryType: 'prefixNone' });
    const text = 'un cafe\u0301 noir';
    const [, cafe] = tokensOf(core, text);
    expect([cafe.start, cafe.end]).toEqual([3, 8]);
    expect(cafe.mask).toBe(1);
    expect(cafe.highlightEnd).toBe(8);
  });

  it('a prefix match highlights only the matched prefix', () => {
    const core = build(['television set']);
    search(core, 'tele');
    const [tv, set] = tokensOf(core, 'Television set');
    expect(tv).toMatchObject({ start: 0, end: 10, mask: 1, highlightEnd: 4 });
    expect(set.mask).toBe(0);
  });

  it('one term met again in a call, written otherwise: each token highlighted by its own units', () => {
    // the core works out what a term matches once per call: "Straße", "strasse" and "STRASSE" are one term
    const core = build(['Straße strasse']);
    search(core, 'stras');
    const text = 'Straße strasse STRASSE, Straße';
    const highlighted = tokensOf(core, text).map((t) => text.slice(t.start, t.highlightEnd));
    // folding made "Straße" longer, so it highlights whole; the others highlight the prefix typed
    expect(highlighted).toEqual(['Straße', 'stras', 'STRAS', 'Straße']);
    // several values in one call, as a page of hits is highlighted
    const values = ['STRASSE', 'Straße', 'strasse'];
    const tokens = core.highlightTexts(values, [TEXT_INDEXED, TEXT_INDEXED, TEXT_INDEXED]);
    const ends: string[] = [];
    for (let at = 0, v = 0; v < values.length; v++, at += TEXT_HEADER + tokens[at + 1] * 4) ends.push(values[v].slice(tokens[at + TEXT_HEADER], tokens[at + TEXT_HEADER + 3]));
    expect(ends).toEqual(['STRAS', 'Straße', 'stras']);
  });

  it('offsets of CJK tokens are one unit each', () => {
    const core = build(['東京タワー']);
    search(core, 'タワ');
    const tokens = tokensOf(core, 'ようこそ東京タワーへ');
    const matched = tokens.filter((t) => t.mask !== 0).map((t) => [t.start, t.end, t.mask]);
    expect(matched).toEqual([[6, 7, 1], [7, 8, 2]]);
  });

  it('a word of ASCII and other letters is one token, whichever comes first', () => {
    // ASCII runs are read on a path of their own (assembly/text.ts readAscii); the word goes on across both
    const core = build(['Zürich Ærøskøbing 2ème', 'other']);
    search(core, 'zurich aeroskobing 2eme', { queryType: 'prefixNone', typoMode: 'off' });
    const text = 'Zürich, Ærøskøbing! 2ème';
    const tokens = tokensOf(core, text);
    expect(tokens.map((t) => [t.text, t.mask, t.highlightEnd])).toEqual([['Zürich', 1, 6], ['Ærøskøbing', 2, 18], ['2ème', 4, 24]]);
    // a word past MAX_TOKEN_UNITS is cut at the same unit whichever path reads it
    for (const word of [`é${'a'.repeat(70)}`, `${'a'.repeat(62)}éb${'c'.repeat(8)}`, `${'b'.repeat(63)}ßx`]) {
      const cut = build([`one ${word} two`, 'other']);
      expect(ids(cut, word, { typoMode: 'off', queryType: 'prefixNone' }), word).toEqual([0]);
      expect(tokensOf(cut, `x ${word}`).map((t) => [t.start, t.end, t.mask])).toEqual([[0, 1, 0], [2, 2 + word.length, 1]]);
    }
  });

  it('a long indexed text lists the same matched tokens as every token of it shows', () => {
    // over 4 units a marked term, a page's indexed values are screened as they are tokenized (marked-filter.ts)
    const words = Array.from({ length: 3000 }, (_, i) => ['alpha', 'Beta', 'gamma7', 'délta', 'epsilon', `w${i % 97}`][i % 6]);
    const text = words.join(' ');
    const core = build([text, 'other']);
    search(core, 'gamma7 delt');
    const every = tokensOf(core, text);
    const listed = core.highlightTexts([text], [TEXT_INDEXED]);
    expect(listed[0]).toBe(every.length);
    const matched = every.filter((t) => t.mask !== 0);
    expect(matched.length).toBe(1000);
    expect(listed[1]).toBe(matched.length);
    const flat = Array.from(listed.subarray(TEXT_HEADER));
    expect(flat).toEqual(matched.flatMap((t) => [t.start, t.end, t.mask, t.highlightEnd]));
  });

  it('lists the same matched tokens and snippet windows of any text, read 64 units a step or one by one', () => {
    // screened ASCII text is read in blocks of 64 units (assembly/text.ts screenBlocks): words across a
    // block's end, words of 64 letters or more, units beyond ASCII, digits and capitals, texts shorter than a block
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const letters = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
    const word = () => {
      const r = random();
      if (r < 0.03) return 'x'.repeat(60 + Math.floor(random() * 12)) + pick(['', 'y', 'yz']);
      if (r < 0.08) return pick(['café', 'Zürich', 'naïve', '東京', 'Ærø', 'straße']);
      return Array.from({ length: 1 + Math.floor(random() * 9) }, () => pick(letters)).join('');
    };
    const separators = [' ', ' ', ' ', ', ', '. ', ' - ', '\n', "'", '  '];
    const texts = Array.from({ length: 40 }, (_, i) => {
      let text = '';
      for (let n = i < 5 ? 3 : 50 + Math.floor(random() * 400); n > 0; n--) text += word() + pick(separators);
      return text;
    });
    const core = build([...texts, 'other']);
    let compared = 0;
    let windows = 0;
    for (const text of texts) {
      const words = text.split(/[^A-Za-z0-9]+/).filter((w) => w.length >= 3);
      if (words.length === 0) continue;
      for (const q of [words[0], `${pick(words)} ${pick(words).slice(0, 2)}`, pick(words).toUpperCase()]) {
        search(core, q);
        const every = tokensOf(core, text);
        const listed = core.highlightTexts([text], [TEXT_INDEXED]);
        expect(listed[0], q).toBe(every.length);
        const matched = every.filter((t) => t.mask !== 0);
        expect(Array.from(listed.subarray(1)), `${q} in text ${texts.indexOf(text)}`).toEqual([matched.length, 0, ...matched.flatMap((t) => [t.start, t.end, t.mask, t.highlightEnd])]);
        compared += matched.length;
        // a snippet's window, screened (indexed) or not: read again from a token kept before it, up to its last token
        for (const size of [5, 20]) {
          const firstMatched = every.findIndex((t) => t.mask !== 0);
          const from = every.length <= size ? 0 : Math.max(0, Math.min(Math.max(firstMatched, 0) - Math.floor(size / 4), every.length - size));
          const window = every.slice(from, from + size);
          for (const flags of [TEXT_INDEXED, 0]) {
            const snippet = core.highlightTexts([text], [flags | (size << TEXT_SNIPPET_SHIFT)]);
            expect(Array.from(snippet), `${q}: ${size} words of text ${texts.indexOf(text)}, flags ${flags}`).toEqual(
              [every.length, window.length, from, ...window.flatMap((t) => [t.start, t.end, t.mask, t.highlightEnd])]);
            if (from > 0) windows++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
    expect(windows).toBeGreaterThan(100);
  });

  it('a typo match is highlighted', () => {
    const core = build(['Are you a giver or a taker?']);
    search(core, 'gvier');
    const text = 'Are you a giver or a taker?';
    const matched = tokensOf(core, text).filter((t) => t.mask !== 0);
    expect(matched.map((t) => text.slice(t.start, t.highlightEnd))).toEqual(['giver']);
  });
});

describe('long input', () => {
  it('a very long word is still found by itself, and highlighted whole', () => {
    const long = 'pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(2); // 90 letters
    const core = build([`before ${long} after`, 'other']);
    expect(ids(core, long, { typoMode: 'off' })).toEqual([0]);
    const tokens = tokensOf(core, `x ${long} y`);
    expect(tokens.map((t) => [t.start, t.end])).toEqual([[0, 1], [2, 92], [93, 94]]);
    expect(tokens[1].mask).toBe(1);
  });

  it('a record of 50,000 words is indexed and searched', () => {
    const words = Array.from({ length: 50000 }, (_, i) => `w${i}`);
    const core = build([words.join(' '), 'w3 w49999']);
    const result = search(core, 'w49999 w3', { queryType: 'prefixNone', typoMode: 'off' });
    expect(result.hits.map((h) => h.id)).toEqual([1, 0]);
    expect(result.hits[0].proximity).toBe(2); // reversed, adjacent
    expect(result.hits[1].proximity).toBe(8);
    expect(ids(core, 'w25000', { queryType: 'prefixNone', typoMode: 'off' })).toEqual([0]);
  });
});
