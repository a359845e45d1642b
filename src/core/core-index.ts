// A typed view of one WebAssembly core instance: it packs records, queries
// and rank arrays into the core's scratch buffer and reads results back as
// typed arrays, one call per batch.
import { CRITERION, EXACT_SINGLE, FILTERS_SLOT, GEO_SLOT, HIT_STRIDE, P, PARAM_COUNT, QUERY_TYPE, TEXT_EVERY_TOKEN, TEXT_HEADER, TEXT_INDEXED, TOKEN_STRIDE, TYPO_MODE, type WarmStep } from './abi.js';

export { TEXT_EVERY_TOKEN, TEXT_HEADER, TEXT_INDEXED, TEXT_SNIPPET_SHIFT, TOKEN_STRIDE } from './abi.js';
import { instantiateCore, type CoreExports } from './wasm.js';
import { platform } from '../platform/platform.js';
import { exportInSteps, importInSteps, SNAPSHOT_STEP } from './snapshot-steps.js';
import { alternativeForm, breakWords, eachUnspaced, formsOf, indexedForm, whereUnspaced, type BrokenText } from '../text/word-breaks.js';


export interface Segment { attribute: number; text: string }
export interface CoreDocument { id: number; segments: Segment[] }
export interface SearchableAttribute { rank: number; unordered: boolean }

export interface CoreQuery {
  query: string;
  queryType: keyof typeof QUERY_TYPE;
  typoMode: keyof typeof TYPO_MODE;
  minWordSizefor1Typo: number;
  minWordSizefor2Typos: number;
  allowTyposOnNumericTokens: boolean;
  exactOnSingleWordQuery: keyof typeof EXACT_SINGLE;
  minProximity: number;
  /** Criterion codes in ranking order (see abi.ts). */
  criteria: number[];
  /** Hits wanted: [offset, offset + length). */
  offset: number;
  length: number;
  /** Optional bitmap of allowed record ids (bit i = record i). */
  filter?: Uint32Array;
  /** Per record id (lower first): geo buckets and filter scores of this query, when they apply. */
  geoRanks?: Int32Array;
  filterRanks?: Int32Array;
  /** Bit masks over query words (bit w = word w). */
  optionalWords?: number;
  noTypoWords?: number;
  excludedWords?: number;
  noPrefixWords?: number;
  /** Words the words criterion counts after every other (stop words once words are relaxed). */
  lightWords?: number;
  /** Words of 3+ letters allowed one typo more than their length gives, up to two (see unmatchedWords). */
  raisedTypoWords?: number;
  /** Optional words that never make a record a candidate on their own (removeStopWords's stop words). */
  stopWords?: number;
  /**
   * false: the last word is matched over every record, never within the
   * other words' candidates only (the same answers, found the slow way:
   * tests compare the two; see assembly/bounded-match.ts).
   */
  boundLastWord?: boolean;
  /** Bit w: words w and w+1 form a phrase (adjacent, in order). */
  phrasePairs?: number;
  /** Words that may also match as two words, cut after each of their first MAX_SPLIT_HEAD units (assembly/split-words.ts). */
  splitWords?: number;
  /** Bit w: words w and w+1 may also match as one word. */
  concatWords?: number;
  /** Records kept per distinct group (groups set with setRanks(GROUP_SLOT)); 0 = off. */
  distinct?: number;
  /** Attribute ids (searchable attribute order) that may match; the others per-attribute rules. */
  allowedAttributes?: number[];
  noTypoAttributes?: number[];
  noPrefixAttributes?: number[];
  noExactAttributes?: number[];
  /** Other words that match a query word with no typo (plurals, synonyms); `exact` counts them as exact. */
  alternatives?: Alternative[];
}

export interface Alternative { word: number; text: string; exact: boolean; /** Typos the match counts as (altcorrections). */ typos?: number }

/** Two int32 halves of a 64-bit mask over attribute ids (ids past 63 are never restricted). */
function setMask64(params: Int32Array, at: number, ids: number[] | undefined, fallback: 'all' | 'none'): void {
  if (ids === undefined) {
    params[at] = params[at + 1] = fallback === 'all' ? -1 : 0;
    return;
  }
  let low = 0, high = 0;
  for (const id of ids) {
    if (id < 32) low |= 1 << id;
    else if (id < 64) high |= 1 << (id - 32);
  }
  params[at] = low;
  params[at + 1] = high;
}

export interface CoreHit {
  id: number;
  typos: number;
  words: number;
  proximity: number;
  attributeRank: number;
  attributePosition: number;
  exactWords: number;
  customRank: number;
}

export interface CoreResult {
  nbHits: number;
  /** [start, end) of each query word in the query string. */
  words: Array<[number, number]>;
  hits: CoreHit[];
}

/** Labels per record id that order records (equal for ties), and which of them changed: what a rank slot copies (see syncRanks). */
export interface RankLabels {
  /** Per record id: its label (0 without a record); may be longer than the ids issued. */
  readonly labels: Int32Array;
  /** Changes when every label may have changed: a slot that copied another generation copies them all again. */
  readonly generation: number;
  /** Ids labelled since the generation began, oldest first: a slot holding this generation copies those after the ones it copied. */
  readonly changed: readonly number[];
}

/**
 * Texts averaging this many UTF-16 units or more are written into the core
 * one by one, not joined first: a page of highlighted documents of a
 * thousand words joined was ~60 KB of garbage an answer. A write per text
 * costs a view of the memory each, more than joining a short text: a page
 * of many short values (a talk's twenty attributes a hit) is joined.
 */
export const APART_AVERAGE_UNITS = 1024;

/** Whether `texts`, `units` UTF-16 units in all, are written one by one (see APART_AVERAGE_UNITS). */
const writtenApart = (texts: readonly string[], units: number): boolean => units >= texts.length * APART_AVERAGE_UNITS;

/**
 * `texts` each through `each` where they hold a run of a script written
 * without spaces (see whereUnspaced), and joined when they are to be
 * written as one string: long texts (see APART_AVERAGE_UNITS) are asked
 * one by one and never joined.
 */
function unspacedForms<T>(texts: readonly string[], each: (text: string) => T): { each: T[] | undefined; joined: string | undefined } {
  return writtenApart(texts, unitsOf(texts)) ? { each: eachUnspaced(texts, each), joined: undefined } : whereUnspaced(texts, each);
}

/** How many UTF-16 units `texts` hold in all. */
function unitsOf(texts: readonly string[]): number {
  let units = 0;
  for (const text of texts) units += text.length;
  return units;
}

/** Writes `text`'s UTF-16 units into `into` from `at`; returns where they end (one view serves many texts: a view per text costs more than writing a short one). */
function writeUnits(into: Uint16Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) into[at + i] = text.charCodeAt(i);
  return at + text.length;
}

export class CoreIndex {
  private readonly instance = instantiateCore();
  private readonly core: CoreExports = this.instance.core;

  private scratch(bytes: number): number {
    return this.core.scratch(bytes);
  }

  private writeText(ptr: number, text: string): void {
    writeUnits(new Uint16Array(this.core.memory.buffer, ptr, text.length), 0, text);
  }

  /**
   * Writes `texts` end to end at `ptr` (`units` UTF-16 units): where the
   * platform copies a string's units natively, as one string in one copy
   * (`joined`, else joined here: written a unit at a time by JavaScript
   * they took ~10% of the core's indexing time), or text by text when they
   * are long and not joined yet (see APART_AVERAGE_UNITS).
   */
  private writeTexts(ptr: number, texts: readonly string[], units: number, joined?: string): void {
    const { writeUtf16 } = platform;
    const memory = this.core.memory.buffer;
    if (!writeUtf16) {
      const view = new Uint16Array(memory, ptr, units);
      let at = 0;
      for (const text of texts) at = writeUnits(view, at, text);
      return;
    }
    if (joined !== undefined || !writtenApart(texts, units)) {
      writeUtf16(memory, ptr, joined ?? texts.join(''));
      return;
    }
    let at = ptr;
    for (const text of texts) {
      writeUtf16(memory, at, text);
      at += text.length * 2;
    }
  }

  private results(): Int32Array {
    return new Int32Array(this.core.memory.buffer, this.core.resultsPtr(), this.core.resultsLength());
  }

  setSeparators(separators: string): void {
    const ptr = this.scratch(separators.length * 2 + 2);
    this.writeText(ptr, separators);
    this.core.setSeparators(separators.length);
  }

  setAttributes(attributes: SearchableAttribute[]): void {
    const ptr = this.scratch(attributes.length * 8 + 8);
    const view = new Int32Array(this.core.memory.buffer, ptr, attributes.length * 2);
    attributes.forEach((a, i) => { view[i * 2] = a.rank; view[i * 2 + 1] = a.unordered ? 1 : 0; });
    this.core.setAttributes(attributes.length);
  }

  addDocuments(documents: CoreDocument[]): void {
    let headerWords = 2;
    const given: string[] = [];
    for (const doc of documents) {
      headerWords += 2 + doc.segments.length * 2;
      for (const s of doc.segments) given.push(s.text);
    }
    // each text as the core indexes it: words broken apart in scripts written without spaces
    const { each: forms, joined } = unspacedForms(given, indexedForm);
    const texts = forms ?? given;
    const textUnits = forms || joined === undefined ? unitsOf(texts) : joined.length;
    const textOffset = headerWords * 4;
    const ptr = this.scratch(textOffset + textUnits * 2);
    const header = new Int32Array(this.core.memory.buffer, ptr, headerWords);
    header[0] = documents.length;
    header[1] = textOffset;
    let h = 2;
    let next = 0;
    for (const doc of documents) {
      header[h++] = doc.id;
      header[h++] = doc.segments.length;
      for (const s of doc.segments) {
        header[h++] = s.attribute;
        header[h++] = texts[next++].length;
      }
    }
    this.writeTexts(ptr + textOffset, texts, textUnits, forms ? undefined : joined);
    this.core.addDocuments();
  }

  removeDocument(id: number): void {
    this.core.removeDocument(id);
  }

  /** Whose rank arrays the rank slots hold, at which version (indexes sharing this core take turns). */
  ranksOwner: object | undefined;
  ranksVersion = -1;

  /** Per rank slot: the labels it holds (their source and generation) and how many of the source's changes it copied. */
  private readonly heldRanks = new Map<number, { source: RankLabels; generation: number; copied: number }>();

  /**
   * Puts `source`'s labels in rank slot `slot` (0: customRanking, a sort
   * slot, the distinct groups): when the slot holds the same source and
   * generation, only the labels changed since it last copied them, else
   * every label.
   */
  syncRanks(slot: number, source: RankLabels): void {
    const held = this.heldRanks.get(slot);
    if (held?.source === source && held.generation === source.generation) {
      if (held.copied < source.changed.length) this.setRanksOf(slot, source.changed, held.copied, source.labels);
      held.copied = source.changed.length;
      return;
    }
    this.setRanks(slot, source.labels);
    this.heldRanks.set(slot, { source, generation: source.generation, copied: source.changed.length });
  }

  /**
   * Sorts `ids` by their 64-bit keys (`high`, then `low`, both as unsigned;
   * equal keys keep their order): the ids in order and, per position,
   * 1 when its key equals the one before.
   */
  sortByKeys(ids: Int32Array, high: Int32Array, low: Int32Array): { order: Int32Array; tied: Uint8Array } {
    const n = ids.length;
    const ptr = this.scratch(n * 12 + 4);
    const runs = new Int32Array(this.core.memory.buffer, ptr, n * 3);
    runs.set(ids);
    runs.set(high, n);
    runs.set(low, 2 * n);
    this.core.sortKeys(n);
    const sorted = this.results();
    return { order: sorted.slice(0, n), tied: Uint8Array.from(sorted.subarray(n, 2 * n)) };
  }

  /** Ranks (lower first) per record id, for slot 0 (customRanking), a sort slot or the distinct groups. */
  setRanks(slot: number, ranks: Int32Array): void {
    const ptr = this.scratch(ranks.length * 4 + 4);
    new Int32Array(this.core.memory.buffer, ptr, ranks.length).set(ranks);
    this.core.setRanks(slot, ranks.length);
  }

  /** Sets the labels of the ids `ids[from...]` in rank slot `slot`. */
  private setRanksOf(slot: number, ids: readonly number[], from: number, labels: Int32Array): void {
    const count = ids.length - from;
    const ptr = this.scratch(count * 8 + 4);
    const pairs = new Int32Array(this.core.memory.buffer, ptr, count * 2);
    for (let i = 0; i < count; i++) {
      const id = ids[from + i];
      pairs[2 * i] = id;
      pairs[2 * i + 1] = labels[id];
    }
    this.core.setRanksOf(slot, count);
  }

  private params(): Int32Array {
    return new Int32Array(this.core.memory.buffer, this.core.paramsPtr(), PARAM_COUNT);
  }

  /**
   * Writes the query text (and filter bitmap) to scratch, and the query's
   * parameters. The query is written as typed: a run of a script written
   * without spaces is one query word, which its words match as an
   * alternative (see the query plan's wordBreakAlternatives).
   */
  private writeQuery(q: CoreQuery): void {
    const queryBytes = (q.query.length * 2 + 7) & ~7;
    // the core reads bitmaps in whole 128-bit vectors
    const filterWords = ((q.filter?.length ?? 0) + 3) & ~3;
    const alternativesAt = queryBytes + filterWords * 4;
    const alternatives = q.alternatives ?? [];
    // an alternative in a script written without spaces is broken as the records were (a phrase when it is several words)
    const forms = formsOf(alternatives.map((a) => a.text), alternativeForm).texts;
    const alternativeBytes = 4 + forms.reduce((n, form) => n + 12 + ((form.length * 2 + 3) & ~3), 0);
    const ptr = this.scratch(alternativesAt + alternativeBytes + 8);
    this.writeText(ptr, q.query);
    if (q.filter) new Uint32Array(this.core.memory.buffer, ptr + queryBytes, filterWords).fill(0).set(q.filter);
    this.writeAlternatives(ptr + alternativesAt, alternativeBytes, alternatives, forms);
    const params = this.params();
    params[P.QUERY_LENGTH] = q.query.length;
    params[P.QUERY_TYPE] = QUERY_TYPE[q.queryType];
    params[P.TYPO_MODE] = TYPO_MODE[q.typoMode];
    params[P.MIN_1_TYPO] = q.minWordSizefor1Typo;
    params[P.MIN_2_TYPOS] = q.minWordSizefor2Typos;
    params[P.TYPOS_ON_NUMBERS] = q.allowTyposOnNumericTokens ? 1 : 0;
    params[P.EXACT_SINGLE] = EXACT_SINGLE[q.exactOnSingleWordQuery];
    params[P.TOP_K] = q.offset + q.length;
    params[P.OFFSET] = q.offset;
    params[P.MIN_PROXIMITY] = Math.max(1, q.minProximity);
    params[P.FILTER] = q.filter ? queryBytes : -1;
    params[P.FILTER_WORDS] = filterWords;
    params[P.CRITERIA_COUNT] = q.criteria.length;
    for (let i = 0; i < q.criteria.length; i++) params[P.CRITERIA + i] = q.criteria[i];
    params[P.GEO_ACTIVE] = q.geoRanks ? 1 : 0;
    params[P.FILTER_SCORES_ACTIVE] = q.filterRanks ? 1 : 0;
    params[P.OPTIONAL_WORDS] = q.optionalWords ?? 0;
    params[P.NO_TYPO_WORDS] = q.noTypoWords ?? 0;
    params[P.EXCLUDED_WORDS] = q.excludedWords ?? 0;
    params[P.NO_PREFIX_WORDS] = q.noPrefixWords ?? 0;
    params[P.LIGHT_WORDS] = q.lightWords ?? 0;
    params[P.RAISED_TYPO_WORDS] = q.raisedTypoWords ?? 0;
    params[P.STOP_WORDS] = q.stopWords ?? 0;
    params[P.BOUND_LAST_WORD] = q.boundLastWord === false ? 0 : 1;
    params[P.ALTERNATIVES] = alternatives.length ? alternativesAt : -1;
    params[P.DISTINCT] = q.distinct ?? 0;
    params[P.PHRASE_PAIRS] = q.phrasePairs ?? 0;
    params[P.SPLIT_WORDS] = q.splitWords ?? 0;
    params[P.CONCAT_WORDS] = q.concatWords ?? 0;
    setMask64(params, P.ALLOWED_ATTRIBUTES, q.allowedAttributes, 'all');
    setMask64(params, P.NO_TYPO_ATTRIBUTES, q.noTypoAttributes, 'none');
    setMask64(params, P.NO_PREFIX_ATTRIBUTES, q.noPrefixAttributes, 'none');
    setMask64(params, P.NO_EXACT_ATTRIBUTES, q.noExactAttributes, 'none');
  }

  /**
   * Writes the alternatives (`forms`: each one's text as the core reads it)
   * at `at`, 4-byte aligned, in `bytes`: their count, then each one's word,
   * flags, length and text. Through one view of each width over them all
   * (a view per text, 15-20 of them a query, cost more than the writes).
   */
  private writeAlternatives(at: number, bytes: number, alternatives: Alternative[], forms: string[]): void {
    const ints = new Int32Array(this.core.memory.buffer, at, bytes >> 2);
    const units = new Uint16Array(this.core.memory.buffer, at, bytes >> 1);
    ints[0] = alternatives.length;
    let p = 1; // in 4-byte words
    alternatives.forEach((a, i) => {
      const text = forms[i];
      ints[p] = a.word;
      ints[p + 1] = (a.exact ? 1 : 0) | ((a.typos ?? 0) << 8);
      ints[p + 2] = text.length;
      writeUnits(units, (p + 3) * 2, text);
      p += 3 + ((text.length + 1) >> 1);
    });
  }

  search(q: CoreQuery): CoreResult {
    if (q.geoRanks) this.setRanks(GEO_SLOT, q.geoRanks);
    if (q.filterRanks) this.setRanks(FILTERS_SLOT, q.filterRanks);
    this.writeQuery(q);
    this.core.search();
    return readSearchResult(this.results());
  }

  /**
   * Takes now the memory the first search would (the caches' room, once an
   * index has 65,536 records): growing a WebAssembly memory makes V8 mark
   * its whole heap, and that marking then falls on the searches after it.
   */
  prepareSearches(): void { this.core.prepareSearches(); }

  /**
   * Builds the prefix cache's entry for one one-letter prefix (the costliest
   * to decode of those a second ask would cache): a step of the idle work
   * of src/index/prefix-warming.ts. WARM_STEP.more when it measured letters or took one,
   * `done` when none is left, `unlaid` when a search must lay the caches
   * out first (an index of 65,536 records or more, not searched since it grew).
   */
  warmPrefixes(): WarmStep { return this.core.warmPrefixes() as WarmStep; }

  /**
   * Lists a step of the dictionary's new terms for the lookup of a typo'd
   * word's other first letters (assembly/first-letter-typos.ts), in idle
   * time (src/index/prefix-warming.ts); whether every term is listed. A
   * search walks those letters until then.
   */
  listNewTerms(): boolean { return this.core.listNewTerms() === 1; }

  /** The dictionary's terms not listed yet (see listNewTerms). */
  get termsToList(): number { return this.core.termsToList(); }

  /** The ranked query words of the last search that matched no record at all (bit w = word w). */
  unmatchedWords(): number { return this.core.unmatchedWords(); }

  /** The last search's candidate records as a bitmap (a view: valid until the next call into the core). */
  candidates(): Uint32Array {
    return new Uint32Array(this.core.memory.buffer, this.core.candidatesPtr(), this.core.candidateWords());
  }

  /** Reads `q`'s words so that `highlight` matches against them, without searching; returns their [start, end). */
  prepareQuery(q: CoreQuery): Array<[number, number]> {
    this.writeQuery(q);
    this.core.prepareQuery();
    const r = this.results();
    const words: Array<[number, number]> = [];
    for (let w = 0; w < r[0]; w++) words.push([r[1 + w * 2], r[2 + w * 2]]);
    return words;
  }

  /**
   * Every token of `text` with the query words of the last search it
   * matches (TOKEN_STRIDE values each, see highlightTexts): a view of the
   * core's results, valid until the next call into the core. `indexed`: see
   * TEXT_INDEXED.
   */
  highlight(text: string, indexed = false): Int32Array {
    return this.highlightTexts([text], [TEXT_EVERY_TOKEN | (indexed ? TEXT_INDEXED : 0)]).subarray(TEXT_HEADER);
  }

  /**
   * Highlights `texts` in one call into the core (a page of hits: one call
   * per value cost ~0.4 µs in crossings and views alone), each as its
   * `flags` say (TEXT_INDEXED, TEXT_EVERY_TOKEN, a snippet's size in words
   * from TEXT_SNIPPET_SHIFT up: the core's params.ts). Per text, in order:
   * TEXT_HEADER values (its token count, the number of tokens listed, the
   * ordinal of the first listed), then per listed token TOKEN_STRIDE
   * values: its start, end, mask of the query words it matches and the end
   * of its highlighted part. The tokens listed are the matched ones, every
   * one with TEXT_EVERY_TOKEN, or a snippet's window of them.
   * A view of the core's results, valid until the next call into the core:
   * a copy per highlighted value allocated an ArrayBuffer each, and while a
   * snapshot was taken the allocator's bookkeeping of ArrayBuffers made
   * those copies take up to 200 ms.
   */
  highlightTexts(texts: readonly string[], flags: readonly number[]): Int32Array {
    // read as given first: the core tells whether they may hold a script written without spaces (most pages hold none)
    if (this.highlightWritten(texts, flags) === 0) return this.results();
    // then tokenized as they were indexed (words broken apart in those scripts), each text's breaks kept to map tokens back
    const broken = eachUnspaced(texts, (text) => breakWords(text));
    if (broken === undefined) return this.results();
    this.highlightWritten(texts.map((text, i) => broken[i]?.text ?? text), flags);
    const tokens = this.results();
    mapTokensBack(tokens, broken);
    return tokens;
  }

  /** The core's highlightTexts of `texts` as they are: 1 when they held a unit between UNSPACED_FIRST and UNSPACED_LAST. */
  private highlightWritten(texts: readonly string[], flags: readonly number[]): number {
    const units = unitsOf(texts);
    const headerBytes = texts.length * 8;
    const ptr = this.scratch(headerBytes + units * 2 + 2);
    const header = new Int32Array(this.core.memory.buffer, ptr, texts.length * 2);
    texts.forEach((text, i) => {
      header[i * 2] = text.length;
      header[i * 2 + 1] = flags[i];
    });
    this.writeTexts(ptr + headerBytes, texts, units);
    return this.core.highlightTexts(texts.length);
  }

  /**
   * Per record id of the last search's hits: the core attribute ids whose
   * values hold a term that search marked, in the order of `ids`; undefined
   * when its marks are incomplete (after `prepareQuery`, say), when only a
   * full `highlight` can tell. A value of an attribute not listed matches no
   * query word, so its highlight needs no tokenizing.
   */
  markedAttributes(ids: readonly number[]): Int32Array[] | undefined {
    const ptr = this.scratch(ids.length * 4 + 4);
    new Int32Array(this.core.memory.buffer, ptr, ids.length).set(ids);
    this.core.markedAttributes(ids.length);
    const r = this.results();
    if (r[0] === 0) return undefined;
    const marked: Int32Array[] = [];
    for (let at = 1; marked.length < ids.length; at += 1 + r[at]) marked.push(r.slice(at + 1, at + 1 + r[at]));
    return marked;
  }

  /** Drops removed records' postings from term `first` on, about `budget` bytes' worth; returns the term to go on from (termCount when done). */
  compactSome(first: number, budget: number): number { return this.core.compactSome(first, budget); }

  /** Bytes of every posting list. */
  postingBytes(): number { return this.core.postingBytes(); }

  /**
   * The index as bytes (dictionary, forward lists, rank arrays: see
   * assembly/snapshot.ts), in parts of about SNAPSHOT_STEP bytes, with
   * `pause` awaited between parts: a large index is exported between
   * searches (`step`: bytes per part). Nothing may write to the index
   * until it resolves.
   */
  async exportSnapshot(pause: () => Promise<void> = async () => {}, step = SNAPSHOT_STEP): Promise<Uint8Array[]> {
    return exportInSteps(this.instance, () => this.core.exportSnapshotBegin(), (budget) => this.core.exportSnapshotSome(budget), pause, step);
  }

  /**
   * Loads a snapshot (the parts `exportSnapshot` gave, or any cut of their
   * bytes) into this empty index, `pause` awaited between steps; false when
   * the bytes are not a valid snapshot.
   */
  async importSnapshot(parts: Uint8Array[], pause: () => Promise<void> = async () => {}, step = SNAPSHOT_STEP): Promise<boolean> {
    this.heldRanks.clear(); // the snapshot brings its own rank slots
    return importInSteps(
      this.instance, parts, (length) => this.core.importSnapshotBegin(length), (budget) => this.core.importSnapshotSome(budget), pause, step,
    );
  }

  get termCount(): number { return this.core.termTotal(); }
  get liveCount(): number { return this.core.liveTotal(); }
  /**
   * Blocks of posting lists a bounded last word's decoding read and jumped
   * over (skip entries, see assembly/skip-entries.ts), since the index was made.
   */
  boundedBlocks(): { decoded: number; skipped: number } {
    return { decoded: this.core.blocksDecoded(), skipped: this.core.blocksSkipped() };
  }
  /** Subtrees and frequent terms whose records the core keeps cached now (see assembly/prefix-cache.ts). */
  get prefixCacheEntries(): number { return this.core.prefixCacheEntries(); }
  /** Records long enough to have a term index, which their proximity scans read instead of their tokens (see assembly/record-terms.ts). */
  get termIndexedRecords(): number { return this.core.termIndexedRecords(); }
  /**
   * Lists a step of long records' tokens term by term (about 64k tokens'
   * worth), records not listed yet in id order, for broad searches to read
   * many at once (assembly/term-positions.ts): done while writes pause
   * (src/index/prefix-warming.ts). Whether every record is listed.
   */
  listRecordPositions(): boolean { return this.core.listRecordPositions() === 1; }
  /**
   * Long records whose tokens the core's position lists hold, and records
   * whose proximity was read from those lists, many at once, since the
   * index was made (see assembly/term-positions.ts).
   */
  get positionLists(): { listed: number; scannedAtOnce: number } {
    return { listed: this.core.positionListedRecords(), scannedAtOnce: this.core.recordsScannedAtOnce() };
  }
  /** Whether the walk's copy of the dictionary trie is up to date (else the next search copies it: see assembly/trie-order.ts). */
  get walkCopyCurrent(): boolean { return this.core.walkCopyCurrent() === 1; }
  /** How many records rank slot `slot` holds labels for (0: none, e.g. a slot a snapshot did not carry). */
  rankSlotLength(slot: number): number { return this.core.rankSlotLength(slot); }
  get memoryBytes(): number { return this.core.memory.buffer.byteLength; }
}

/** In CoreIndex.highlightTexts' results, where those of the text after the one whose results start at `at` start. */
export function nextTextAt(tokens: Int32Array, at: number): number {
  return at + TEXT_HEADER + tokens[at + 1] * TOKEN_STRIDE;
}

/** Rewrites in place the offsets (start, end, end of the highlighted part) of the tokens listed for each broken text as offsets in the text as given. */
function mapTokensBack(tokens: Int32Array, broken: ReadonlyArray<BrokenText | undefined>): void {
  for (let at = 0, b = 0; b < broken.length; at = nextTextAt(tokens, at), b++) {
    const text = broken[b];
    if (!text) continue;
    for (let i = at + TEXT_HEADER; i < nextTextAt(tokens, at); i += TOKEN_STRIDE) {
      const start = tokens[i];
      tokens[i] = text.originalStart(start);
      tokens[i + 1] = text.originalEnd(tokens[i + 1]);
      // the end of the highlighted part: the start when nothing is
      tokens[i + 3] = tokens[i + 3] > start ? text.originalEnd(tokens[i + 3]) : tokens[i];
    }
  }
}

function readSearchResult(r: Int32Array): CoreResult {
  const [nbHits, returned, wordCount] = r;
  const words: Array<[number, number]> = [];
  let i = 3;
  for (let w = 0; w < wordCount; w++, i += 2) words.push([r[i], r[i + 1]]);
  const hits: CoreHit[] = [];
  for (let h = 0; h < returned; h++, i += HIT_STRIDE) {
    hits.push({
      id: r[i], typos: r[i + 1], words: r[i + 2], proximity: r[i + 3], attributeRank: r[i + 4],
      attributePosition: r[i + 5], exactWords: r[i + 6], customRank: r[i + 7],
    });
  }
  return { nbHits, words, hits };
}

export { CRITERION };
