// One index: its records (objectID ↔ dense record id), settings, and the
// WebAssembly core instance holding its dictionary, postings and ranks.
import { GROUP_SLOT, TIE_SLOT } from '../core/abi.js';
import { CoreIndex, type CoreDocument, type RankLabels, type Segment } from '../core/core-index.js';
import {
  effectiveSetting, rankingPlan, searchableAttributes, type RankingPlan, type SearchableAttribute,
  type Settings, type SortEntry,
} from './settings.js';
import type { GivenForms, SettingsChanges } from './params.js';
import { yieldTurn } from '../util/turns.js';
import { FacetIndex, facetAttributes } from './facets.js';
import { numericFilterable } from './filters/evaluate.js';
import { Compaction } from './compaction.js';
import { PrefixWarming } from './prefix-warming.js';
import { IdleWork } from './idle-work.js';
import type { Synonym } from './synonyms.js';
import type { Rule } from './rules.js';
import { RecordStore, type PackedRecords } from './record-store.js';
import { RankOrder, type KeySorter } from './rank-order.js';
import { TieOrder } from './tie-order.js';
import { DistinctGroups } from './distinct-groups.js';
import { applyPartial, pathLeaves, textLeaves, valuesAt, type Json, type SearchRecord } from './records.js';
import { own } from '../util/own-keys.js';
import { hasUnspacedScript } from '../text/word-breaks.js';
import { IndexVectors, type EmbeddedVector, type VectorsSnapshot } from '../vectors/index-vectors.js';

/** Records handed to the core per call: their text sits in its scratch memory, which never shrinks (250 ≈ 0.2 MB). */
const CORE_BATCH = 250;

/** The labels of a slot that ranks by nothing: every record 0 (the core ranks ids past a slot's end 0). */
const UNRANKED: RankLabels = { labels: new Int32Array(0), generation: 0, changed: [] };

/**
 * How the core's terms are formed from text, as a snapshot records it: 1
 * since runs of the scripts written without spaces are broken into words
 * and keep their vowel signs, 2 since the dictionary words inside those
 * words are indexed too (src/text/word-breaks.ts). The core of a
 * snapshot of an earlier form (none recorded) holds such runs whole, or
 * lacks the inner words: its index is built again from its records when they hold any.
 */
const TEXT_FORM = 2;

/** Records indexed per event-loop turn by a background rebuild. */
const REBUILD_SLICE = 2000;
/**
 * Quiet time after the last write before the missing filter columns are
 * made, and the records a step reads (~1-2 µs a record: a step of a few
 * ms). See buildFilterColumnsSome.
 */
const COLUMNS_QUIET_MS = 100;
const COLUMN_SLICE_RECORDS = 4096;
/**
 * Ids issued to records no longer there, per live record and at least,
 * before the live ones are issued ids again (see renumberIfSparse): a
 * search at 5 ids a record answers as fast as at 1 (bench/updated-in-place.mjs),
 * and each renumbering costs what indexing the records again does.
 */
const SPARSE_IDS = { perRecord: 4, least: 10_000 };
/** Settings whose change means indexing every record again. */
const INDEXING_SETTINGS: ReadonlyArray<keyof Settings> = ['searchableAttributes', 'separatorsToIndex'];

/**
 * The settings that shape an index's data (its core, facet columns and
 * vector spaces): two indexes whose own are equal hold the same data for
 * the same records, so a standard replica reads its primary's (see
 * index-config.ts, shareDataOf).
 */
const DATA_SETTINGS: ReadonlyArray<keyof Settings> = [...INDEXING_SETTINGS, 'attributesForFaceting', 'embedders'];

/** Whether indexes of settings `a` and `b` hold the same data for the same records (see DATA_SETTINGS). */
export function indexAlike(a: Settings, b: Settings): boolean {
  return !changed(a, b, DATA_SETTINGS);
}

const changed = (a: Settings, b: Settings, names: ReadonlyArray<keyof Settings>) =>
  names.some((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));

/** The settings after a change: a value replaces the setting, null resets it (removes it). */
function mergeSettings(current: Settings, changes: SettingsChanges): Settings {
  const next: Partial<Record<keyof Settings, unknown>> = { ...current };
  for (const [name, value] of Object.entries(changes) as Array<[keyof Settings, unknown]>) {
    if (value === null) delete next[name]; else next[name] = value;
  }
  return next as Settings;
}

/** The given forms after a change: each setting changed loses its old form and keeps the new one when given in another. */
function mergeGivenForms(current: GivenForms, changes: SettingsChanges, given: GivenForms): GivenForms {
  const next: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    delete next[name];
    if (value !== null && Object.hasOwn(given, name)) next[name] = given[name as keyof GivenForms];
  }
  return next;
}

/**
 * The time of the write being applied: the engine sets it to the time the
 * write was accepted, so replaying a log gives the same createdAt/updatedAt.
 */
/**
 * When writes to an index happen: while a logged write is applied, the time
 * it was accepted (so a replay gives the same createdAt and updatedAt);
 * otherwise now. The index catalog keeps one for its indexes.
 */
export class WriteClock {
  /** Set by the catalog around each write it applies. */
  at: number | undefined;
  now(): Date { return new Date(this.at ?? Date.now()); }
}

/** The clock of indexes outside a catalog (never set: the time now). */
const UNSET = new WriteClock();

/** An index as its snapshot holds it. */
export interface IndexSnapshot {
  name: string;
  createdAt: number;
  updatedAt: number;
  lastBuildTimeS: number;
  settings: Settings;
  /** The settings given in another form (absent when none was, and in snapshots written before them). */
  givenForms?: GivenForms;
  records: PackedRecords;
  dynamicAttributes: Array<[string, number]>;
  /** The core's snapshot: its parts as exported. */
  core: Uint8Array[];
  /** The core's rank slots are this index's, up to date. */
  ranksFresh: boolean;
  /** How the core's terms were formed from text (TEXT_FORM; absent in snapshots written before word breaks). */
  textForm?: number;
  synonyms: Synonym[];
  rules: Rule[];
  primary?: string;
  /** The embedders' vector spaces and computed vectors (absent before vectors, or without embedders). */
  vectors?: VectorsSnapshot;
}

export class SearchIndex {
  readonly createdAt: Date;
  updatedAt: Date;
  readonly synonyms = new Map<string, Synonym>();
  readonly rules = new Map<string, Rule>();
  /** Set on a replica: the index it follows. */
  primary: string | undefined;
  settings: Settings = {};
  /** The settings given in another form than `settings` holds them, in that form: what getSettings answers. */
  givenForms: GivenForms = {};
  lastBuildTimeS = 0;
  /** Bumped by every change of this index's records or settings. */
  private ownVersion = 0;

  private core = new CoreIndex();
  /**
   * Sorts by 64-bit keys in this index's core (any core would do: the sort
   * keeps nothing). It writes the core's scratch and results, and may grow
   * its memory: a caller (rank orders, numeric columns at a range filter)
   * holds no view of them across it. Filters are evaluated before the
   * core searches.
   */
  private readonly sortByKeys: KeySorter = (ids, high, low) => this.core.sortByKeys(ids, high, low);
  private records = new RecordStore();
  /** The vectors of the records, per embedder (see index-vectors.ts). */
  private ownVectors = new IndexVectors();
  private attributes: SearchableAttribute[] | null = null;
  /** parsedSearchableAttributes's answer, and the settings object it was parsed from. */
  private parsedSearchable: { of: Settings; attributes: SearchableAttribute[] | null } | undefined;
  /** In "every attribute" mode: attribute path → attribute id, grown as records arrive. */
  private dynamicAttributes = new Map<string, number>();
  private plan: RankingPlan = rankingPlan({});
  private facetIndex = this.newFacetIndex();
  /** Rank labels of this index's settings over its data, per rank slot, for the data version they were computed at. */
  private rankCache: { version: number; slots: Array<[number, RankLabels]> } | undefined;
  /** The orders behind the rank arrays, kept across writes for the ranking plan they follow. */
  private rankOrders: { plan: RankingPlan; orders: Array<RankOrder | undefined> } | undefined;
  /**
   * The distinct groups of this index's own data by attribute: those of the
   * attributes it and the replicas reading its data group by (one object
   * per attribute, shared, as the groups of the same records are the same).
   */
  private readonly groupsByAttribute = new Map<string, DistinctGroups>();
  /**
   * The order of records every criterion ties: by objectID, descending, as
   * the service's (docs/COMPATIBILITY.md, "Tie order"); whatever the plan,
   * so kept across settings, and the same for a record saved again; the
   * replicas reading this index's data order by this one.
   */
  private readonly tieOrder = new TieOrder(this.sortByKeys);
  /** A replica reading its primary's data: the index whose records, core and facets it reads (it holds none). */
  private shared: SearchIndex | undefined;
  /** The replicas reading this index's data: each record saved is noted in their orders and groups too, while it is at hand. */
  private readonly readers = new Set<SearchIndex>();
  /** Set on a virtual replica (it sorts by relevancyStrictness); a standard one shares only while its settings index as its primary's do. */
  private virtual = false;
  private readonly compaction = new Compaction();
  /** One-letter prefixes' cache entries, built once writes pause (see prefix-warming.ts). */
  private readonly prefixWarming = new PrefixWarming(new WeakRef(this));
  /** The columns filters and facets read, made once writes pause (see buildFilterColumnsSome). */
  private readonly columnBuilding = new IdleWork(() => this.buildFilterColumnsSome(), COLUMNS_QUIET_MS);
  /** Set while records are saved again under new ids (a rebuild): their vectors are renumbered instead of placed again. */
  private keepVectors = false;
  /** When a search or browse last put this index's ranks in its core (performance.now(); -Infinity: never). */
  private rankedAt = -Infinity;
  /** A copy of its primary's records built in the background, for a replica about to stop reading them (see prepareOwnCopy). */
  private ownCopy: { settings: string; index: SearchIndex } | undefined;
  /** A copy built in the background for settings about to be applied (see prepareSettings). */
  private rebuilt: { settings: string; index: SearchIndex } | undefined;

  constructor(readonly name: string, createdAt?: Date, private readonly clock: WriteClock = UNSET) {
    this.createdAt = createdAt ?? clock.now();
    this.updatedAt = clock.now();
    this.configureCore();
  }

  /** The index holding the records this one searches: itself, or a virtual replica's primary. */
  private get data(): SearchIndex { return this.shared ?? this; }
  /** Changes whenever the records or settings searched change (browse orders are cached per version). */
  get version(): number { return this.ownVersion + (this.shared?.version ?? 0); }
  get sharesData(): boolean { return this.shared !== undefined; }
  get isVirtual(): boolean { return this.virtual; }

  get size(): number { return this.data.records.size; }
  get ranking(): RankingPlan { return this.plan; }
  /** The size of the data it answers from: none of a virtual replica's, a standard replica's even when it reads its primary's (as the copy it stands for would weigh). */
  get memoryBytes(): number { return this.virtual ? 0 : this.data.core.memoryBytes; }
  get coreIndex(): CoreIndex { return this.data.core; }
  get facets(): FacetIndex { return this.data.facetIndex; }
  /** The vectors searched: this index's, or a virtual replica's primary's. */
  get vectors(): IndexVectors { return this.data.ownVectors; }
  /** Record ids issued so far (live or not): the length of bitmaps over this index. */
  get capacity(): number { return this.data.records.length; }

  get(objectID: string): SearchRecord | undefined {
    const id = this.idOf(objectID);
    return id === undefined ? undefined : this.record(id);
  }

  record(id: number): SearchRecord | undefined { return this.data.records.get(id); }
  /** The texts of a live record that the core indexes (its searchable values): none for an id without a record. */
  searchableTexts(id: number): string[] {
    const record = this.record(id);
    return record ? this.segmentsOf(record).map((segment) => segment.text) : [];
  }

  /**
   * The searchable attributes of this index's settings (null: every
   * attribute), parsed again only when the settings are another object:
   * highlighting reads them at every search.
   */
  parsedSearchableAttributes(): SearchableAttribute[] | null {
    if (this.parsedSearchable?.of !== this.settings) {
      this.parsedSearchable = { of: this.settings, attributes: searchableAttributes(this.settings) };
    }
    return this.parsedSearchable.attributes;
  }

  /** objectID of the live record `id` (without reading the record). */
  objectIDOf(id: number): string | undefined { return this.data.records.objectIDOf(id); }

  /** Record id of an objectID, if it is in the index. */
  idOf(objectID: string): number | undefined { return this.data.records.idOf(objectID); }

  /**
   * Whether every text leaf of the top-level attribute `name` is indexed in
   * the core this index searches (a virtual replica's is its primary's):
   * every token of its values is then a term of that core.
   */
  indexesWhole(name: string): boolean {
    const { attributes } = this.data;
    return name !== 'objectID' && (attributes === null || attributes.some((a) => a.path.length === 1 && a.name === name));
  }

  /** Core attribute ids of the named attributes (a name covers its nested paths). */
  attributeIds(names: string[]): number[] {
    const { attributes, dynamicAttributes } = this.data;
    const wanted = (path: string) => names.some((n) => path === n || path.startsWith(`${n}.`));
    if (attributes) return attributes.flatMap((a, id) => (wanted(a.name) ? [id] : []));
    return [...dynamicAttributes].flatMap(([path, id]) => (wanted(path) ? [id] : []));
  }

  *allRecords(): Iterable<SearchRecord> {
    for (const [, r] of this.data.records.entries()) yield r;
  }

  *liveEntries(from = 0): Iterable<[number, SearchRecord]> {
    yield* this.data.records.entries(from);
  }

  /**
   * Searches `primary`'s data from now on and holds none: a virtual
   * replica, or a standard one whose settings index records as its
   * primary's do (its copy would be the same data, indexed again at every
   * write). Reading another's data writes nothing here: updatedAt stays.
   */
  shareDataOf(primary: SearchIndex, virtual: boolean): void {
    this.virtual = virtual;
    if (this.shared === primary) return;
    const { updatedAt } = this;
    const version = this.version;
    this.shared?.readers.delete(this);
    this.shared = undefined;
    // what it held is let go (nothing to let go of when restored from a snapshot taken while it shared)
    if (this.records.length > 0) this.clear();
    this.updatedAt = updatedAt;
    this.shared = primary;
    primary.readers.add(this);
    // above every version it had (caches are kept per version)
    this.ownVersion = version + 1;
  }

  /** A replica that shared its primary's data takes a copy of the records it was reading, indexed by its own settings. */
  stopSharing(): void {
    const primary = this.shared;
    this.virtual = false;
    if (!primary) return;
    const version = this.version;
    const copy = this.ownCopy?.settings === JSON.stringify(this.settings) ? this.ownCopy.index : undefined;
    this.ownCopy = undefined;
    primary.readers.delete(this);
    this.shared = undefined;
    this.ownVersion = version + 1;
    if (copy) {
      this.adopt(copy);
      this.updatedAt = this.clock.now();
    } else {
      // a core configured by the settings it holds now (changed while it read another's data)
      this.clear();
      this.save([...primary.allRecords()]);
    }
    this.ownVectors.configure(this.settings.embedders, this.liveEntries(), this.searchableNames());
  }

  /** Whether this index's settings shape data as `other`'s do (see DATA_SETTINGS). */
  indexesAs(other: SearchIndex): boolean {
    return indexAlike(this.settings, other.settings);
  }

  // --- writes (applied by the task queue, never half-done: inputs are checked before queueing)

  /** Adds or replaces records; `loggedTexts`: per record, its JSON as the log holds it, if it does (see LOGGED_TEXT). */
  save(records: SearchRecord[], loggedTexts?: ReadonlyArray<Uint8Array | undefined>): void {
    if (this.shared) { this.followWrite(); return; }
    const started = performance.now();
    const grouping = this.groupsInUse();
    let batch: CoreDocument[] = [];
    for (let i = 0; i < records.length; i++) {
      const record = records[i];
      const previous = this.records.idOf(record.objectID);
      if (previous !== undefined && batch.length > 0 && previous >= batch[0].id) {
        this.core.addDocuments(batch);
        batch = [];
      }
      // the version replaced, for its vectors: kept (moved to the new record id) where they did not change
      const replaced = previous !== undefined && this.ownVectors.any && !this.keepVectors ? { id: previous, record: this.records.get(previous)! } : undefined;
      // a new objectID has nothing to remove (not looked up a second time: a tenth of an import's record store time)
      if (previous !== undefined) this.removeId(record.objectID, replaced ? 'vectorsMoved' : 'replaced');
      const id = this.records.push(record, loggedTexts?.[i]);
      this.facetIndex.add(id, record);
      if (this.ownVectors.any && !this.keepVectors) this.ownVectors.noteSaved(id, record, this.searchableNames(), replaced);
      this.noteOrders(id, record);
      for (const reader of this.readers) reader.noteOrders(id, record);
      for (const groups of grouping) groups.note(this.records, id, record);
      batch.push({ id, segments: this.segmentsOf(record) });
      if (batch.length >= CORE_BATCH) { this.core.addDocuments(batch); batch = []; }
    }
    if (batch.length) this.core.addDocuments(batch);
    if (loggedTexts) this.records.ownWaitingTexts();
    this.touched(started, records.length);
  }

  delete(objectIDs: string[]): void {
    if (this.shared) { this.followWrite(); return; }
    for (const objectID of objectIDs) this.removeId(objectID, 'deleted');
    this.touched(performance.now(), objectIDs.length);
  }

  partialUpdate(objectID: string, body: Record<string, Json>, createIfNotExists: boolean): void {
    const current = this.get(objectID);
    if (!current && !createIfNotExists) return;
    this.save([applyPartial(current ?? { objectID }, body)]);
  }

  clear(): void {
    this.replaceRecords(new RecordStore());
    this.compaction.reset();
    this.core = new CoreIndex();
    this.facetIndex = this.newFacetIndex();
    this.ownVectors.clear();
    this.configureCore();
    this.touched(performance.now());
  }

  /** Applies `changes` (as read), `given` holding the forms of those given in another form. */
  setSettings(changes: SettingsChanges, given: GivenForms = {}): void {
    this.givenForms = mergeGivenForms(this.givenForms, changes, given);
    const next = this.settingsAfter(changes);
    const reindex = !this.shared && changed(next, this.settings, INDEXING_SETTINGS);
    const rebuilt = this.rebuilt?.settings === JSON.stringify(next) ? this.rebuilt.index : undefined;
    this.rebuilt = undefined;
    this.settings = next;
    this.plan = rankingPlan(next);
    this.ownVersion++;
    if (rebuilt) this.adopt(rebuilt);
    else if (reindex) this.reindex();
    this.columnBuilding.noteWrite();
    if (!this.shared) this.ownVectors.configure(next.embedders, this.liveEntries(), this.searchableNames());
    this.updatedAt = this.clock.now();
  }

  /**
   * Before `setSettings(changes)`: when they change how records are indexed,
   * builds the new index a slice of records per event-loop turn, so searches
   * keep being answered by the current one until setSettings swaps it in.
   * Writes wait meanwhile (the task queue applies one task at a time).
   */
  async prepareSettings(changes: SettingsChanges): Promise<void> {
    if (this.shared) return;
    const next = this.settingsAfter(changes);
    if (!changed(next, this.settings, [...INDEXING_SETTINGS, 'attributesForFaceting'])) return;
    this.rebuilt = { settings: JSON.stringify(next), index: await this.buildCopy(next, [...this.allRecords()]) };
  }

  /**
   * Before a settings change after which this replica no longer indexes as
   * its primary does (see index-config.ts): builds its own copy of the
   * records it reads, with `next`, a slice per event-loop turn, which
   * stopSharing takes over instead of indexing every record at once.
   */
  async prepareOwnCopy(next: Settings): Promise<void> {
    if (!this.shared) return;
    this.ownCopy = { settings: JSON.stringify(next), index: await this.buildCopy(next, [...this.shared.allRecords()]) };
  }

  /**
   * Issues the live records' ids again, 0 to size - 1, once the ids issued
   * to records no longer there outnumber the live records four times (and
   * 10,000: see SPARSE_IDS): each version of a record written takes a new id, and
   * the bitmaps of every search span every id issued, so an index whose
   * records are updated in place grew slower to search with each update.
   * The index is built anew like a settings change's copy, a slice of
   * records per event-loop turn, searches answered by this one meanwhile;
   * the caller holds writes back until it resolves.
   */
  async renumberIfSparse(): Promise<void> {
    const unused = this.capacity - this.size;
    if (this.shared || unused <= Math.max(SPARSE_IDS.perRecord * this.size, SPARSE_IDS.least)) return;
    const built = await this.buildCopy(this.settings, [...this.allRecords()]);
    this.ownVersion++; // before adopting: the copy's ranks are valid for the version they are adopted at
    this.adopt(built);
  }

  /** The settings after `changes` (nothing applied). */
  settingsAfter(changes: SettingsChanges): Settings {
    return mergeSettings(this.settings, changes);
  }

  /** A new index of `records` with `next`, built a slice of records per event-loop turn (searches are answered between). */
  private async buildCopy(next: Settings, records: SearchRecord[]): Promise<SearchIndex> {
    const started = performance.now();
    const index = new SearchIndex(this.name, this.createdAt, this.clock);
    index.settings = next;
    index.plan = rankingPlan(next);
    index.configureCore();
    index.keepVectors = true; // this index's vectors are renumbered when it adopts the copy
    // the declared facets' columns made first: each slice saved adds to them, where made last they read every record in one pass
    for (const { name } of facetAttributes(next.attributesForFaceting)) index.facets.facet(name);
    for (let i = 0; i < records.length; i += REBUILD_SLICE) {
      index.save(records.slice(i, i + REBUILD_SLICE));
      await yieldTurn();
    }
    index.prepareRanks();
    index.lastBuildTimeS = Math.round((performance.now() - started) / 1000);
    return index;
  }

  /** Takes over the records, core and facets of an index built with this index's settings. */
  private adopt(built: SearchIndex): void {
    this.ownVectors.renumber(this.renumbering());
    this.core = built.core;
    this.replaceRecords(built.records);
    this.attributes = built.attributes;
    this.dynamicAttributes = built.dynamicAttributes;
    // its facet columns read `built.records`, which is this.records from now on
    // (every later replacement of this.records also replaces the facet index)
    this.facetIndex = built.facetIndex;
    this.compaction.reset();
    // the sort values noted so far (see noteOrders) are under the ids records had: made anew from the records
    this.rankOrders = undefined;
    for (const reader of this.readers) reader.rankOrders = undefined;
    this.lastBuildTimeS = built.lastBuildTimeS;
    // its ranks were computed from the same records and settings
    this.core.ranksOwner = this;
    this.core.ranksVersion = this.version;
    this.prefixWarming.noteWrite();
  }

  /**
   * Puts this index's rank arrays (customRanking, asc()/desc() criteria,
   * distinct groups) in its core's rank slots. A virtual replica shares the
   * core with its primary: whichever searches sets its own arrays, computed
   * once per data version.
   */
  prepareRanks(): void {
    this.rankedAt = performance.now();
    this.data.prefixWarming.noteSearch();
    const core = this.coreIndex;
    if (core.ranksOwner === this && core.ranksVersion === this.version) return;
    for (const [slot, labels] of this.computeRanksOnce()) core.syncRanks(slot, labels);
    core.ranksOwner = this;
    core.ranksVersion = this.version;
  }

  /** Whether searches asked for this index's ranks within the last `ms`. */
  rankedWithin(ms: number): boolean {
    return performance.now() - this.rankedAt <= ms;
  }

  /**
   * Computes this index's rank arrays for its data as it is now, once per
   * version, without putting them in the core: the engine calls it after
   * applying a write while searches arrive, so that the write pays for
   * folding its changes in, not the next search.
   */
  computeRanksOnce(): Array<[number, RankLabels]> {
    if (this.rankCache?.version !== this.version) this.rankCache = { version: this.version, slots: this.computeRanks() };
    return this.rankCache.slots;
  }

  private computeRanks(): Array<[number, RankLabels]> {
    return this.rankSlots().map(([slot, labels]) => [slot, labels()]);
  }

  /**
   * Brings the order behind rank slot number `k` (in rankSlots' order) up
   * to date with the data, ahead of computeRanks, which then finds it so:
   * the ranks readied an order a step while the thread is idle (see
   * IndexCatalog.readyRanks). Whether there is such a slot.
   */
  computeRankSlot(k: number): boolean {
    const slot = this.rankSlots()[k];
    slot?.[1]();
    return slot !== undefined;
  }

  /** This index's rank slots, each with what computes its labels for the data as it is (from an order kept across writes). */
  private rankSlots(): Array<[number, () => RankLabels]> {
    const slots: Array<[number, () => RankLabels]> = [
      [0, () => this.ranksFor(this.plan.custom, 0)],
      [TIE_SLOT, () => this.data.tieOrder.update(this.data.records)],
    ];
    this.plan.sorts.forEach((entry, i) => slots.push([i + 1, () => this.ranksFor([entry], i + 1)]));
    const distinctAttribute: string | undefined = this.settings.attributeForDistinct;
    if (distinctAttribute) slots.push([GROUP_SLOT, () => this.groupsFor(distinctAttribute).update(this.data.records)]);
    return slots;
  }

  /**
   * A live record's dense rank by customRanking: how many records rank
   * before it (0 without customRanking), as _rankingInfo's userScore counts.
   */
  customRankOf(id: number): number {
    return this.currentRankOrders()[0]?.rankOf(this.data.records, id) ?? 0;
  }

  // --- snapshots

  async snapshot(): Promise<IndexSnapshot> {
    // rank slots out of date are saved as they are and computed on the first search after a restart, as
    // after any write: computing them here would hold the main thread for the whole index
    const ranksFresh = !this.shared && this.core.ranksOwner === this && this.core.ranksVersion === this.version;
    const core = await this.core.exportSnapshot(yieldTurn);
    return {
      name: this.name,
      createdAt: this.createdAt.getTime(),
      updatedAt: this.updatedAt.getTime(),
      lastBuildTimeS: this.lastBuildTimeS,
      settings: this.settings,
      ...(Object.keys(this.givenForms).length > 0 ? { givenForms: this.givenForms } : {}),
      records: await this.records.snapshot(),
      dynamicAttributes: [...this.dynamicAttributes],
      core,
      ranksFresh,
      textForm: TEXT_FORM,
      synonyms: [...this.synonyms.values()],
      rules: [...this.rules.values()],
      primary: this.primary,
      ...(this.ownVectors.any ? { vectors: await this.ownVectors.snapshot(yieldTurn) } : {}),
    };
  }

  /** Reads every record it was restored with, as a restart would (a snapshot's proof); `pause` runs between hundreds of them. */
  async readEveryRecord(pause: () => Promise<void>): Promise<void> {
    await this.records.readEachPacked(pause);
  }

  static async restore(snapshot: IndexSnapshot, clock?: WriteClock): Promise<SearchIndex> {
    const index = new SearchIndex(snapshot.name, new Date(snapshot.createdAt), clock);
    index.settings = snapshot.settings;
    index.givenForms = snapshot.givenForms ?? {};
    index.plan = rankingPlan(index.settings);
    index.updatedAt = new Date(snapshot.updatedAt);
    index.lastBuildTimeS = snapshot.lastBuildTimeS;
    index.configureCore();
    index.dynamicAttributes = new Map(snapshot.dynamicAttributes);
    if (!index.attributes && index.dynamicAttributes.size > 0) {
      index.core.setAttributes([...index.dynamicAttributes.keys()].map(() => ({ rank: 0, unordered: true })));
    }
    if (!(await index.core.importSnapshot(snapshot.core, yieldTurn))) throw new Error(`index ${snapshot.name}: invalid core snapshot`);
    index.records = await RecordStore.unpack(snapshot.records);
    // a restored core's prefix cache is empty, as after an import; its facet columns are made anew
    index.prefixWarming.noteWrite();
    index.columnBuilding.noteWrite();
    // a snapshot from before the tie order (its slot empty) has its ranks computed at the first search
    if (snapshot.ranksFresh && (index.records.size === 0 || index.core.rankSlotLength(TIE_SLOT) > 0)) {
      // the snapshot holds the rank slots
      index.core.ranksOwner = index;
      index.core.ranksVersion = index.version;
    }
    for (const synonym of snapshot.synonyms) index.synonyms.set(synonym.objectID, synonym);
    for (const rule of snapshot.rules) index.rules.set(rule.objectID, rule);
    index.primary = snapshot.primary;
    if (index.settings.embedders) {
      index.ownVectors = await IndexVectors.restore(snapshot.vectors, index.settings.embedders, () => index.liveEntries(), index.searchableNames(), yieldTurn)
        .catch((e: Error) => { throw new Error(`index ${snapshot.name}: ${e.message}`); });
    }
    if ((snapshot.textForm ?? 0) < TEXT_FORM && index.holdsUnspacedText()) index.reindex();
    return index;
  }

  /** Whether a live record's searchable text holds a script written without spaces (reads every record: see TEXT_FORM). */
  private holdsUnspacedText(): boolean {
    for (const id of this.records.liveIds()) {
      if (this.searchableTexts(id).some(hasUnspacedScript)) return true;
    }
    return false;
  }

  /** About `budgetMs` of upkeep of this index's vector spaces (linking vectors written, rebuilding worn spaces: see IndexVectors.upkeep). */
  upkeepVectors(budgetMs: number): void {
    if (this.shared) return;
    this.ownVectors.upkeep(budgetMs, (id) => this.records.get(id), () => this.records.liveIds());
  }

  /** Vectors an embedder computed for records of this index (the engine logs them as a write: see engine.ts). */
  takeEmbedded(embedder: string, vectors: EmbeddedVector[]): void {
    this.ownVectors.takeEmbedded(embedder, vectors, (objectID) => {
      const id = this.records.idOf(objectID);
      return id === undefined ? undefined : { id, record: this.records.get(id)! };
    }, this.searchableNames());
    this.ownVersion++;
  }

  // --- internals

  /** Names of the searchable attributes (null: every attribute), what an embedder's text is made of by default. */
  private searchableNames(): string[] | null {
    return this.attributes?.map((a) => a.name) ?? null;
  }

  /**
   * Record ids as a rebuild issues them again: the live records, in id
   * order, get 0, 1, 2... (what `save` of allRecords() gives them).
   */
  private renumbering(): Int32Array {
    const next = new Int32Array(this.records.length).fill(-1);
    let id = 0;
    for (const [old] of this.records.entries()) next[old] = id++;
    return next;
  }

  /**
   * A step of making the columns a search may want, where missing (the
   * declared facets', and those filters may name undeclared: see
   * FacetIndex.buildSome); whether any is left. Made at a search's first
   * use, they read every record then: the first faceted search after an
   * import took 0.5-1 s at 100k records, 4.1 s once they were packed (each
   * decoded again), and the first numeric filter on an undeclared attribute
   * 0.38 s. Made as records are saved, they cost an import of 100k records
   * 17% more (TED's, with six facets, 70%).
   */
  private buildFilterColumnsSome(): boolean {
    if (this.shared) return false;
    return this.facets.buildSome({
      facets: facetAttributes(this.settings.attributesForFaceting).map((a) => a.name),
      numbers: numericFilterable(this.settings.numericAttributesForFiltering)?.all,
    }, COLUMN_SLICE_RECORDS);
  }

  private newFacetIndex(): FacetIndex {
    return new FacetIndex((from) => this.liveEntries(from), this.sortByKeys);
  }

  private configureCore(): void {
    this.attributes = searchableAttributes(this.settings);
    this.dynamicAttributes = new Map();
    this.core.setSeparators(effectiveSetting(this.settings, 'separatorsToIndex') ?? '');
    if (this.attributes) this.core.setAttributes(this.attributes);
  }

  private reindex(): void {
    const started = performance.now();
    const live = [...this.allRecords()];
    this.ownVectors.renumber(this.renumbering());
    this.replaceRecords(new RecordStore());
    this.core = new CoreIndex();
    this.facetIndex = this.newFacetIndex();
    this.configureCore();
    this.keepVectors = true;
    try { this.save(live); } finally { this.keepVectors = false; }
    this.lastBuildTimeS = Math.round((performance.now() - started) / 1000);
  }

  /** The index is dropped from its catalog, or its engine closed: its idle work (warming, facets, packing) stops. */
  letGo(): void {
    this.prefixWarming.cancel();
    this.columnBuilding.cancel();
    this.records.letGo();
  }

  /** Holds `store`'s records from now on; those held until now are let go of (nothing packs them any more). */
  private replaceRecords(store: RecordStore): void {
    this.records.letGo();
    this.records = store;
  }

  /**
   * Removes a record: `deleted` for good, `replaced` by a new version, or
   * replaced with its vectors left for the new version to take
   * (`vectorsMoved`: see IndexVectors.noteSaved).
   */
  private removeId(objectID: string, why: 'deleted' | 'replaced' | 'vectorsMoved' = 'replaced'): void {
    const id = this.records.remove(objectID);
    if (id === undefined) return;
    if (this.ownVectors.any && why !== 'vectorsMoved') this.ownVectors.noteRemoved(id, why === 'deleted' ? objectID : undefined);
    this.core.removeDocument(id);
    this.compaction.removed();
  }

  /** A write of its primary reaching a replica that shares its data: a standard one was written too, as the service's are. */
  private followWrite(): void {
    if (!this.virtual) this.updatedAt = this.clock.now();
  }

  /** After a write of `written` records (see compaction.ts). */
  private touched(started: number, written = 0): void {
    this.ownVersion++;
    this.updatedAt = this.clock.now();
    // the facet columns keep removed records: after a pass they are made anew (in idle time, or at their first use before)
    if (this.compaction.afterWrite(this.core, written, this.records.size)) this.facetIndex = this.newFacetIndex();
    this.prefixWarming.noteWrite();
    this.columnBuilding.noteWrite();
    this.lastBuildTimeS = Math.round((performance.now() - started) / 1000);
  }

  private segmentsOf(record: SearchRecord): Segment[] {
    const segments: Segment[] = [];
    if (this.attributes) {
      this.attributes.forEach((attr, attribute) => {
        // most values: a text at a name of the record's own, read without the lists valuesAt and textLeaves make
        const named = attr.path.length === 1 ? own(record, attr.path[0]) : undefined;
        if (typeof named === 'string') {
          segments.push({ attribute, text: named });
          return;
        }
        for (const value of valuesAt(record, attr.path)) {
          for (const text of textLeaves(value)) segments.push({ attribute, text });
        }
      });
      return segments;
    }
    pathLeaves(record, (path, text) => segments.push({ attribute: this.dynamicAttributeId(path), text }));
    return segments.sort((a, b) => a.attribute - b.attribute); // stable: an attribute's texts stay in document order
  }

  private dynamicAttributeId(path: string): number {
    let id = this.dynamicAttributes.get(path);
    if (id === undefined) {
      id = this.dynamicAttributes.size;
      this.dynamicAttributes.set(path, id);
      this.core.setAttributes([...this.dynamicAttributes.keys()].map(() => ({ rank: 0, unordered: true })));
    }
    return id;
  }

  /** The groups of `attribute` (see distinct-groups.ts), made anew when attributeForDistinct names another. */
  /**
   * Notes a record saved in the data this index reads (its own, or its
   * primary's): its sort values, while the record is at hand, so that a fold
   * of the orders does not decode it (groups are noted once: groupsInUse).
   */
  private noteOrders(id: number, record: SearchRecord): void {
    for (const order of this.currentRankOrders()) order?.note(this.data.records, id, record);
  }

  /**
   * The distinct groups this index and the replicas reading its data group
   * by, each once (records saved are noted in them); the groups of an
   * attribute none of them groups by any longer are let go.
   */
  private groupsInUse(): DistinctGroups[] {
    const attributes = new Set([this, ...this.readers].map((index) => index.settings.attributeForDistinct).filter((a): a is string => a !== undefined));
    for (const attribute of this.groupsByAttribute.keys()) if (!attributes.has(attribute)) this.groupsByAttribute.delete(attribute);
    return [...attributes].map((attribute) => this.groupsFor(attribute));
  }

  private groupsFor(attribute: string): DistinctGroups {
    const owner = this.data;
    let groups = owner.groupsByAttribute.get(attribute);
    if (!groups) {
      groups = new DistinctGroups(attribute.split('.'));
      owner.groupsByAttribute.set(attribute, groups);
    }
    return groups;
  }

  /** Labels by `entries`, from an order kept across writes (see rank-order.ts). */
  private ranksFor(entries: SortEntry[], order: number): RankLabels {
    if (entries.length === 0) return UNRANKED;
    return this.currentRankOrders()[order]!.update(this.data.records);
  }

  /**
   * The orders of the ranking plan: customRanking's (slot 0) and each sort's
   * (none where a slot sorts by nothing). Made with the plan, not at the
   * first search, so that records saved meanwhile note their sort values.
   */
  private currentRankOrders(): Array<RankOrder | undefined> {
    if (this.rankOrders?.plan !== this.plan) {
      const entries = [this.plan.custom, ...this.plan.sorts.map((entry) => [entry])];
      this.rankOrders = { plan: this.plan, orders: entries.map((e) => (e.length > 0 ? new RankOrder(e, this.sortByKeys) : undefined)) };
    }
    return this.rankOrders.orders;
  }
}

