// Scripts written without spaces between words (Thai, Lao, Khmer, Myanmar):
// their runs are broken into words (Intl.Segmenter) before the core indexes
// them and before it reads a query, so a word inside a longer run is found,
// typed with a typo or as a prefix, and highlighted in the text as given. Run
// through the REST API of a real engine, records indexed by the real core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lantern } from '../../src/index.js';
import { sender, type Send } from '../support/api.js';
import { breakWords, hasUnspacedScript, INNER_MARK, UNSPACED_LETTER, wordsOfQueryWord, WORD_BREAK } from '../../src/text/word-breaks.js';
import { UNSPACED_FIRST, UNSPACED_LAST } from '../../src/core/abi-slots.js';

const HEADERS = { 'x-algolia-application-id': 'SCRIPTS', 'x-algolia-api-key': 'scripts-admin-key' };

/** Per script: a long run (a country's full name), a word inside it, a typo of that word and a prefix of it. */
const SCRIPTS = {
  thai: { run: 'สหราชอาณาจักรบริเตนใหญ่', word: 'อาณาจักร', typo: 'อาณาจักน', prefix: 'อาณา' },
  lao: { run: 'ສາທາລະນະລັດປະຊາທິປະໄຕປະຊາຊົນລາວ', word: 'ປະຊາທິປະໄຕ', typo: 'ປະຊາທິປະໄກ', prefix: 'ປະຊາທິ' },
  khmer: { run: 'ព្រះរាជាណាចក្រកម្ពុជា', word: 'កម្ពុជា', typo: 'កម្ពុជន', prefix: 'កម្ពុ' },
  burmese: { run: 'ပြည်ထောင်စုသမ္မတမြန်မာနိုင်ငံတော်', word: 'ပြည်ထောင်စု', typo: 'ပြည်ထောင်လု', prefix: 'ပြည်ထောင်' },
} as const;

let engine: Lantern;
let send: Send;

async function search(index: string, params: Record<string, unknown>): Promise<any> {
  const response = await send('POST', `/1/indexes/${index}/query`, params);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

const ids = (answer: { hits: Array<{ objectID: string }> }) => answer.hits.map((h) => h.objectID);

beforeAll(async () => {
  engine = await Lantern.open({ appId: HEADERS['x-algolia-application-id'], adminKey: HEADERS['x-algolia-api-key'] });
  send = sender(engine, HEADERS);
  const objects = [
    ...Object.entries(SCRIPTS).map(([script, { run }]) => ({ objectID: script, name: `${run} (${script})` })),
    { objectID: 'english', name: 'United Kingdom of Great Britain' },
  ];
  await engine.client().saveObjects({ indexName: 'countries', objects });
  await engine.waitForTasks();
});

afterAll(async () => { await engine.close(); });

describe('breaking runs into words', () => {
  it('follows each unspaced run of several words by its words, and maps offsets back', () => {
    const given = 'UK: สหราชอาณาจักร, 2024';
    const broken = breakWords(given)!;
    // then the dictionary word inside อาณาจักร ("kingdom"): จักร ("wheel"), marked as found inside a longer word
    expect(broken.text).toBe(`UK: สหราชอาณาจักร${WORD_BREAK}สห${WORD_BREAK}ราช${WORD_BREAK}อาณาจักร${WORD_BREAK}จักร${INNER_MARK}, 2024`);
    // a word's start and end, the run's, and the text after the run
    const word = broken.text.lastIndexOf('อาณาจักร');
    expect(broken.originalStart(word)).toBe(given.indexOf('อาณาจักร'));
    expect(broken.originalEnd(word + 'อาณาจักร'.length)).toBe(given.indexOf(','));
    const inner = broken.text.lastIndexOf('จักร');
    expect(broken.originalStart(inner)).toBe(given.indexOf('จักร'));
    expect(broken.originalEnd(inner + 'จักร'.length)).toBe(given.indexOf(','));
    expect(broken.originalStart(broken.text.indexOf(','))).toBe(given.indexOf(','));
    expect(broken.originalStart(4)).toBe(4);
    expect(broken.originalEnd(4 + 'สหราชอาณาจักร'.length)).toBe(given.indexOf(','));
    expect(broken.originalEnd(broken.text.length)).toBe(given.length);
    // a run of one word with no dictionary word inside is left as it is
    expect(breakWords('ไทย')!.text).toBe('ไทย');
    // one whose word holds one is followed by it
    expect(breakWords('ประเทศไทย')!.text).toContain(`${WORD_BREAK}ไทย${INNER_MARK}`);
  });

  it('leaves text without those scripts alone (the fast path)', () => {
    for (const text of ['United Kingdom', '東京都庁', 'Ελλάδα', 'القاهرة', 'Hà Nội']) {
      expect(hasUnspacedScript(text)).toBe(false);
      expect(breakWords(text)).toBeUndefined();
    }
  });

  it('has every letter of those scripts within the blocks the core tells a highlight it read', () => {
    // a page's highlight is read as given, and made again from the broken forms only when the core read a unit of these blocks
    let letters = 0;
    for (let unit = 0; unit <= 0xffff; unit++) {
      if (!UNSPACED_LETTER.test(String.fromCharCode(unit))) continue;
      letters++;
      expect(unit >= UNSPACED_FIRST && unit <= UNSPACED_LAST, unit.toString(16)).toBe(true);
    }
    expect(letters).toBeGreaterThan(500);
  });
});

describe.each(Object.entries(SCRIPTS))('%s', (script, { run, word, typo, prefix }) => {
  it('finds a word inside a longer run, and highlights it in the text as given', async () => {
    const answer = await search('countries', { query: word, getRankingInfo: true });
    expect(ids(answer)).toEqual([script]);
    expect(answer.hits[0]._rankingInfo.nbTypos).toBe(0);
    const highlighted: string = answer.hits[0]._highlightResult.name.value;
    expect(highlighted).toBe(`${run.replace(word, `<em>${word}</em>`)} (${script})`);
    expect(highlighted).not.toContain(WORD_BREAK);
    expect(answer.hits[0]._highlightResult.name.matchedWords).toEqual([word]);
  });

  it('finds the word with a typo, counted as one', async () => {
    const answer = await search('countries', { query: typo, getRankingInfo: true });
    expect(ids(answer)).toEqual([script]);
    expect(answer.hits[0]._rankingInfo.nbTypos).toBe(1);
  });

  it('finds the word from a prefix of it, the prefix highlighted', async () => {
    const answer = await search('countries', { query: prefix });
    expect(ids(answer)).toEqual([script]);
    expect(answer.hits[0]._highlightResult.name.value).toContain(`<em>${prefix}`);
    // no prefix when the query word must be whole
    expect(ids(await search('countries', { query: prefix, queryType: 'prefixNone', typoTolerance: false }))).toEqual([]);
  });

  it('matches a whole run typed as the query by its words in a row, as the record was broken', async () => {
    const answer = await search('countries', { query: run, getRankingInfo: true, exactOnSingleWordQuery: 'word', explain: ['match.alternatives'] });
    expect(ids(answer)).toEqual([script]);
    expect(answer.hits[0]._rankingInfo.nbExactWords).toBe(1);
    expect(answer.hits[0]._highlightResult.name.value).toBe(`<em>${run}</em> (${script})`);
    // explained as a split into the words the segmenter finds in the run, the record's words
    const words = wordsOfQueryWord(run)!.split(' ');
    expect(words.length).toBeGreaterThan(1);
    expect(answer.explain.match.alternatives).toContainEqual({ types: ['split'], words, typos: 0, offset: 0, length: 1 });
  });
});

/**
 * Per script: a compound the segmenter keeps one word, a dictionary word
 * inside it (not at its start), a typo of that word and a prefix of it.
 */
const COMPOUNDS = {
  thai: { compound: 'มหาวิทยาลัย', inner: 'วิทยาลัย', typo: 'วิทยาลับ', prefix: 'วิทยา' },
  lao: { compound: 'ນະຄອນຫຼວງ', inner: 'ຫຼວງ', typo: 'ຫຼວຍ', prefix: 'ຫຼວ' },
  khmer: { compound: 'ព្រះរាជាណាចក្រ', inner: 'រាជាណាចក្រ', typo: 'រាជាណាចក្ន', prefix: 'រាជាណា' },
  burmese: { compound: 'ပြည်ထောင်စု', inner: 'ထောင်', typo: 'ထောက်', prefix: 'ထော' },
} as const;

describe.each(Object.entries(COMPOUNDS))('%s: a word inside a dictionary word', (script, { compound, inner, typo, prefix }) => {
  const index = `compounds-${script}`;

  beforeAll(async () => {
    await engine.client().saveObjects({
      indexName: index,
      objects: [
        { objectID: 'inside', name: compound },
        { objectID: 'own', name: `${inner} ${script}` },
      ],
    });
    await engine.client().setSettings({ indexName: index, indexSettings: { exactOnSingleWordQuery: 'word' } });
    await engine.waitForTasks();
  });

  it('is found typed whole, highlighted in place, and ranks below the word of its own: not exact', async () => {
    expect(wordsOfQueryWord(compound)).toBeUndefined();
    const answer = await search(index, { query: inner, getRankingInfo: true });
    expect(ids(answer)).toEqual(['own', 'inside']);
    expect(answer.hits.map((h: any) => [h._rankingInfo.nbTypos, h._rankingInfo.nbExactWords])).toEqual([[0, 1], [0, 0]]);
    expect(answer.hits[1]._highlightResult.name.value).toBe(compound.replace(inner, `<em>${inner}</em>`));
    // found as well when it is not the query's last word (no prefix: matched whole)
    expect(ids(await search(index, { query: `${inner} ${script}`, queryType: 'prefixNone' }))).toEqual(['own']);
    expect(ids(await search(index, { query: inner, queryType: 'prefixNone', typoTolerance: false }))).toEqual(['own', 'inside']);
  });

  it('is found with a typo, counted as one', async () => {
    const answer = await search(index, { query: typo, getRankingInfo: true });
    expect(ids(answer).sort()).toEqual(['inside', 'own']);
    expect(answer.hits.map((h: any) => h._rankingInfo.nbTypos)).toEqual([1, 1]);
    expect(ids(await search(index, { query: typo, typoTolerance: false }))).toEqual([]);
  });

  it('is found from a prefix of it, the prefix highlighted', async () => {
    const answer = await search(index, { query: prefix });
    expect(ids(answer).sort()).toEqual(['inside', 'own']);
    const inside = answer.hits.find((h: any) => h.objectID === 'inside');
    expect(inside._highlightResult.name.value).toBe(compound.replace(prefix, `<em>${prefix}</em>`));
    expect(ids(await search(index, { query: prefix, queryType: 'prefixNone', typoTolerance: false }))).toEqual([]);
  });
});

describe('a run of several words', () => {
  it('is found as it is typed, grapheme by grapheme, past its first word', async () => {
    const { run } = SCRIPTS.thai;
    const graphemes = Array.from(new Intl.Segmenter('th', { granularity: 'grapheme' }).segment(run), (g) => g.segment);
    for (let n = 2; n <= graphemes.length; n++) {
      const typed = graphemes.slice(0, n).join('');
      const answer = await search('countries', { query: typed });
      expect(ids(answer), typed).toEqual(['thai']);
      expect(answer.hits[0]._highlightResult.name.value, typed).toBe(`<em>${typed}</em>${run.slice(typed.length)} (thai)`);
    }
  });

  it('finds the kingdom in the United Kingdom, and a word inside a compound', async () => {
    // อาณาจักร ("kingdom") in สหราชอาณาจักร ("United Kingdom"); ไทย ("Thai") in ประเทศไทย ("Thailand"), one word for ICU
    await engine.client().saveObjects({ indexName: 'kingdoms', objects: [{ objectID: 'uk', name: 'สหราชอาณาจักร' }, { objectID: 'th', name: 'ประเทศไทย' }] });
    await engine.waitForTasks();
    expect(ids(await search('kingdoms', { query: 'อาณาจักร' }))).toEqual(['uk']);
    expect(ids(await search('kingdoms', { query: 'ไทย' }))).toEqual(['th']);
    expect(ids(await search('kingdoms', { query: 'เทศ' }))).toEqual(['th']);
  });

  it('is found with a typo in one of its words', async () => {
    // สหราชอาณาจักน: the last letter of อาณาจักร mistyped, which the segmenter breaks as สห|ราช|อาณา|จัก|น
    const answer = await search('countries', { query: 'สหราชอาณาจักน', getRankingInfo: true });
    expect(ids(answer)).toEqual(['thai']);
    expect(answer.hits[0]._rankingInfo.nbTypos).toBe(1);
  });
});

describe('ranking', () => {
  it('ranks a record holding the word whole above one where it begins a longer word', async () => {
    // ICU reads ประเทศไทย ("Thailand") as one word, and ประเทศ ("country") as a word of its own in the other record
    await engine.client().saveObjects({
      indexName: 'ranking',
      objects: [
        { objectID: 'inside', name: 'ประเทศไทย' },
        { objectID: 'whole', name: 'ประเทศ ในเอเชีย' },
      ],
    });
    await engine.client().setSettings({ indexName: 'ranking', indexSettings: { exactOnSingleWordQuery: 'word' } });
    await engine.waitForTasks();
    const answer = await search('ranking', { query: 'ประเทศ', getRankingInfo: true });
    expect(ids(answer)).toEqual(['whole', 'inside']);
    expect(answer.hits.map((h: any) => h._rankingInfo.nbExactWords)).toEqual([1, 0]);
  });

  it('keeps the vowel signs and tone marks of these scripts: words they tell apart stay apart', async () => {
    // เสือ "tiger" and เสื้อ "shirt" differ by a tone mark; အီး and အေး by a vowel sign
    await engine.client().saveObjects({
      indexName: 'marks',
      objects: [
        { objectID: 'tiger', name: 'เสือโคร่ง' },
        { objectID: 'shirt', name: 'เสื้อยืด' },
        { objectID: 'ii', name: 'အီး' },
        { objectID: 'ei', name: 'အေး' },
      ],
    });
    await engine.waitForTasks();
    const exactly = { typoTolerance: false, queryType: 'prefixNone' };
    expect(ids(await search('marks', { query: 'เสื้อ', ...exactly }))).toEqual(['shirt']);
    expect(ids(await search('marks', { query: 'เสือ', ...exactly }))).toEqual(['tiger']);
    expect(ids(await search('marks', { query: 'အေး', ...exactly }))).toEqual(['ei']);
  });
});
